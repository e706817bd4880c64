/**
 * A long outage with a small memory cap, for real: a node on PostgreSQL with JOURNAL_MEMORY_CLICKS
 * at 2,000, an unpaced load of traced visits (a Referer each), and PostgreSQL stopped until
 * OUTAGE_CAPS times the cap has been answered. The node says it is spilling, holds no more than the
 * cap (and a tick's batch) in memory, its resident memory stays flat, /metrics says how much waits on
 * disk; once the database is back, the writer catches up from the journal, its resident memory
 * stays flat through the whole catch-up (one transaction after another in the writer thread), and
 * every answered visit is stored exactly once.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { tempDir } from "../helpers/reaper";
import { startPostgres, type PgServer } from "../helpers/postgres";
import { eventually } from "../helpers/eventually";
import { parsePrometheus, sampleOf } from "../helpers/prometheus";
import { expectEveryVisitStoredOnce, tracedVisits } from "../helpers/traced-visits";

setDefaultTimeout(420_000);
const CAP = 2000;
/** clicks answered during the outage, in caps: enough that the catch-up is many transactions long */
const OUTAGE_CAPS = 12;
/** visits answered before the outage, while the node's resident memory under the load is read */
const WARM_UP = 60_000;
let pg: PgServer;
let dir: string;
beforeAll(async () => {
  pg = await startPostgres();
  dir = tempDir("linkbot-spill-");
});
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The process's anonymous resident memory (its heap and buffers; the journal's mapped file pages are the kernel's to drop, and not counted). */
const rssOf = (pid: number) => Number(/RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

test("a long outage past the memory cap: what waits stays on disk, memory stays bounded, nothing is lost", async () => {
  const db = new URL(pg.url).pathname.slice(1);
  const node = spawnService(
    [join(ROOT, "main.ts")],
    cleanEnv({
      DATABASE_URL: pg.url,
      DATA_DIR: dir,
      NODE_NAME: "spill",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      JOURNAL_MEMORY_CLICKS: String(CAP),
    }),
  );
  try {
    const url = `http://127.0.0.1:${Number((await node.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1])}`;
    const scrape = async () => parsePrometheus(await (await fetch(`${url}/metrics`)).text());
    await pg.admin(
      `insert into users (username, created_at) values ('u', now()); insert into links (user_id, code, url, created_at, updated_at) select id, 'spilled', 'https://ok.example/', now(), now() from users`,
      db,
    );
    const linkId = Number(await pg.admin("select id from links where code = 'spilled'", db));
    const load = tracedVisits([{ name: "spill", url }], "spilled", 8, 0);
    // The node's resident memory under this load with nothing waiting, at its highest: the reference
    // for the outage and the catch-up below. Under the load alone it climbs for a while (its JIT, its
    // heap's sizes) and then swings by tens of MB as its collector runs (seen here: 160 → 345 MB over
    // the first 60,000 visits, then 270–345 MB), so one reading taken at some moment compared the
    // catch-up's highest with a low point of that swing, and failed by chance.
    let rssLoad = 0;
    await eventually(
      () => {
        rssLoad = Math.max(rssLoad, rssOf(node.proc.pid));
        return load.answered.length >= WARM_UP;
      },
      "visits before the outage",
      120_000,
    );

    await pg.halt();
    const at = load.answered.length;
    let most = 0;
    let spilled = false;
    // resident memory through the outage, at its highest
    let rssOutage = 0;
    // until OUTAGE_CAPS times the cap has been answered while the database is away
    await eventually(
      async () => {
        const m = await scrape();
        most = Math.max(most, sampleOf(m, "linkbot_click_journal_memory_clicks") ?? 0);
        spilled ||= sampleOf(m, "linkbot_click_journal_spilling") === 1;
        rssOutage = Math.max(rssOutage, rssOf(node.proc.pid));
        return load.answered.length >= at + OUTAGE_CAPS * CAP;
      },
      "visits during the outage",
      240_000,
    );
    const m = await scrape();
    const outageClicks = load.answered.length - at;
    expect(spilled).toBe(true);
    expect(sampleOf(m, "linkbot_click_journal_backlog")).toBeGreaterThanOrEqual(OUTAGE_CAPS * CAP);
    expect(sampleOf(m, "linkbot_click_journal_bytes")).toBeGreaterThan(0);
    expect(sampleOf(m, "linkbot_click_journal_disk_free_bytes")).toBeGreaterThan(0);
    // the cap, and what one tick packs before it is let go
    expect(most).toBeLessThanOrEqual(CAP + 10_000);
    await pg.resume();
    // resident memory through the catch-up, to its end (nothing waiting), visits going on meanwhile
    let rssCatchUp = 0;
    await eventually(
      async () => {
        const now = await scrape();
        rssCatchUp = Math.max(rssCatchUp, rssOf(node.proc.pid));
        return sampleOf(now, "linkbot_click_journal_spilling") === 0;
      },
      "the writer to catch up",
      150_000,
    );
    await load.stop();
    await eventually(
      async () => {
        rssCatchUp = Math.max(rssCatchUp, rssOf(node.proc.pid));
        return sampleOf(await scrape(), "linkbot_click_journal_backlog") === 0;
      },
      "the last clicks to be written",
      30_000,
    );
    const figures = await expectEveryVisitStoredOnce(pg, linkId, load.answered);
    expect([...load.other]).toEqual([]);
    console.log(
      `spill: ${figures.answered} answered (${load.answered.length - at} during the outage), ${figures.stored} stored, ${figures.lost} lost; most in memory ${most}; anonymous RSS at most ${Math.round(rssLoad / 2 ** 20)} MB under the load alone → ${Math.round(rssOutage / 2 ** 20)} MB in the outage (${outageClicks} waiting) → ${Math.round(rssCatchUp / 2 ** 20)} MB catching up`,
    );
    // many times the cap waiting: no more memory than the node under the same load with nothing waiting
    expect(rssOutage - rssLoad).toBeLessThan(32 * 2 ** 20);
    // the writer thread writing them all back, transaction after transaction: no more than that either
    expect(rssCatchUp - rssLoad).toBeLessThan(48 * 2 ** 20);
  } finally {
    node.proc.kill("SIGTERM");
  }
  expect(await node.exit()).toBe(0);
});
