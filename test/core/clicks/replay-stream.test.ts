/**
 * Replay streams the journal: a backlog larger than a part is read and written a part at a time,
 * so what the request side holds while it writes a long outage's clicks back does not grow with
 * them (bench/journal-outage.ts shows it with a million).
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { CLICK_JOURNAL_DIR } from "../../../config";
import { journalSegments, openClickJournal } from "../../../core/clicks/journal";
import { clickJournal, clicks } from "../../../db/schema";

// 120,000 clicks journaled, then replayed by a process of its own: about 4.5 s on a quiet 2-core
// machine, past bun's 5 s default on a loaded one
setDefaultTimeout(60_000);

const CLICKS = 120_000;
const PART = 10_000;
let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => {
  t.close();
  rmSync(t.dataDir, { recursive: true, force: true });
});

/** Journals clicks `from`..`to` in `dir` on a new link (each with a Referer of its own, so none shares a string with another), in segments of 1 MB. */
async function journaled(dir: string, from: number, to: number): Promise<number> {
  const user = (await t.telegramUser()).token;
  const { id } = (await t.request("POST", "/api/links", { token: user, body: { url: "https://ok.example/" } })).json as { id: number };
  const journal = openClickJournal(dir, from, { segmentBytes: 1024 * 1024, spare: false });
  for (let i = from; i <= to; i++)
    journal.append({
      linkId: id,
      clickedAt: new Date(1_700_000_000_000 + i),
      ip: `198.51.100.${i % 250}`,
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
      referer: `https://t.me/some_channel_name/${i}?utm_source=telegram&utm_campaign=${"x".repeat(40)}`,
      isBot: false,
      botName: null,
    });
  journal.close();
  return id;
}

test("replay reads and writes a part at a time: no more than a part is held, the heap does not grow with the backlog, each click is stored once", async () => {
  const warm = join(t.dataDir, "warm-up");
  await journaled(warm, 1, 1000);
  const dir = join(t.dataDir, CLICK_JOURNAL_DIR);
  const linkId = await journaled(dir, 1001, 1000 + CLICKS);
  expect(journalSegments(dir).length).toBeGreaterThan(5);

  // measured in a process of its own: this one carries other test files' leftovers
  const child = Bun.spawn(["bun", join(import.meta.dir, "../../helpers/replay-heap-child.ts"), warm, dir], {
    env: { ...process.env, DATA_DIR: t.dataDir, LOG_LEVEL: "error", PORT: "3999" },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(child.stdout).text();
  expect(await child.exited).toBe(0);
  const seen = JSON.parse(out.trim().split("\n").at(-1)!) as {
    wholeLength: number;
    wholeBytes: number;
    most: number;
    grown: number[];
    replayed: number;
    lastSeq: number;
  };
  expect(seen.wholeLength).toBe(CLICKS);
  expect(seen).toMatchObject({ replayed: CLICKS, lastSeq: 1000 + CLICKS });
  expect(seen.most).toBe(PART);
  expect(seen.grown).toHaveLength(CLICKS / PART);
  console.log(
    `replay of ${CLICKS} clicks: the heap over its start after each part ${seen.grown.map((h) => (h / 2 ** 20).toFixed(1)).join(", ")} MB; the backlog read whole ${(seen.wholeBytes / 2 ** 20).toFixed(1)} MB`,
  );
  // what is held at any time is a part, not the backlog
  expect(Math.max(...seen.grown)).toBeLessThan(seen.wholeBytes * 0.5);

  const [row] = t.deps.db
    .select({ n: sql<number>`count(*)`, distinct: sql<number>`count(distinct ${clicks.referer})` })
    .from(clicks)
    .where(eq(clicks.linkId, linkId))
    .all();
  expect(row).toEqual({ n: CLICKS, distinct: CLICKS });
  expect(t.deps.db.select({ seq: clickJournal.seq }).from(clickJournal).all()).toEqual([{ seq: 1000 + CLICKS }]);
});
