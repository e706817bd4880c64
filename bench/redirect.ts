/**
 * Redirect benchmark: SHORT_URL/<code> of the real app against a bare Bun.serve answering the same
 * 302, in one run, each server in its own process, load from autocannon (64 connections) in this one.
 * Checks that every completed redirect was recorded as a click. Prints figures; never fails on speed.
 *
 *   bun run bench/redirect.ts [--duration 5] [--connections 64] [--rounds 5]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TARGET = "https://example.com/landing?utm_source=bench";
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

/** A side port in each server process that reports the CPU time the process has used (µs). */
function cpuPort(): number {
  return Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json(process.cpuUsage()) }).port!;
}

async function serve(kind: string, dataDir: string) {
  if (kind === "bare") {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(null, { status: 302, headers: { location: TARGET, "cache-control": "no-store" } }) });
    console.log(JSON.stringify({ port: server.port, cpu: cpuPort() }));
    return;
  }
  const { loadConfig } = await import("../config");
  const { createDeps } = await import("../core");
  const { silentLogger } = await import("../core/log");
  const { createApi } = await import("../api/app");
  const { upsertTelegramUser } = await import("../core/accounts/users");
  const { createLink } = await import("../core/links/links");
  const { clickRecorderFor } = await import("../core/clicks/recorder");
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", SHORT_URL: "http://127.0.0.1" });
  const deps = createDeps(config, { log: silentLogger });
  const user = upsertTelegramUser(deps, { id: 1, username: "bench" });
  const link = await createLink(deps, user, { url: "https://example.com/landing", utm_source: "bench" });
  const clicks = clickRecorderFor(deps);
  clicks.start({ offThread: true });
  const app = createApi(deps).listen({ hostname: "127.0.0.1", port: 0 });
  console.log(JSON.stringify({ port: app.server!.port, code: link.code, id: link.id, cpu: cpuPort() }));
  process.on("SIGTERM", async () => {
    await app.stop();
    await clicks.stop();
    deps.handle.close();
    process.exit(0);
  });
}

