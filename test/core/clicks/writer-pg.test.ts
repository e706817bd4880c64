/**
 * The PostgreSQL click writer (core/clicks/writer-pg.ts) against the SQLite one: the same batches
 * give the same stored clicks, counters, visitors, roll-ups, queued webhooks and journal mark; and
 * two nodes writing batches of the same links at once lose nothing and double nothing.
 */
import { rowsInto, type ClickListener } from "../../../core/clicks/listeners";
import { webhookRow } from "../../../core/delivery/outbox";
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { asc } from "drizzle-orm";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import type { Deps } from "../../../core/deps";
import { packClicks, type JournalClick } from "../../../core/clicks/packed";
import { createClickWriter } from "../../../core/clicks/writer";
import { createPgClickWriter } from "../../../core/clicks/writer-pg";
import { createAsyncPg } from "../../../db/async-pg";
import { createPgDb } from "../../../db/postgres";
import * as schemaPg from "../../../db/schema-pg";
import type { AsyncDb, Tables } from "../../../db/async";
import { createTestApp, type TestApp } from "../../helpers/app";
import { startPostgres, type PgServer } from "../../helpers/postgres";

setDefaultTimeout(60_000);
let pg: PgServer;
let t: TestApp;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => void (pg = await startPostgres()));
afterAll(async () => {
  for (const close of closers) await close();
  await pg.stop();
  t?.close();
});

async function pgDeps(base: Deps): Promise<Deps> {
  const handle = await createPgDb(await pg.createDatabase(), { max: 6 });
  closers.push(handle.close);
  return { ...base, asyncDb: createAsyncPg<Tables>(handle.db, schemaPg as unknown as Tables) } as Deps;
}

const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "curl/8.5.0",
  null,
];

/** Random clicks over `linkIds` within two days, with repeat visitors, bots, privacy hashes and geo given on the request. */
function randomClicks(linkIds: number[], n: number, from: number, seq0: number, seed: number): JournalClick[] {
  let x = seed;
  const rnd = (k: number) => ((x = (x * 1103515245 + 12345) % 2147483648), x % k);
  return Array.from({ length: n }, (_, i) => {
    const bot = rnd(6) === 0;
    const privacy = rnd(5) === 0;
    return {
      linkId: linkIds[rnd(linkIds.length)]!,
      clickedAt: new Date(from + rnd(48) * 3_600_000 + rnd(3_600_000)),
      ip: privacy ? null : `198.51.100.${rnd(12)}`,
      userAgent: AGENTS[rnd(AGENTS.length)]!,
      referer: rnd(3) ? null : "https://t.me/channel",
      isBot: bot,
      botName: bot ? "curl" : null,
      rule: rnd(4) === 0 ? rnd(3) : null,
      variant: rnd(4) === 0 ? rnd(2) : null,
      visitor: privacy ? `v${rnd(5)}` : null,
      geo: privacy ? "DE\nBerlin" : null,
      seq: seq0 + i,
    };
  });
}

/** Everything a written batch leaves, ordered, without what differs by nature (delivery ids). */
async function stored(db: AsyncDb) {
  const { clicks, links, clickVisitors, linkStatsTime, linkStatsDim, outbox, clickJournal, userAgents } = db.tables;
  const uas = new Map((await db.select().from(userAgents)).map((u) => [u.id, u.ua]));
  const num = <T extends Record<string, unknown>>(rows: T[]) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v])));
  return {
    clicks: (await db.select().from(clicks).orderBy(asc(clicks.id))).map(({ uaId, ...c }) => ({
      ...c,
      ua: uaId === null ? null : uas.get(uaId),
    })),
    links: await db
      .select({ id: links.id, total: links.totalClicks, unique: links.uniqueClicks, bots: links.botClicks })
      .from(links)
      .orderBy(asc(links.id)),
    visitors: await db.select().from(clickVisitors).orderBy(asc(clickVisitors.linkId), asc(clickVisitors.visitorHash)),
    times: num(
      await db.select().from(linkStatsTime).orderBy(asc(linkStatsTime.linkId), asc(linkStatsTime.span), asc(linkStatsTime.bucket)),
    ),
    dims: num(
      await db
        .select()
        .from(linkStatsDim)
        .orderBy(
          asc(linkStatsDim.linkId),
          asc(linkStatsDim.span),
          asc(linkStatsDim.dim),
          asc(linkStatsDim.bucket),
          asc(linkStatsDim.value),
        ),
    ),
    outbox: (await db.select().from(outbox).orderBy(asc(outbox.id))).map(({ deliveryId: _d, ...o }) => o),
    journal: num(await db.select().from(clickJournal)),
  };
}

