/**
 * `bun run bench journal-outage [clicks] [--only default,small,restart]` (1,000,000 clicks by default): a node's click sink and journal
 * through a long database outage, for real. A cluster node (PostgreSQL, the writer thread) records
 * `clicks` clicks (each with a Referer of its own, so that each stored row can be told apart) while
 * PostgreSQL is stopped, then PostgreSQL comes back. Three rounds, each in a process of its own:
 *
 *   default cap   JOURNAL_MEMORY_CLICKS at its default (200,000); the writer catches up live
 *   small cap     JOURNAL_MEMORY_CLICKS at 5,000; the writer catches up live
 *   restart       the small cap; the process is killed (SIGKILL) at the end of the outage and a new
 *                 one starts with the database back, replaying the whole backlog from the journal
 *
 * Each prints its memory (RSS, its anonymous part — heap and buffers, without the journal's mapped
 * file pages — and the JavaScript heap) every tenth of the clicks, at the end of the outage (after a
 * full GC), during catch-up or replay, and after; then counts the clicks stored: every one once
 * (the distinct Referers) and none lost. Prints figures; fails only when a click is lost or doubled.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const N = Number(process.argv[2] ?? 1_000_000);
/** `--only default,small,restart`: some of the rounds */
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1]!.split(",") : null;
const SMALL_CAP = 5000;
type Round = { name: string; cap: number; dataDir: string; pgUrl: string; phase: "outage" | "live" | "replay"; linkId?: number };

const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
const anon = () => Number(/RssAnon:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))![1]) * 1024;

if (process.env.OUTAGE_ROUND) await child(JSON.parse(process.env.OUTAGE_ROUND) as Round);
else await main();

async function main() {
  const { startPostgres } = await import("../test/helpers/postgres");
  const pg = await startPostgres();
  const db = new URL(pg.url).pathname.slice(1);
  const dirs: string[] = [];
  let failed = false;
  try {
    for (const [name, cap, restart] of [
      ["default cap", 200_000, false],
      ["small cap", SMALL_CAP, false],
      ["restart", SMALL_CAP, true],
    ] as const) {
      if (ONLY && !ONLY.includes(name.split(" ")[0]!)) continue;
      const dataDir = mkdtempSync(join(tmpdir(), "linkbot-outage-"));
      dirs.push(dataDir);
      const round: Round = { name, cap, dataDir, pgUrl: pg.url, phase: restart ? "outage" : "live" };
      console.log(
        `\n== ${name}: JOURNAL_MEMORY_CLICKS=${cap}, ${N} clicks during the outage${restart ? ", killed, then a new process replays" : ""}`,
      );
      let linkId = 0;
      const first = run(round, async (msg) => {
        if (msg.ask === "halt") await pg.halt();
        if (msg.ask === "resume") await pg.resume();
        if (msg.linkId) linkId = msg.linkId;
      });
      const code = await first;
      if (restart) {
        if (code !== 137 && code !== 9) console.log(`(the first process ended with ${code}, not killed)`);
        await pg.resume();
        await run({ ...round, phase: "replay", linkId }, async () => {});
      }
      const [stored, distinct] = (
        await pg.admin(`select count(*) || ',' || count(distinct referer) from clicks where link_id = ${linkId}`, db)
      )
        .trim()
        .split(",")
        .map(Number);
      const lost = N - distinct!;
      const doubled = stored! - distinct!;
      console.log(`stored ${stored} of ${N}: ${lost} lost, ${doubled} stored twice`);
      if (lost || doubled) failed = true;
    }
  } finally {
    await pg.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

/** Runs a round's phase in a process of its own, answering its requests to stop and start PostgreSQL; resolves to its exit code. */
function run(round: Round, on: (msg: { ask?: string; linkId?: number }) => Promise<void>): Promise<number> {
  const proc = Bun.spawn(["bun", import.meta.path, String(N)], {
    env: { ...process.env, OUTAGE_ROUND: JSON.stringify(round) },
    stdio: ["inherit", "inherit", "inherit"],
    ipc(msg) {
      void on(msg as { ask?: string; linkId?: number }).then(() => proc.send({ done: true }));
    },
  });
  return proc.exited;
}

/** Asks the parent for something (stopping or starting PostgreSQL) and waits until it is done. */
function ask(msg: object): Promise<void> {
  return new Promise((resolve) => {
    process.once("message", () => resolve());
    process.send!(msg);
  });
}

async function child(round: Round) {
  const { loadConfig } = await import("../config");
  const { openDeps } = await import("../app");
  const { silentLogger } = await import("../core/log");
  const config = loadConfig({
    DATABASE_URL: round.pgUrl,
    NODE_NAME: round.name.replace(/\W/g, ""),
    DATA_DIR: round.dataDir,
    LOG_LEVEL: "error",
    SHORT_URL: "http://127.0.0.1",
    JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    JOURNAL_MEMORY_CLICKS: String(round.cap),
  });
  const deps = await openDeps(config, { log: silentLogger });
  const sink = deps.clicks;
  const t0 = Date.now();
  const show = (label: string) => {
    const m = process.memoryUsage();
    const held = sink.memory();
    console.log(
      `${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${label.padEnd(34)} RSS ${mb(m.rss).padStart(7)}  anon ${mb(anon()).padStart(7)}  heap ${mb(m.heapUsed).padStart(7)}  in memory ${String(held.clicks).padStart(7)}  waiting ${String(sink.backlog().clicks).padStart(8)}${held.spilling ? "  (spilling)" : ""}`,
    );
  };
  const settle = async () => {
    Bun.gc(true);
    await new Promise((r) => setImmediate(r));
  };

  if (round.phase === "replay") {
    // the database is back: start() replays the whole backlog from the journal before it returns
    show("before replay");
    const sampler = setInterval(() => show("replaying"), 2000);
    await sink.start({ offThread: true });
    clearInterval(sampler);
    await settle();
    show(`replayed (after GC) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await sink.stop();
    process.exit(0);
  }

  const { links, users } = deps.asyncDb.tables;
  const [user] = await deps.asyncDb.insert(users).values({ username: "outage", createdAt: new Date() }).returning();
  const [link] = await deps.asyncDb
    .insert(links)
    .values({ userId: user!.id, code: `outage${Date.now()}`, url: "https://ok.example/", createdAt: new Date(), updatedAt: new Date() })
    .returning();
  await ask({ linkId: link!.id });
  await sink.start({ offThread: true });
  await settle();
  show("started");
  await ask({ ask: "halt" });
  const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
  const step = Math.max(10_000, Math.floor(N / 10));
  for (let i = 0; i < N; ) {
    // a part as the redirect's requests would bring it, then the event loop runs (the sink's ticks)
    for (const end = Math.min(N, i + 2000); i < end; i++)
      sink.record({
        linkId: link!.id,
        clickedAt: new Date(),
        ip: `198.51.${(i >> 8) & 255}.${i & 255}`,
        userAgent: UA,
        referer: `https://t.me/c/${i}`,
        isBot: false,
        botName: null,
      });
    await new Promise((r) => setImmediate(r));
    if (i % step === 0) show(`outage, ${i} clicks`);
  }
  await settle();
  show("end of outage (after GC)");
  if (round.phase === "outage") {
    process.kill(process.pid, "SIGKILL"); // as kill -9: what waits is in the journal only
  }
  await ask({ ask: "resume" });
  show("database back");
  while (sink.backlog().clicks > 0) {
    await new Promise((r) => setTimeout(r, 2000));
    show("catching up");
  }
  await settle();
  show(`caught up (after GC)`);
  await sink.stop();
  process.exit(0);
}
