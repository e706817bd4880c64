/** The click journal's backlog and the writer's rate, as the operator's `stats` shows them, on SQLite and on a real PostgreSQL. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { ManualClock } from "../../../core/clock";
import { journalSegments, openClickJournal } from "../../../core/clicks/journal";
import { backlogOnDisk, journalStatus } from "../../../core/clicks/backlog";
import { rowsOf, type AsyncDb } from "../../../db/async";
import { onBothDatabases } from "../../helpers/async-engines";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "linkbot-backlog-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse("2026-03-01T09:30:00.000Z");
/** Journals `n` clicks into `journalDir`, the i-th clicked at T0 + i seconds. */
function journalClicks(journalDir: string, n: number) {
  const journal = openClickJournal(journalDir, 1, { spare: false, segmentBytes: 0 }); // the smallest segments (about 24 KB): a few hundred clicks each;
  for (let i = 0; i < n; i++)
    journal.append({
      linkId: 1,
      clickedAt: new Date(T0 + i * 1000),
      ip: "203.0.113.9",
      userAgent: "curl/8",
      referer: null,
      isBot: false,
      botName: null,
    });
  journal.close();
}
const setMark = (db: AsyncDb, journal: string, seq: number) =>
  rowsOf(
    db,
    sql`insert into click_journal (journal, seq) values (${journal}, ${seq}) on conflict (journal) do update set seq = excluded.seq`,
  );

test("the backlog on disk is every journaled click above the mark, with the oldest one's time, across segments", () => {
  journalClicks(dir, 1500);
  expect(journalSegments(dir).length).toBeGreaterThan(1);
  expect(backlogOnDisk(dir, 0)).toEqual({ clicks: 1500, oldestAt: new Date(T0) });
  expect(backlogOnDisk(dir, 1120)).toEqual({ clicks: 380, oldestAt: new Date(T0 + 1_120_000) });
  expect(backlogOnDisk(dir, 1500)).toEqual({ clicks: 0, oldestAt: null });
  expect(backlogOnDisk(join(dir, "none"), 0)).toEqual({ clicks: 0, oldestAt: null });
});

test("the backlog is read from two segments only: the newest, and the one holding the first click above the mark", () => {
  journalClicks(dir, 1500);
  const segments = journalSegments(dir);
  expect(segments.length).toBeGreaterThan(3);
  // every segment but the first and the last made unreadable: the figures do not change
  for (const path of segments.slice(1, -1)) writeFileSync(path, Buffer.alloc(statSync(path).size, 0xff));
  expect(backlogOnDisk(dir, 0)).toEqual({ clicks: 1500, oldestAt: new Date(T0) });
});

onBothDatabases((open) => {
  test("each node's journal: mark, backlog where its files are on this machine, and the writer's rate between two readings", async () => {
    const { db } = await open();
    const clock = new ManualClock(T0 + 600_000);
    journalClicks(join(dir, "a"), 50);
    await setMark(db, "node:a", 20);
    await setMark(db, "node:b", 7000); // another machine's node: its journal is not here
    const status = await journalStatus({ asyncDb: db, clock }, dir, async () => {
      // while the command waits: node a's writer commits 15 more clicks, node b's 2,000, over 2.5 s
      await setMark(db, "node:a", 35);
      await setMark(db, "node:b", 9000);
      clock.advance(2500);
    });
    expect(status).toEqual([
      { journal: "node:a", committedSeq: 35, backlog: { clicks: 15, oldestAt: new Date(T0 + 35_000) }, writerRate: 6 },
      { journal: "node:b", committedSeq: 9000, backlog: null, writerRate: 800 },
    ]);
    // not sampled: no rate
    expect((await journalStatus({ asyncDb: db, clock }, dir)).map((s) => s.writerRate)).toEqual([null, null]);
  });

  test("a single node's journal (`local`) is read from JOURNAL_DIR itself, also before its writer's first commit", async () => {
    const { db } = await open();
    const clock = new ManualClock(T0);
    journalClicks(dir, 4);
    expect(await journalStatus({ asyncDb: db, clock }, dir)).toEqual([
      { journal: "local", committedSeq: 0, backlog: { clicks: 4, oldestAt: new Date(T0) }, writerRate: null },
    ]);
    await setMark(db, "local", 4);
    expect(await journalStatus({ asyncDb: db, clock }, dir)).toEqual([
      { journal: "local", committedSeq: 4, backlog: { clicks: 0, oldestAt: null }, writerRate: null },
    ]);
  });
});
