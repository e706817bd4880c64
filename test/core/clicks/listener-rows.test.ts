/**
 * A click listener is a pure function that returns rows; each click writer writes them in the
 * batch's transaction. A listener added by a test (as a new feature would add one line to the
 * table) gets its rows written on SQLite and on PostgreSQL alike (a plain insert, a "do nothing" and
 * an "add" on conflict, times and JSON included), and they are rolled back with the batch, or alone
 * when listeners are isolated.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { asc } from "drizzle-orm";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import type { Deps } from "../../../core/deps";
import { rowsInto, type ClickListener } from "../../../core/clicks/listeners";
import { packClicks, type JournalClick } from "../../../core/clicks/packed";
import { createClickWriter } from "../../../core/clicks/writer";
import { createPgClickWriter } from "../../../core/clicks/writer-pg";
import type { ClickWriter } from "../../../core/clicks/writer";
import { webhookRow } from "../../../core/delivery/outbox";
import { createAsyncPg } from "../../../db/async-pg";
import type { AsyncDb, Tables } from "../../../db/async";
import { createPgDb } from "../../../db/postgres";
import * as schemaPg from "../../../db/schema-pg";
import { createTestApp, type TestApp } from "../../helpers/app";
import { startPostgres, type PgServer } from "../../helpers/postgres";

setDefaultTimeout(60_000);
const DAY = 86_400_000;
let pg: PgServer;
const apps: TestApp[] = [];
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => void (pg = await startPostgres()));
afterAll(async () => {
  for (const close of closers) await close();
  await pg.stop();
  for (const app of apps) app.close();
});

/**
 * The new reaction: per link and day, how many clicks (an `add` on the day's row, its first time
 * kept), the first click's id per link (`do nothing`), and a queued delivery per click (a plain
 * insert with a JSON payload).
 */
const tally: ClickListener = (batch, now) => [
  rowsInto(
    "orphanVisitDays",
    batch.map(({ click, link }) => ({
      userId: link.userId,
      code: link.code,
      host: "tally",
      day: new Date(Math.floor(click.clickedAt.getTime() / DAY) * DAY),
      visits: 1,
      lastAt: now,
    })),
    { keys: ["userId", "day", "code", "host"], add: ["visits"] },
  ),
  rowsInto(
    "botKv",
    batch.map(({ click }) => ({ key: `first:${click.linkId}`, value: String(click.id) })),
    { keys: ["key"], do: "nothing" },
  ),
  rowsInto(
    "outbox",
    batch.map(({ click, link }) =>
      webhookRow(now, {
        userId: link.userId,
        topic: "tally",
        refId: click.id,
        url: "https://tally.example/",
        data: { link: link.code, at: click.clickedAt.toISOString() },
      }),
    ),
  ),
];

const boom: ClickListener = () => {
  throw new Error("listener down");
};

type Engine = { name: string; db: AsyncDb; writer(listeners: ClickListener[]): ClickWriter; now: Date };

/** A fresh database of each engine with one user and two links, and a click writer on it. */
async function engines(): Promise<Engine[]> {
  const t = createTestApp();
  apps.push(t);
  const handle = await createPgDb(await pg.createDatabase(), { max: 4 });
  closers.push(handle.close);
  const pgDeps = { ...t.deps, asyncDb: createAsyncPg<Tables>(handle.db, schemaPg as unknown as Tables) } as Deps;
  const made = [
    { name: "sqlite", db: t.deps.asyncDb, writer: (l: ClickListener[]) => createClickWriter(t.deps, l), now: t.clock.now() },
    { name: "postgres", db: pgDeps.asyncDb, writer: (l: ClickListener[]) => createPgClickWriter(pgDeps, l), now: t.clock.now() },
  ];
  for (const e of made) {
    const { users, links } = e.db.tables;
    const [u] = await e.db.insert(users).values({ username: "ann", createdAt: e.now }).returning();
    for (const code of ["aaa111", "bbb222"])
      await e.db.insert(links).values({ userId: u!.id, code, url: "https://example.com/", createdAt: e.now });
  }
  return made;
}

/** `n` clicks on each of links 1 and 2, the first half a day before `now`. */
function clicks(now: Date, n: number, seq0 = 0): JournalClick[] {
  return Array.from({ length: 2 * n }, (_, i) => ({
    linkId: 1 + (i % 2),
    clickedAt: new Date(now.getTime() - (i < n ? DAY : 0) - i * 1000),
    ip: `198.51.100.${i}`,
    userAgent: "curl/8.5.0",
    referer: null,
    isBot: false,
    botName: null,
    seq: seq0 ? seq0 + i : 0,
  }));
}

