/**
 * Redirect benchmark: SHORT_URL/<code> of the real app against a bare Bun.serve answering the same
 * 302 (the same status and headers, checked before measuring), in one run, each server in its own
 * process. Load: autocannon (64 connections) in this process, or `--load wrk` (Debian's wrk, one
 * thread). Checks that every completed redirect was recorded as a click, once: exits 1 when a click
 * is missing, when more were recorded than requests could have reached the server, or when the
 * link's click counter disagrees with the stored clicks. Then a kill-and-restart round: the app is
 * loaded for `--kill-duration` seconds, killed with SIGKILL as the load ends, started again on the
 * same data directory (which writes what its click journal holds), stopped, and the same check
 * runs on that round's clicks. Prints figures; never fails on speed.
 *
 * `--link rules` serves a link with 20 redirect rules and 3 A/B variants instead of a plain one: no
 * rule matches the load generator's requests (each fails on its last condition), so every request
 * evaluates all 20 before its variant is picked; the bare server answers that variant's Location.
 *
 * `--link macros` serves a plain link whose target carries macros (`?cid={click_id}&net={sub1}`):
 * every answer has the click's own id, so the answers are compared with the id left out, and the
 * bare server answers one of them. Against `--baseline` (whose plain link has no macros) it gives
 * what a link with macros costs.
 *
 * `--journal-cost` adds a third server to every round: the same app with its click journal off
 * (clicks wait in memory for the writer, as before the journal), on a data directory of its own,
 * and reports what the journal costs: the median over rounds of the difference of the two apps'
 * ratios, and the difference of their CPU per redirect.
 *
 * `--baseline <checkout>` adds one more server to every round: the app of another checkout (its own
 * `bench/redirect.ts --serve app`, on a data directory of its own), such as the code before the click
 * journal (`git worktree add /tmp/base b82a42b && (cd /tmp/base && bun install)`), and reports this
 * app's ratio against it, round by round, as the issue's budget states it.
 *
 * `--ceiling` adds a bare server that first reads what recording a click needs (the peer's address,
 * Host, User-Agent, Referer, the URL) and records nothing: its ratio to bare is the ceiling of any
 * app that records who clicked, on this runtime and machine.
 *
 * `--cluster` adds the cluster run (bench/_cluster.ts): one node on PostgreSQL, and three nodes
 * behind HAProxy, against the same link, after the single-node figures.
 *
 *   bun run bench/redirect.ts [--duration 5] [--connections 64] [--rounds 5] [--load autocannon|wrk] [--link plain|rules] [--kill-duration 2] [--journal-cost] [--baseline <checkout>] [--ceiling] [--cluster]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadGenerator, type LoadResult } from "./_load";
import { threadCpu, threadDelta } from "./_thread-cpu";
import { answerOf, start, serve, TARGET, UA } from "./_redirect-servers";
import { reportRounds } from "./_redirect-report";
import { tmpdir } from "node:os";
import { join } from "node:path";

const argText = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const arg = (name: string, fallback: number) => Number(argText(name) ?? fallback);

async function main() {
  const duration = arg("duration", 5);
  const loadStart = (await import("node:os")).loadavg()[0]!.toFixed(1);
  const connections = arg("connections", 64);
  const tool = argText("load") ?? "autocannon";
  const load = loadGenerator(tool, UA);
  const linkKind = argText("link") ?? "plain";
  if (linkKind !== "plain" && linkKind !== "rules" && linkKind !== "macros")
    throw new Error(`--link takes plain, rules or macros, not ${linkKind}`);
  const dataDir = mkdtempSync(join(tmpdir(), "linkbot-bench-"));
  const app = await start("app", dataDir, linkKind);
  const appUrl = `http://127.0.0.1:${app.info.port}/${app.info.code}`;
  // with rules, the load generator's requests get one of the variants: the bare server answers that one
  const location = (await fetch(appUrl, { redirect: "manual", headers: { "user-agent": UA } })).headers.get("location")!;
  const expected =
    linkKind === "rules"
      ? /^https:\/\/example\.com\/landing-[abc]\?utm_source=bench$/
      : linkKind === "macros"
        ? /^https:\/\/example\.com\/landing\?cid=[A-Za-z0-9_-]{1,24}&net=&utm_source=bench$/
        : new RegExp(`^${TARGET.replace(/[.?/]/g, "\\$&")}$`);
  if (!expected.test(location))
    throw new Error(`the app redirects to ${location}, not to the link's ${linkKind === "rules" ? "variants" : "target"}`);
  const bare = await start("bare", dataDir, linkKind, location);
  const reads = process.argv.includes("--ceiling") ? await start("reads", dataDir, linkKind, location) : null;
  const readsUrl = reads ? `http://127.0.0.1:${reads.info.port}/${app.info.code}` : "";
  const journalCost = process.argv.includes("--journal-cost");
  const plainDir = journalCost ? mkdtempSync(join(tmpdir(), "linkbot-bench-nojournal-")) : "";
  const plain = journalCost ? await start("app-nojournal", plainDir, linkKind) : null;
  const plainUrl = plain ? `http://127.0.0.1:${plain.info.port}/${plain.info.code}` : "";
  if (plain && (await answerOf(plainUrl)) !== (await answerOf(appUrl))) throw new Error("the app without its journal answers differently");
  const baselineDir = argText("baseline");
  const baseDir = baselineDir ? mkdtempSync(join(tmpdir(), "linkbot-bench-baseline-")) : "";
  const base = baselineDir ? await start("app", baseDir, linkKind, TARGET, join(baselineDir, "bench", "redirect.ts")) : null;
  const baseUrl = base ? `http://127.0.0.1:${base.info.port}/${base.info.code}` : "";
  const baseCommit = baselineDir
    ? (await new Response(Bun.spawn(["git", "-C", baselineDir, "rev-parse", "--short", "HEAD"], { stdout: "pipe" }).stdout).text()).trim()
    : "";
  if (base) {
    const [ours, theirs] = [await answerOf(appUrl), await answerOf(baseUrl)];
    if (ours !== theirs) console.log(`note: the baseline answers differently:\n  app      ${ours}\n  baseline ${theirs}`);
  }
  const bareUrl = `http://127.0.0.1:${bare.info.port}/${app.info.code}`;
  const [appAnswer, bareAnswer] = [await answerOf(appUrl), await answerOf(bareUrl)];
  if (appAnswer !== bareAnswer) throw new Error(`the two servers answer differently:\n  app  ${appAnswer}\n  bare ${bareAnswer}`);
  if (reads && (await answerOf(readsUrl)) !== bareAnswer) throw new Error("the reads-only server answers differently from the bare one");

  await load(bareUrl, connections, 2); // warm-up
  await load(appUrl, connections, 2);
  if (plain) await load(plainUrl, connections, 2);
  if (base) await load(baseUrl, connections, 2);
  if (reads) await load(readsUrl, connections, 2);
  const { Database } = await import("bun:sqlite");
  /** the stored clicks, and the link's own counter of them (read with the app stopped, or lagging behind it) */
  const countClicks = () => {
    const db = new Database(join(dataDir, "app.db"), { readonly: true });
    const n = (db.query("select count(*) as n from clicks").get() as { n: number }).n;
    const counter = (db.query("select total_clicks as n from links where code = ?").get(app.info.code!) as { n: number }).n;
    db.close();
    return { n, counter };
  };
  await Bun.sleep(500);
  const before = countClicks();
  // Rounds alternate the two servers (bare→app, then app→bare, …) so a change in machine load hits
  // both; each round's ratio compares two back-to-back runs, and the median round is reported.
  const rounds = arg("rounds", 5);
  const bares: LoadResult[] = [];
  const apps: LoadResult[] = [];
  const cpuOf = async (s: { info: { cpu: number } }) => {
    const u = (await (await fetch(`http://127.0.0.1:${s.info.cpu}/`)).json()) as { user: number; system: number };
    return u.user + u.system;
  };
  /** server CPU µs per completed request, summed over the rounds: a figure that machine load disturbs far less */
  const cpu = { bare: 0, app: 0, plain: 0, base: 0, reads: 0 };
  /** the same CPU time, thread by thread */
  const threads = {
    bare: new Map<string, number>(),
    app: new Map<string, number>(),
    plain: new Map<string, number>(),
    base: new Map<string, number>(),
    reads: new Map<string, number>(),
  };
  const plains: LoadResult[] = [];
  const bases: LoadResult[] = [];
  const readsResults: LoadResult[] = [];
  const servers = {
    bare: { s: bare, url: bareUrl, out: bares },
    app: { s: app, url: appUrl, out: apps },
    plain: { s: plain, url: plainUrl, out: plains },
    base: { s: base, url: baseUrl, out: bases },
    reads: { s: reads, url: readsUrl, out: readsResults },
  };
  type Key = keyof typeof servers;
  const measure = async (key: Key) => {
    const { url, out } = servers[key];
    const s = servers[key].s!;
    const before = await cpuOf(s);
    const threadsBefore = threadCpu(s.child.pid);
    const r = await load(url, connections, duration);
    cpu[key] += (await cpuOf(s)) - before;
    for (const [k, v] of threadDelta(threadsBefore, threadCpu(s.child.pid))) threads[key].set(k, (threads[key].get(k) ?? 0) + v);
    out.push(r);
  };
  // the servers that run, each round in a rotated order (bare→app, then app→bare; with more, each goes first in turn)
  const keys = (Object.keys(servers) as Key[]).filter((key) => servers[key].s);
  for (let i = 0; i < rounds; i++)
    for (let k = 0; k < keys.length; k++) await measure(keys[(k + keys.length - (i % keys.length)) % keys.length]!);
  for (const [other, dir] of [
    [plain, plainDir],
    [base, baseDir],
  ] as const) {
    if (!other) continue;
    other.child.kill("SIGTERM");
    await other.child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
  app.child.kill("SIGTERM");
  await app.child.exited;
  bare.child.kill();
  reads?.child.kill();
  const after = countClicks();
  const recorded = after.n - before.n;
  const counted = after.counter - before.counter;
  const completed = apps.reduce((n, r) => n + r.redirects, 0);
  // A request still in flight when a round ends reaches the server (and is recorded) without being
  // counted as completed: at most one per connection and round. Failed requests may have been too.
  const atMost = completed + connections * rounds + apps.reduce((n, r) => n + r.errors, 0);
  const bareCompleted = bares.reduce((n, r) => n + r.redirects, 0);

  const { mid, row } = reportRounds({
    linkKind,
    tool,
    connections,
    rounds,
    duration,
    loadStart,
    baseCommit,
    bares,
    apps,
    plains: plain ? plains : null,
    bases: base ? bases : null,
    reads: reads ? readsResults : null,
    cpu,
    threads,
    completed,
    bareCompleted,
  });
  const problemsOf = (recorded: number, counted: number, completed: number, atMost: number) =>
    [
      recorded < completed && `MISSING ${completed - recorded} clicks`,
      recorded > atMost && `${recorded - atMost} more clicks than requests could have reached the server`,
      counted !== recorded && `the link's counter grew by ${counted}, not by the ${recorded} clicks stored`,
    ].filter(Boolean);
  const problems = problemsOf(recorded, counted, completed, atMost);
  console.log(
    `clicks recorded during the measured rounds: ${recorded} (link counter +${counted}); completed redirects: ${completed}; ` +
      (problems.length
        ? `FAILED: ${problems.join("; ")}`
        : `every completed redirect was recorded once (at most ${atMost - completed} in flight at round ends)`),
  );

  // kill-and-restart round: SIGKILL as the load ends leaves the last batches in the click journal only
  const killDuration = arg("kill-duration", 2);
  const killed = await start("app", dataDir, linkKind);
  const beforeKill = countClicks();
  const k = await load(`http://127.0.0.1:${killed.info.port}/${app.info.code}`, connections, killDuration);
  killed.child.kill("SIGKILL");
  await killed.child.exited;
  const atKill = countClicks();
  const restarted = await start("app", dataDir, linkKind); // its click sink writes what the journal holds before it answers
  restarted.child.kill("SIGTERM");
  await restarted.child.exited;
  const afterKill = countClicks();
  const killRecorded = afterKill.n - beforeKill.n;
  const killProblems = problemsOf(killRecorded, afterKill.counter - beforeKill.counter, k.redirects, k.redirects + connections + k.errors);
  console.log(
    `kill-and-restart round: ${k.redirects} redirects completed in ${killDuration} s, SIGKILL as the load ended with ${atKill.n - beforeKill.n} of their clicks in the database; ` +
      `after the restart ${killRecorded} (link counter +${afterKill.counter - beforeKill.counter}); ` +
      (killProblems.length ? `FAILED: ${killProblems.join("; ")}` : "every completed redirect was recorded once"),
  );
  rmSync(dataDir, { recursive: true, force: true });
  let clusterProblems: string[] = [];
  if (process.argv.includes("--cluster")) {
    const { clusterRun } = await import("./_cluster");
    const c = await clusterRun({ load, connections, duration, rounds, ua: UA });
    const mid3 = (xs: LoadResult[]) => [...xs].sort((x, y) => x.rps - y.rps)[Math.floor(xs.length / 2)]!;
    console.log(`cluster run (PostgreSQL, a plain link, ${rounds} alternating rounds of ${duration} s each), median rounds:`);
    console.log(`${row("SQLite node", apps[mid]!)}   (the single-node run above)`);
    console.log(row("1 PG node", mid3(c.one)));
    console.log(row("3 PG+HAProxy", mid3(c.three)));
    clusterProblems = c.problems;
    console.log(
      `clicks stored in PostgreSQL during the cluster rounds: ${c.stored}; completed redirects: ${c.completed}; after each round the writers caught up in ` +
        `${c.drains.one.map((d) => d.toFixed(1)).join(", ")} s (one node) and ${c.drains.three.map((d) => d.toFixed(1)).join(", ")} s (three nodes); ` +
        (c.problems.length ? `FAILED: ${c.problems.join("; ")}` : "every completed redirect was recorded once"),
    );
  }
  if (problems.length || killProblems.length || clusterProblems.length) process.exitCode = 1;
}

if (process.argv[2] === "--serve") await serve(process.argv[3]!, process.argv[4]!, process.argv[5]!, process.argv[6]!);
else await main();