async function start(kind: string, dataDir: string) {
  const child = Bun.spawn(["bun", import.meta.path, "--serve", kind, dataDir], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return { child, info: JSON.parse(new TextDecoder().decode(value).split("\n")[0]!) as { port: number; cpu: number; code?: string; id?: number } };
}

async function load(url: string, connections: number, duration: number): Promise<any> {
  const { default: autocannon } = await import("autocannon"); // the load generator's process only
  return new Promise((resolve, reject) =>
    autocannon({ url, connections, duration, headers: { "user-agent": UA } }, (err: Error | null, res: any) => (err ? reject(err) : resolve(res))));
}

async function main() {
  const duration = arg("duration", 5);
  const loadStart = (await import("node:os")).loadavg()[0]!.toFixed(1);
  const connections = arg("connections", 64);
  const dataDir = mkdtempSync(join(tmpdir(), "linkbot-bench-"));
  const bare = await start("bare", dataDir);
  const app = await start("app", dataDir);
  const appUrl = `http://127.0.0.1:${app.info.port}/${app.info.code}`;
  const check = await fetch(appUrl, { redirect: "manual", headers: { "user-agent": UA } });
  if (check.status !== 302 || check.headers.get("location") !== TARGET) throw new Error(`app answered ${check.status} ${check.headers.get("location")}`);

  await load(`http://127.0.0.1:${bare.info.port}/x`, connections, 2); // warm-up
  await load(appUrl, connections, 2);
  const { Database } = await import("bun:sqlite");
  const countClicks = () => {
    const db = new Database(join(dataDir, "app.db"), { readonly: true });
    const n = (db.query("select count(*) as n from clicks").get() as { n: number }).n;
    db.close();
    return n;
  };
  await Bun.sleep(500);
  const before = countClicks();
  // Rounds alternate the two servers (bare→app, then app→bare, …) so a change in machine load hits
  // both; each round's ratio compares two back-to-back runs, and the median round is reported.
  const rounds = arg("rounds", 5);
  const bares: any[] = [];
  const apps: any[] = [];
  const cpuOf = async (s: { info: { cpu: number } }) => {
    const u = (await (await fetch(`http://127.0.0.1:${s.info.cpu}/`)).json()) as { user: number; system: number };
    return u.user + u.system;
  };
  /** server CPU µs per completed request, summed over the rounds: a figure that machine load disturbs far less */
  const cpu = { bare: 0, app: 0 };
  const measure = async (key: "bare" | "app") => {
    const s = key === "bare" ? bare : app;
    const before = await cpuOf(s);
    const r = await load(key === "bare" ? `http://127.0.0.1:${bare.info.port}/x` : appUrl, connections, duration);
    cpu[key] += (await cpuOf(s)) - before;
    (key === "bare" ? bares : apps).push(r);
  };
  for (let i = 0; i < rounds; i++) for (const key of i % 2 ? (["app", "bare"] as const) : (["bare", "app"] as const)) await measure(key);
  app.child.kill("SIGTERM");
  await app.child.exited;
  bare.child.kill();
  const recorded = countClicks() - before;
  const completed = apps.reduce((n, r) => n + r["3xx"], 0);
  const bareCompleted = bares.reduce((n, r) => n + r["3xx"], 0);

  const rps = (r: any) => r.requests.average as number;
  const ratios = apps.map((r, i) => rps(r) / rps(bares[i]));
  const mid = [...ratios.keys()].sort((x, y) => ratios[x]! - ratios[y]!)[Math.floor(rounds / 2)]!;
  const medianOf = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const row = (name: string, r: any) =>
    `${name.padEnd(12)} ${String(Math.round(rps(r))).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${r.errors + r.timeouts}   302s ${r["3xx"]}`;
  const { loadavg } = await import("node:os");
  console.log(`redirect benchmark: ${connections} connections, ${rounds} alternating rounds of ${duration} s; ${navigator.hardwareConcurrency} CPUs, ` +
    `load average ${loadavg()[0]!.toFixed(1)} at the end (${loadStart} at the start), Bun ${Bun.version}`);
  for (let i = 0; i < rounds; i++)
    console.log(`  round ${i + 1}: bare ${Math.round(rps(bares[i]))} req/s (p99 ${bares[i].latency.p99} ms), app ${Math.round(rps(apps[i]))} req/s (p99 ${apps[i].latency.p99} ms), ratio ${ratios[i]!.toFixed(2)}`);
  console.log(`median round (${mid + 1}):`);
  console.log(row("bare 302", bares[mid]));
  console.log(row("app /<code>", apps[mid]));
  console.log(`throughput ratio app/bare: ${ratios[mid]!.toFixed(2)} (median of the rounds' ratios; target ≥ 0.80); ` +
    `app p99 ${apps[mid].latency.p99} ms in that round, median over rounds ${medianOf(apps.map((r) => r.latency.p99))} ms (target < 5 ms); ` +
    `bare p99 median ${medianOf(bares.map((r) => r.latency.p99))} ms`);
  const perReq = { bare: cpu.bare / bareCompleted, app: cpu.app / completed };
  console.log(`server CPU per redirect: bare ${perReq.bare.toFixed(1)} µs, app ${perReq.app.toFixed(1)} µs (all threads, including click recording); ` +
    `CPU-bound throughput ratio ${(perReq.bare / perReq.app).toFixed(2)}`);
  console.log(`clicks recorded during the measured rounds: ${recorded}; completed redirects: ${completed}; ` +
    (recorded >= completed ? "every completed redirect was recorded" : `MISSING ${completed - recorded} clicks`));
  rmSync(dataDir, { recursive: true, force: true });
}

if (process.argv[2] === "--serve") await serve(process.argv[3]!, process.argv[4]!);
else await main();