async function seed(db: AsyncDb, webhook: string) {
  const { users, links } = db.tables;
  const [u] = await db
    .insert(users)
    .values({ username: "ann", createdAt: new Date("2026-01-01T00:00:00Z") })
    .returning();
  const made = [];
  for (const [i, hook] of [
    [1, true],
    [2, false],
    [3, true],
  ] as const)
    made.push(
      (
        await db
          .insert(links)
          .values({
            userId: u!.id,
            code: `code00${i}`,
            url: `https://example.com/${i}`,
            webhookUrl: hook ? webhook : null,
            webhookEnabled: hook,
            createdAt: new Date("2026-01-01T00:00:00Z"),
          })
          .returning()
      )[0]!,
    );
  return made.map((l) => l.id);
}

test("the same batches give the same clicks, counters, visitors, roll-ups, queued webhooks and journal mark on SQLite and PostgreSQL", async () => {
  t = createTestApp();
  const pgd = await pgDeps(t.deps);
  const ids = await seed(t.deps.asyncDb, "https://hooks.example/c");
  expect(await seed(pgd.asyncDb, "https://hooks.example/c")).toEqual(ids);
  const from = t.clock.now().getTime() - 86_400_000;
  const first = randomClicks(ids, 700, from, 1, 7);
  const second = randomClicks([...ids, 999_999], 500, from + 20 * 3_600_000, 701, 11); // a deleted link's clicks are dropped
  const lite = createClickWriter(t.deps, CLICK_LISTENERS, { journal: "node:a" });
  const post = createPgClickWriter(pgd, CLICK_LISTENERS, { journal: "node:a" });
  for (const batch of [first, second]) {
    expect(await lite.write(packClicks(batch))).toBe(batch.length);
    expect(await post.write(packClicks(batch))).toBe(batch.length);
  }
  const [a, b] = [await stored(t.deps.asyncDb), await stored(pgd.asyncDb)];
  expect(b.clicks.length).toBe(first.length + second.filter((c) => c.linkId !== 999_999).length);
  expect(b.clicks.filter((c) => c.isUnique).length).toBeGreaterThan(10);
  expect(b.outbox.length).toBeGreaterThan(100);
  expect(b).toEqual(a);
  expect(await post.committedSeq()).toBe(1200);
});

test("two nodes writing batches of the same links at once: every click counted once, nothing deadlocks", async () => {
  t ??= createTestApp();
  const base = await pgDeps(t.deps);
  const ids = await seed(base.asyncDb, "https://hooks.example/c");
  const nodes = [
    createPgClickWriter(base, CLICK_LISTENERS, { journal: "node:a" }),
    createPgClickWriter({ ...base }, CLICK_LISTENERS, { journal: "node:b" }),
  ];
  const from = t.clock.now().getTime() - 86_400_000;
  let total = 0;
  for (let round = 0; round < 6; round++) {
    const batches = nodes.map((_, k) =>
      randomClicks(round % 2 ? [...ids].reverse() : ids, 400, from, round * 400 + 1, 100 + round * 2 + k),
    );
    total += batches.reduce((n, b) => n + b.length, 0);
    await Promise.all(nodes.map((w, k) => w.write(packClicks(batches[k]!))));
  }
  const after = await stored(base.asyncDb);
  expect(after.clicks).toHaveLength(total);
  expect(after.links.reduce((n, l) => n + Number(l.total), 0)).toBe(total);
  const hourRows = after.times.filter((r) => r.span === 3_600_000);
  expect(hourRows.reduce((n, r) => n + Number(r.clicks), 0)).toBe(total);
  expect(after.journal.map((j) => [j.journal, j.seq]).sort()).toEqual([
    ["node:a", 2400],
    ["node:b", 2400],
  ]);
});

