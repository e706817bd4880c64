/**
 * The memory cap without the writer thread: a sink writing on its own thread (its write queue)
 * through a long outage holds no more than JOURNAL_MEMORY_CLICKS, lets the rest wait in the journal,
 * is fed from disk in bounded parts once the database is back, and stores every click once.
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { count, countDistinct, eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { eventually } from "../../helpers/eventually";
import { clickWriterOf } from "../../../app";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import { createPgClickWriter } from "../../../core/clicks/writer-pg";
import { silentLogger } from "../../../core/log";
import { createClickSink } from "../../../core/clicks/sink";
import { packedLength } from "../../../core/clicks/packed";
import type { ClickWriter } from "../../../core/clicks/writer";
import { clicks } from "../../../db/schema";

setDefaultTimeout(60_000);
const CAP = 1000;
/** clicks packed before a tick is due at once (the sink's maxBatch) */
const BATCH = 200;
let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => {
  t.close();
  rmSync(t.dataDir, { recursive: true, force: true });
});

/**
 * How the database is away in a test: every write fails at once, as a locked SQLite file does
 * (transient: kept and retried); or a write waits until the database is back, as one on a
 * connection that hangs does, and ticks come while it waits.
 */
type Outage = "fails" | "hangs";

/** `intervalMs`: the sink's timer (a tick also comes when a batch fills, and, while spilling, after each commit) */
async function outagePastTheCap(outage: Outage, intervalMs = 5) {
  const user = (await t.telegramUser()).token;
  const { id: linkId } = (await t.request("POST", "/api/links", { token: user, body: { url: "https://ok.example/" } })).json as {
    id: number;
  };
  // the suite's database: on PostgreSQL the app's connection (the SQLite engine's writer would write to its own file)
  const real =
    t.deps.asyncDb.engine === "postgres" ? createPgClickWriter(t.deps, CLICK_LISTENERS, { journal: "sink-memory" }) : clickWriterOf(t.deps);
  let down = true;
  let back = Promise.withResolvers<void>();
  let largest = 0;
  const writer: ClickWriter = {
    async write(batch, isolate) {
      if (down && outage === "fails") throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
      if (down) await back.promise;
      largest = Math.max(largest, packedLength(batch));
      return real.write(batch, isolate);
    },
    committedSeq: () => real.committedSeq(),
  };
  const sink = createClickSink({
    log: silentLogger,
    config: { ...t.deps.config, journalMemoryClicks: CAP },
    writer: () => writer,
    journalDir: join(t.dataDir, "cap-journal"),
    intervalMs,
    maxBatch: BATCH,
  });
  down = false;
  await sink.start();
  down = true;
  back = Promise.withResolvers<void>();
  let most = 0;
  let spilled = false;
  const N = 12 * CAP;
  for (let i = 0; i < N; i++) {
    sink.record({
      linkId,
      clickedAt: new Date(1_700_000_000_000 + i),
      ip: "198.51.100.7",
      userAgent: "Mozilla/5.0",
      referer: `https://t.me/c/${i}`,
      isBot: false,
      botName: null,
    });
    if (i % BATCH === 0) {
      // the requests' turns: a tick that fell due runs between them (a timer is due 1 ms on at the
      // soonest, and a batch of requests here can take less than that)
      await Bun.sleep(1);
      const m = sink.memory();
      most = Math.max(most, m.clicks);
      spilled ||= m.spilling;
    }
  }
  await eventually(() => sink.memory().spilling, "the sink to spill");
  expect(spilled || sink.memory().spilling).toBe(true);
  expect(sink.backlog().clicks).toBe(N);
  // the cap, and what the requests pack before a tick lets it go
  expect(most).toBeLessThanOrEqual(CAP + 2 * BATCH);

  down = false;
  back.resolve();
  await eventually(() => sink.backlog().clicks === 0 && !sink.memory().spilling, "the writer to catch up", 30_000);
  await sink.stop();
  // fed from disk in parts of at most half the cap
  expect(largest).toBeLessThanOrEqual(CAP / 2);
  const [row] = await t.deps.asyncDb
    .select({ n: count(), distinct: countDistinct(clicks.referer) })
    .from(clicks)
    .where(eq(clicks.linkId, linkId));
  expect({ stored: Number(row!.n), distinct: Number(row!.distinct) }).toEqual({ stored: N, distinct: N });
}

test("without the writer thread, an outage past the cap holds the cap, waits on disk, and stores every click once", () =>
  outagePastTheCap("fails"));

test("without the writer thread, a write that waits for the database holds the cap too: ticks meanwhile let what is packed go to disk", () =>
  outagePastTheCap("hangs"));

test("without the writer thread, the catch-up from disk goes from one commit to the next, not at the timer's pace", () =>
  // a timer that never turns in the test: after the outage only the commits move the catch-up on
  outagePastTheCap("hangs", 3_600_000));
