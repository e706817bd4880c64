/**
 * `bun run bench visit [--link plain|macros] [--batches 300] [--repeat 3] [--baseline <checkout>]`:
 * the request thread's own work per redirect, without the network. It calls the visitor responder
 * (what the listening server's `/<code>` route calls: the visit's decision, the click journaled and
 * handed to the sink, the 302 made) in-process, on a `Request` built once, in batches of 2,000, with
 * the click writer running on its thread as in the service. No socket, no kernel and no HTTP parsing:
 * what `bench redirect` cannot tell apart from machine noise (tenths of a µs) shows here.
 *
 * `--link macros` serves a target with `{click_id}` and `{sub1}`, visited with `?sub1=net42`.
 * `--baseline` runs another checkout's code (its own modules, its start script's variables) the same
 * way, alternating with this one, so that both see the same machine; an older checkout runs a plain
 * link, as it had no macros. Each run is a process of its own on a fresh data directory; it prints
 * the fastest batch, the 10th percentile and the median in µs per answer, the median of `--repeat`
 * runs. Every run then waits for its writer to catch up, stops its sink and checks that the link's
 * click counter grew by the number of answers, and exits 1 if not. Prints figures; never fails on speed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { MACRO_URL, UA } from "./_redirect-servers";
import { startCommand } from "../scripts/start-command";

const { values } = parseArgs({
  options: {
    link: { type: "string", default: "plain" },
    batches: { type: "string", default: "300" },
    repeat: { type: "string", default: "3" },
    baseline: { type: "string" },
    child: { type: "string" },
  },
});
const BATCH = 2000;
const HERE = resolve(import.meta.dir, "..");

interface Figures {
  fastest: number;
  p10: number;
  median: number;
}

/** One run in this process: `checkout`'s modules, `linkKind`'s link, µs per answer by batch. */
async function measure(checkout: string, linkKind: string, batches: number): Promise<Figures> {
  const { loadConfig } = await import(join(checkout, "config"));
  const { createDeps } = await import(join(checkout, "app"));
  const { silentLogger } = await import(join(checkout, "core/log"));
  const { visitorResponder } = await import(join(checkout, "api/visitor"));
  const { upsertTelegramUser } = await import(join(checkout, "core/accounts/users"));
  const { createLink } = await import(join(checkout, "core/links/links"));
  const { links } = await import(join(checkout, "db/schema"));
  const { eq } = await import("drizzle-orm");
  const dataDir = mkdtempSync(join(tmpdir(), "bench-visit-"));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", SHORT_URL: "http://127.0.0.1" });
    const deps = createDeps(config, { log: silentLogger });
    const owner = await upsertTelegramUser(deps, { id: 1, username: "bench" });
    const link = await createLink(deps, owner, {
      url: linkKind === "macros" ? MACRO_URL : "https://example.com/landing",
      utm_source: "bench",
    });
    await deps.clicks.start({ offThread: true });
    const respond = visitorResponder(deps);
    const peer = { requestIP: () => ({ address: "203.0.113.7", family: "IPv4", port: 40000 }) };
    const url = `http://127.0.0.1/${link.code}${linkKind === "macros" ? "?sub1=net42" : ""}`;
    const request = new Request(url, { headers: { host: "127.0.0.1", "user-agent": UA } });
    const first = await respond(request, peer, link.code, "GET", undefined, "bench");
    if (first.status !== 302) throw new Error(`the link answered ${first.status}, not 302`);
    const times: number[] = [];
    for (let b = 0; b < batches; b++) {
      const started = performance.now();
      for (let i = 0; i < BATCH; i++) {
        const res = respond(request, peer, link.code, "GET", undefined, "bench");
        if (res instanceof Promise) await res;
      }
      times.push(((performance.now() - started) / BATCH) * 1000);
      // let the sink's timer and the writer's replies run between batches, as a server's loop would
      if (b % 10 === 9) await Bun.sleep(1);
    }
    // what the writer has not caught up with yet (it may have spilled to the journal on disk) is
    // written before the count, as a running server would go on writing it
    const backlog = (deps.clicks as { backlog?: () => { clicks: number } }).backlog;
    while (backlog && backlog.call(deps.clicks).clicks > 0) await Bun.sleep(20);
    await deps.clicks.stop();
    const answers = 1 + batches * BATCH;
    const [row] = deps.db.select({ total: links.totalClicks }).from(links).where(eq(links.id, link.id)).all();
    if (row?.total !== answers) throw new Error(`${answers} answers but the link counted ${row?.total} clicks`);
    deps.handle.close();
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!;
    return { fastest: times[0]!, p10: at(0.1), median: at(0.5) };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const batches = Number(values.batches);
  const repeat = Number(values.repeat);
  if (!Number.isInteger(batches) || batches < 1 || !Number.isInteger(repeat) || repeat < 1) {
    console.error(`--batches and --repeat take whole numbers above 0, not ${values.batches} and ${values.repeat}`);
    process.exit(2);
  }
  if (values.link !== "plain" && values.link !== "macros") {
    console.error(`--link takes plain or macros, not ${values.link}`);
    process.exit(2);
  }
  if (values.child) {
    const [checkout, linkKind] = values.child.split("\n") as [string, string];
    console.log(JSON.stringify(await measure(checkout, linkKind, batches)));
    return;
  }
  const runs: { name: string; checkout: string; link: string; figures: Figures[] }[] = [
    { name: "this checkout", checkout: HERE, link: values.link, figures: [] },
  ];
  if (values.baseline) runs.push({ name: `baseline (${values.baseline})`, checkout: resolve(values.baseline), link: "plain", figures: [] });
  console.log(
    `visitor responder in-process: ${batches} batches of ${BATCH.toLocaleString("en")} answers, µs per answer (the median of ${repeat} runs, each its own process)`,
  );
  for (let round = 0; round < repeat; round++)
    for (let j = 0; j < runs.length; j++) {
      // the checkouts in a rotating order, so that neither always runs first
      const run = runs[(round + j) % runs.length]!;
      const child = Bun.spawn(["bun", import.meta.path, "--batches", String(batches), "--child", `${run.checkout}\n${run.link}`], {
        env: { ...process.env, ...startCommand(run.checkout).env },
        stderr: "inherit",
      });
      const out = await new Response(child.stdout).text();
      if ((await child.exited) !== 0) {
        console.error(`the run of ${run.name} failed`);
        process.exit(1);
      }
      run.figures.push(JSON.parse(out) as Figures);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const run of runs) {
    const [fastest, p10, med] = (["fastest", "p10", "median"] as const).map((k) => median(run.figures.map((f) => f[k])));
    console.log(
      `  ${run.name}, ${run.link} link: fastest batch ${fastest!.toFixed(2)} µs, p10 ${p10!.toFixed(2)} µs, median ${med!.toFixed(2)} µs` +
        ` (medians by run: ${run.figures.map((f) => f.median.toFixed(2)).join(" ")}); every answer recorded`,
    );
  }
}

await main();
