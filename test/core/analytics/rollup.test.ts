/**
 * The roll-ups answer exactly what a scan of the raw clicks answers: random clicks, random ranges,
 * zones with DST, half-hour and 45-minute offsets, compared against a brute-force computation. On
 * SQLite, where the click writer stored them, and on PostgreSQL, with the same rows copied over: the
 * queries are the same code on both (core/analytics/query.ts on the async seam).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createAsyncPg } from "../../../db/async-pg";
import type { AsyncDb, Tables } from "../../../db/async";
import { createPgDb, type PgDbHandle } from "../../../db/postgres";
import * as schema from "../../../db/schema";
import * as schemaPg from "../../../db/schema-pg";
import { startPostgres, type PgServer } from "../../helpers/postgres";
import { createTestApp, type TestApp } from "../../helpers/app";
import { insertLink, recordClicks, type ClickInput } from "../../helpers/clicks";
import { dimCounts, pieces, totals } from "../../../core/analytics/query";
import { localKeys, localSeries } from "../../../core/analytics/local-series";
import { BLOCK, DAY, HOUR, offsetAt, offsetSegments } from "../../../core/analytics/range";
import { withPercentages } from "../../../core/analytics/stats";

let t: TestApp;
let linkId: number;
let otherId: number;
const clicks: (ClickInput & { at: number })[] = [];
const START = Date.parse("2025-09-01T00:00:00Z");
const END = Date.parse("2026-05-01T00:00:00Z");

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(120_000);

let pg: PgServer;
let pgHandle: PgDbHandle;
/** the query functions' view of each database */
const engines: { name: string; deps: { asyncDb: AsyncDb } }[] = [];

beforeAll(async () => {
  t = createTestApp();
  const { user } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id);
  const other = await insertLink(t.deps, user.id);
  linkId = link.id;
  otherId = other.id;
  for (let i = 0; i < 3000; i++) {
    const isBot = rnd() < 0.1;
    clicks.push({
      at: START + Math.floor(rnd() * (END - START)),
      country: pick(["US", "DE", "IN", null]),
      device: pick(["mobile", "desktop", null]),
      browser: pick(["Chrome", "Safari"]),
      os: pick(["iOS", "Android", "Windows"]),
      isBot,
      botName: isBot ? pick(["Googlebot", "TelegramBot", null]) : null,
      isUnique: rnd() < 0.5,
    });
  }
  // several batches, unsorted, like concurrent recorder transactions
  for (let i = 0; i < clicks.length; i += 700) await recordClicks(t.deps, link, clicks.slice(i, i + 700));
  await recordClicks(t.deps, other, [{ at: START + DAY, country: "FR", isBot: false, isUnique: true }]);
  // the same rows in PostgreSQL
  pg = await startPostgres();
  pgHandle = await createPgDb(await pg.createDatabase(), { max: 4 });
  for (const table of ["users", "links", "clicks", "linkStatsTime", "linkStatsDim"] as const) {
    const rows = t.deps.db.select().from(schema[table]).all() as Record<string, unknown>[];
    for (let i = 0; i < rows.length; i += 500) await pgHandle.db.insert(schemaPg[table] as never).values(rows.slice(i, i + 500) as never);
  }
  engines.push({ name: "SQLite", deps: t.deps }, { name: "PostgreSQL", deps: { asyncDb: createAsyncPg<Tables>(pgHandle.db, schemaPg) } });
});
afterAll(async () => {
  t.close();
  await pgHandle?.close();
  await pg?.stop();
});

const within = (r: { from: number; to: number }) => clicks.filter((c) => c.at >= r.from && c.at < r.to);

/** Wall-clock ms of `ms` in `tz`, read as UTC. */
const local = (tz: string, ms: number) => ms + offsetAt(tz, ms);

function randomRange() {
  const a = START - DAY + Math.floor(rnd() * (END - START + 2 * DAY));
  const b = a + Math.floor(rnd() * (END - a + DAY));
  return { from: a, to: b };
}