test("a batch written again (its COMMIT went through before the connection was lost, or it was read back from the journal twice) stores only the clicks above the mark", async () => {
  t ??= createTestApp();
  const base = await pgDeps(t.deps);
  const ids = await seed(base.asyncDb, "https://hooks.example/c");
  const writer = createPgClickWriter(base, CLICK_LISTENERS, { journal: "node:a" });
  const from = t.clock.now().getTime() - 86_400_000;
  const first = randomClicks(ids, 300, from, 1, 5);
  expect(await writer.write(packClicks(first))).toBe(300);
  const once = await stored(base.asyncDb);
  expect(await writer.write(packClicks(first))).toBe(0);
  expect(await stored(base.asyncDb)).toEqual(once);
  // a batch that overlaps the mark: only its new clicks are stored
  const more = randomClicks(ids, 100, from, 301, 9);
  expect(await writer.write(packClicks([...first.slice(250), ...more]))).toBe(100);
  const after = await stored(base.asyncDb);
  expect([after.clicks.length, after.links.reduce((n, l) => n + Number(l.total), 0), await writer.committedSeq()]).toEqual([400, 400, 400]);
});

test("referers, agents and bot names with tabs, line breaks, backslashes, `\\N` and non-Latin text are stored as on SQLite (the clicks go in with COPY)", async () => {
  t ??= createTestApp();
  const lt = createTestApp();
  const pgd = await pgDeps(lt.deps);
  const ids = await seed(lt.deps.asyncDb, "https://hooks.example/c");
  expect(await seed(pgd.asyncDb, "https://hooks.example/c")).toEqual(ids);
  const odd = ["a\tb", "line\nbreak\r\n", "back\\slash\\", "\\N", "\\.", "Привет 👋 ünïcödé", "", "tab\t\\t literal"];
  const at = lt.clock.now().getTime() - 3_600_000;
  const batch: JournalClick[] = odd.flatMap((s, i) => [
    {
      linkId: ids[0]!,
      clickedAt: new Date(at + i * 1000),
      ip: `203.0.113.${i}`,
      userAgent: `Agent ${s}`,
      referer: `https://t.me/${s}`,
      isBot: false,
      botName: null,
      rule: null,
      variant: null,
      visitor: null,
      geo: null,
      seq: i * 2 + 1,
    },
    {
      linkId: ids[1]!,
      clickedAt: new Date(at + i * 1000 + 1),
      ip: null,
      userAgent: s,
      referer: s,
      isBot: true,
      botName: s,
      rule: i,
      variant: null,
      visitor: `v${s}`,
      geo: `${s}\nCity ${s}`,
      seq: i * 2 + 2,
    },
  ]);
  const lite = createClickWriter(lt.deps, CLICK_LISTENERS, { journal: "node:a" });
  const post = createPgClickWriter(pgd, CLICK_LISTENERS, { journal: "node:a" });
  expect(await lite.write(packClicks(batch))).toBe(batch.length);
  expect(await post.write(packClicks(batch))).toBe(batch.length);
  const [a, b] = [await stored(lt.deps.asyncDb), await stored(pgd.asyncDb)];
  expect(b.clicks.map((c) => c.referer)).toContain("https://t.me/line\nbreak\r\n");
  expect(b.clicks.map((c) => c.botName)).toContain("\\N");
  expect(b).toEqual(a);
  lt.close();
});

test("a batch whose transaction fails after its clicks went in stores nothing and keeps the mark; the next write stores it whole", async () => {
  t ??= createTestApp();
  const base = await pgDeps(t.deps);
  const ids = await seed(base.asyncDb, "https://hooks.example/c");
  let fail = true;
  // while `fail` holds, a listener whose rows the database refuses (one delivery id twice), written
  // after the COPY of the clicks: the whole batch rolls back
  const failing: ClickListener = (batch, now) => {
    if (!fail) return [];
    const row = webhookRow(now, { userId: batch[0]!.link.userId, topic: "click_webhook", url: "https://hooks.example/c", data: {} });
    return [rowsInto("outbox", [row, row])];
  };
  const writer = createPgClickWriter(base, [...CLICK_LISTENERS, failing], { journal: "node:a" });
  const clicks = randomClicks(ids, 200, t.clock.now().getTime() - 86_400_000, 1, 3);
  const before = await stored(base.asyncDb);
  await expect(writer.write(packClicks(clicks))).rejects.toThrow(/insert into "outbox"/);
  expect(await stored(base.asyncDb)).toEqual(before);
  expect(await writer.committedSeq()).toBe(0);
  fail = false;
  expect(await writer.write(packClicks(clicks))).toBe(200);
  const after = await stored(base.asyncDb);
  expect([after.clicks.length, after.links.reduce((n, l) => n + Number(l.total), 0), await writer.committedSeq()]).toEqual([200, 200, 200]);
});