/** What the tally listener left, comparable across engines. */
async function tallied(db: AsyncDb) {
  const { orphanVisitDays, botKv, outbox, clicks } = db.tables;
  return {
    clicks: (await db.select({ id: clicks.id }).from(clicks)).length,
    days: (await db.select().from(orphanVisitDays).orderBy(asc(orphanVisitDays.code), asc(orphanVisitDays.day))).map((r) => ({
      code: r.code,
      day: r.day.toISOString(),
      visits: Number(r.visits),
      lastAt: r.lastAt.toISOString(),
    })),
    first: (await db.select().from(botKv).orderBy(asc(botKv.key))).map((r) => [r.key, r.value]),
    queued: (await db.select().from(outbox).orderBy(asc(outbox.id))).map((r) => ({
      topic: r.topic,
      refId: Number(r.refId),
      target: r.target,
      status: r.status,
      payload: r.payload,
      at: r.nextAttemptAt.toISOString(),
    })),
  };
}

describe("a listener that returns rows", () => {
  test("gets them written by the click writer of either engine: the same rows on SQLite and on PostgreSQL", async () => {
    const results = [];
    for (const e of await engines()) {
      const writer = e.writer([...CLICK_LISTENERS, tally]);
      expect(await writer.write(packClicks(clicks(e.now, 3)))).toBe(6);
      expect(await writer.write(packClicks(clicks(e.now, 2)))).toBe(4);
      results.push(await tallied(e.db));
    }
    const [lite, post] = results;
    const now = apps[0]!.clock.now();
    // what the two batches should add up to: clicks per link and UTC day
    const want = new Map<string, number>();
    for (const c of [...clicks(now, 3), ...clicks(now, 2)]) {
      const key = `${c.linkId === 1 ? "aaa111" : "bbb222"} ${new Date(Math.floor(c.clickedAt.getTime() / DAY) * DAY).toISOString()}`;
      want.set(key, (want.get(key) ?? 0) + 1);
    }
    expect(lite!.clicks).toBe(10);
    expect(lite!.days).toEqual(
      [...want]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, visits]) => ({ code: key.split(" ")[0]!, day: key.split(" ")[1]!, visits, lastAt: now.toISOString() })),
    );
    // the first click of each link, kept by "do nothing"; a batch is stored grouped by link, so link
    // 1's three clicks of the first batch take ids 1–3 and link 2's first is 4
    expect(lite!.first).toEqual([
      ["first:1", "1"],
      ["first:2", "4"],
    ]);
    expect(lite!.queued).toHaveLength(10);
    expect(lite!.queued[0]).toEqual({
      topic: "tally",
      refId: 1,
      target: "https://tally.example/",
      status: "pending",
      payload: { link: "aaa111", at: new Date(now.getTime() - DAY).toISOString() },
      at: now.toISOString(),
    });
    expect(post).toEqual(lite!);
  });

  test("has its rows rolled back with the batch when a later listener fails, and the batch retried whole", async () => {
    for (const e of await engines()) {
      let fail = true;
      const flaky: ClickListener = (batch) => (fail ? boom(batch, e.now) : []);
      const writer = e.writer([tally, flaky]);
      const batch = clicks(e.now, 2, 1);
      await expect(writer.write(packClicks(batch))).rejects.toThrow("listener down");
      expect({ engine: e.name, ...(await tallied(e.db)) }).toEqual({ engine: e.name, clicks: 0, days: [], first: [], queued: [] });
      expect(await writer.committedSeq()).toBe(0);
      fail = false;
      expect(await writer.write(packClicks(batch))).toBe(4);
      const after = await tallied(e.db);
      expect({
        engine: e.name,
        clicks: after.clicks,
        visits: after.days.reduce((n, d) => n + d.visits, 0),
        queued: after.queued.length,
      }).toEqual({ engine: e.name, clicks: 4, visits: 4, queued: 4 });
    }
  });

  test("isolated (the salvage of a poison click): a listener whose rows cannot be written loses only its own rows, and is reported", async () => {
    for (const e of await engines()) {
      // every row of the clashing listener has one key, without a conflict rule: the second insert fails
      const clashing: ClickListener = (batch) => [
        rowsInto(
          "botKv",
          batch.map(() => ({ key: "same", value: "x" })),
        ),
      ];
      const clashingToo: ClickListener = (batch, now) => [
        rowsInto(
          "outbox",
          batch.map(() => ({
            ...webhookRow(now, { userId: null, topic: "clash", url: "https://x.example/", data: {} }),
            deliveryId: "same",
          })),
        ),
      ];
      const writer = e.writer([clashingToo, tally, clashing, boom]);
      const reported: string[] = [];
      expect(
        await writer.write(
          packClicks(clicks(e.now, 1)),
          (listener, error) => void reported.push(`${listener.name}: ${error instanceof Error ? "error" : "?"}`),
        ),
      ).toBe(2);
      expect({ engine: e.name, reported }).toEqual({ engine: e.name, reported: ["clashingToo: error", "clashing: error", "boom: error"] });
      const after = await tallied(e.db);
      expect({
        engine: e.name,
        clicks: after.clicks,
        visits: after.days.reduce((n, d) => n + d.visits, 0),
        first: after.first,
        topics: after.queued.map((q) => q.topic),
      }).toEqual({
        engine: e.name,
        clicks: 2,
        visits: 2,
        first: [
          ["first:1", "1"],
          ["first:2", "2"],
        ],
        topics: ["tally", "tally"],
      });
    }
  });
});