for (const engine of ["SQLite", "PostgreSQL"])
  describe(`roll-ups match a scan of the raw clicks (${engine})`, () => {
    const deps = () => engines.find((e) => e.name === engine)!.deps;
    test("totals and dimension counts over random ranges", async () => {
      for (let i = 0; i < 40; i++) {
        const r = randomRange();
        const raw = within(r);
        expect(await totals(deps(), [linkId], r)).toEqual({
          clicks: raw.length,
          uniques: raw.filter((c) => c.isUnique && !c.isBot).length,
          bots: raw.filter((c) => c.isBot).length,
        });
        const byCountry = new Map<string, number>();
        for (const c of raw) byCountry.set(c.country ?? "", (byCountry.get(c.country ?? "") ?? 0) + 1);
        expect(Object.fromEntries(await dimCounts(deps(), [linkId], r, "country"))).toEqual(Object.fromEntries(byCountry));
        const byBot = new Map<string, number>();
        for (const c of raw.filter((c) => c.isBot)) byBot.set(c.botName ?? "", (byBot.get(c.botName ?? "") ?? 0) + 1);
        expect(Object.fromEntries(await dimCounts(deps(), [linkId], r, "bot"))).toEqual(Object.fromEntries(byBot));
      }
      expect((await totals(deps(), [linkId, otherId], { from: 0, to: END })).clicks).toBe(clicks.length + 1);
    });

    for (const tz of ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe"])
      test(`hourly, daily and hour-of-week series in ${tz}`, async () => {
        for (let i = 0; i < 6; i++) {
          const r = randomRange();
          for (const size of [HOUR, DAY]) {
            const expected = new Map<number, { clicks: number; unique: number }>();
            for (const c of within(r)) {
              const k = Math.floor(local(tz, c.at) / size);
              const e = expected.get(k) ?? { clicks: 0, unique: 0 };
              e.clicks += 1;
              e.unique += c.isUnique && !c.isBot ? 1 : 0;
              expected.set(k, e);
            }
            const got = await localSeries(deps(), [linkId], r, tz, { size });
            expect(Object.fromEntries(got)).toEqual(Object.fromEntries(expected));
            const keys = new Set(localKeys(r, tz, size));
            for (const k of got.keys()) expect(keys.has(k)).toBe(true);
          }
          const week = new Map<number, number>();
          for (const c of within(r)) {
            const l = new Date(local(tz, c.at));
            const k = l.getUTCDay() * 24 + l.getUTCHours();
            week.set(k, (week.get(k) ?? 0) + 1);
          }
          const got = await localSeries(deps(), [linkId], r, tz, { size: HOUR, add: 96, mod: 168 });
          expect(Object.fromEntries([...got].map(([k, v]) => [k, v.clicks]))).toEqual(Object.fromEntries(week));
        }
      });
  });

describe("time zones", () => {
  test("offset segments split at DST changes to the minute", () => {
    const segs = offsetSegments("Europe/Berlin", { from: Date.parse("2026-03-01T00:00:00Z"), to: Date.parse("2026-11-01T00:00:00Z") });
    expect(segs.map((s) => [new Date(s.from).toISOString(), s.offset / HOUR])).toEqual([
      ["2026-03-01T00:00:00.000Z", 1],
      ["2026-03-29T01:00:00.000Z", 2],
      ["2026-10-25T01:00:00.000Z", 1],
    ]);
    expect(offsetSegments("Asia/Kolkata", { from: 0, to: DAY * 400 })).toHaveLength(1);
  });

  test("the repeated hour of a fall-back night is one bucket with both hours' clicks", () => {
    const r = { from: Date.parse("2026-10-24T22:00:00Z"), to: Date.parse("2026-10-25T03:00:00Z") };
    const labels = localKeys(r, "Europe/Berlin", HOUR).map((k) => new Date(k * HOUR).toISOString().slice(11, 13));
    expect(labels).toEqual(["00", "01", "02", "03"]);
  });

  test("pieces use the coarsest buckets inside the range", () => {
    const from = Date.parse("2026-01-03T10:30:00Z");
    const p = pieces({ from, to: from + 40 * DAY });
    expect(p[0]).toEqual({ from, to: from + 30 * 60_000, span: 0 });
    expect(p.some((x) => x.span === BLOCK)).toBe(true);
    expect(p.map((x) => x.to - x.from).reduce((a, b) => a + b, 0)).toBe(40 * DAY);
    for (let i = 1; i < p.length; i++) expect(p[i]!.from).toBe(p[i - 1]!.to);
  });
});

test("percentages always add up to exactly 100", () => {
  for (const counts of [[1, 1, 1], [2, 2, 2, 1], [7], [1, 1, 1, 1, 1, 1], [999, 1, 1]]) {
    const rows = withPercentages(
      new Map(counts.map((n, i) => [`v${i}`, n])),
      counts.reduce((a, b) => a + b, 0),
    );
    expect(rows.reduce((s, r) => s + Math.round(r.percentage * 10), 0)).toBe(1000);
  }
});
