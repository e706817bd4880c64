/**
 * A link going viral while its owner watches: clicks keep arriving in the hour in progress, written
 * by the real click writer (its batch path, on SQLite and on PostgreSQL), and every analytics figure
 * (stats, geo, devices, bots, timeline, heatmap, and ranges that start and end mid-hour) equals what
 * a count of the raw clicks gives, in zones with half-hour and 45-minute offsets, with bots and with
 * the uniques the writer decided.
 */
import { afterAll, expect, test } from "bun:test";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { eq } from "drizzle-orm";
import type { Deps } from "../../../core/deps";
import { createClickWriter, type ClickWriter } from "../../../core/clicks/writer";
import { createPgClickWriter } from "../../../core/clicks/writer-pg";
import { packClicks, type PendingClick } from "../../../core/clicks/packed";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import { dimsCounts, plan, totals } from "../../../core/analytics/query";
import { localSeries } from "../../../core/analytics/local-series";
import { DAY, HOUR, MINUTE, offsetAt, type Range } from "../../../core/analytics/range";
import { routingStatsOf } from "../../../core/analytics/routing-stats";
import {
  linkBots,
  linkDevices,
  linkGeo,
  linkHeatmap,
  linkReferrers,
  linkStats,
  linkTimeline,
  withPercentages,
} from "../../../core/analytics/stats";
import { referrerHost } from "../../../core/analytics/referrer";
import type { AsyncDb } from "../../../db/async";
import type { Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { createTestApp, type TestApp } from "../../helpers/app";
import { onBothDatabases } from "../../helpers/async-engines";

const apps: TestApp[] = [];
afterAll(() => apps.forEach((a) => a.close()));

/** "Now" at the start: mid-hour, mid-minute, mid-second. */
const START = Date.parse("2026-03-30T12:37:20.500Z");

const UAS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
];
const BOTS = [
  ["TelegramBot (like TwitterBot)", "TelegramBot"],
  ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"],
  ["curl/8.5.0", null],
] as const;
/** Referers as browsers send them, and as they should not (no scheme, an app's URI, a port, upper case). */
const REFERERS = [
  null,
  null,
  null,
  "https://t.me/",
  "https://t.me/s/news?before=12",
  "https://WWW.Example.com:8443/path?q=1#top",
  "http://vk.com?x=1",
  "android-app://org.telegram.messenger/",
  "not a url",
  "https://xn--e1afmkfd.xn--p1ai/",
];
const IPS = ["8.8.8.8", "81.2.69.142", "2.125.160.216", "89.160.20.112", "175.16.199.1", "216.160.83.56", "203.0.113.9", "67.43.156.1"];

let seed = 11;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;

/** `n` clicks on `linkId` at random instants of [from, to): a few visitors over and over (so uniques repeat), one in ten a bot. */
function clicksBetween(linkId: number, n: number, from: number, to: number): PendingClick[] {
  return Array.from({ length: n }, () => {
    const isBot = rnd() < 0.1;
    const bot = pick(BOTS);
    return {
      linkId,
      clickedAt: new Date(from + Math.floor(rnd() * (to - from))),
      ip: `${pick(IPS)}`,
      userAgent: isBot ? bot[0] : pick(UAS),
      referer: pick(REFERERS),
      isBot,
      botName: isBot ? bot[1] : null,
    };
  });
}

type Raw = {
  at: number;
  country: string | null;
  device: string | null;
  browser: string | null;
  os: string | null;
  isBot: boolean;
  botName: string | null;
  isUnique: boolean;
  referrer: string;
};

/** The link's clicks as stored, read straight from the clicks table. */
async function rawClicks(db: AsyncDb, linkId: number): Promise<Raw[]> {
  const c = db.tables.clicks;
  const rows = await db.select().from(c).where(eq(c.linkId, linkId));
  return rows.map((r) => ({
    at: r.clickedAt.getTime(),
    country: r.country,
    device: r.device,
    browser: r.browser,
    os: r.os,
    isBot: r.isBot,
    botName: r.botName,
    isUnique: r.isUnique,
    referrer: referrerHost(r.referer),
  }));
}

const countBy = (rows: Raw[], value: (r: Raw) => string | null | undefined) => {
  const m = new Map<string, number>();
  for (const r of rows) {
    const v = value(r);
    if (v !== undefined) m.set(v ?? "", (m.get(v ?? "") ?? 0) + 1);
  }
  return m;
};
const humansUnique = (rows: Raw[]) => rows.filter((r) => r.isUnique && !r.isBot).length;
const offsets = new Map<string, number>();
/** Wall-clock ms of `ms` in `tz`, read as UTC (offsets change on whole minutes: looked up once a minute). */
function local(tz: string, ms: number): number {
  const key = `${tz} ${Math.floor(ms / MINUTE)}`;
  let o = offsets.get(key);
  if (o === undefined) offsets.set(key, (o = offsetAt(tz, ms)));
  return ms + o;
}

/** Every figure of `linkId` over `range` counted from the raw clicks. */
function counted(raw: Raw[], r: Range) {
  const rows = raw.filter((c) => c.at >= r.from && c.at < r.to);
  return {
    rows,
    totals: { clicks: rows.length, uniques: humansUnique(rows), bots: rows.filter((c) => c.isBot).length },
    country: countBy(rows, (c) => c.country),
    device: countBy(rows, (c) => c.device),
    browser: countBy(rows, (c) => c.browser),
    os: countBy(rows, (c) => c.os),
    bot: countBy(rows, (c) => (c.isBot ? c.botName : undefined)),
    referrer: countBy(rows, (c) => c.referrer),
  };
}

const PERIOD_DAYS = { "1d": 1, "7d": 7, "30d": 30 } as const;
const ZONES = ["UTC", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns"];

onBothDatabases((open, engine) => {
  /** A test app's dependencies over the opened database, and the click writer of that engine on it. */
  async function setUp(): Promise<{ t: TestApp; deps: Deps; writer: ClickWriter; userId: number; linkId: number }> {
    const e = await open();
    const t = createTestApp();
    apps.push(t);
    t.clock.set(START);
    let deps: Deps;
    let writer: ClickWriter;
    if (engine === "sqlite") {
      const db = drizzle(e.sqlite!, { schema }) as Db;
      deps = { ...t.deps, asyncDb: e.db, db } as Deps;
      writer = createClickWriter({ ...deps, db }, CLICK_LISTENERS);
    } else {
      deps = { ...t.deps, asyncDb: e.db } as Deps;
      writer = createPgClickWriter(deps, CLICK_LISTENERS);
    }
    const db = deps.asyncDb;
    const [user] = await db
      .insert(db.tables.users)
      .values({ username: "owner", createdAt: new Date(START - 20 * DAY) })
      .returning();
    const [link] = await db
      .insert(db.tables.links)
      .values({ userId: user!.id, code: "viral1", url: "https://example.com/", createdAt: new Date(START - 10 * DAY) })
      .returning();
    return { t, deps, writer, userId: user!.id, linkId: link!.id };
  }

  /** The endpoints' answers for the periods and zones above equal the raw counts at the clock's now. */
  async function expectEndpointsMatch(deps: Deps, userId: number, linkId: number) {
    const raw = await rawClicks(deps.asyncDb, linkId);
    const now = deps.clock.now().getTime();
    for (const period of ["1d", "7d", "30d", "all"] as const) {
      // `all` starts at the link's creation or the hour of its first click, whichever is earlier
      const firstHour = Math.floor(Math.min(...raw.map((c) => c.at)) / HOUR) * HOUR;
      const range = { from: period === "all" ? Math.min(START - 10 * DAY, firstHour) : now - PERIOD_DAYS[period] * DAY, to: now + 1 };
      const want = counted(raw, range);
      const stats = await linkStats(deps, userId, linkId, { period });
      expect({ totalClicks: stats.totalClicks, uniqueClicks: stats.uniqueClicks, botClicks: stats.botClicks }).toEqual({
        totalClicks: want.totals.clicks,
        uniqueClicks: want.totals.uniques,
        botClicks: want.totals.bots,
      });
      expect(await linkGeo(deps, userId, linkId, { period })).toEqual(
        withPercentages(want.country, want.totals.clicks).map(({ name, count, percentage }) => ({ country: name, count, percentage })),
      );
      expect(await linkDevices(deps, userId, linkId, { period })).toEqual({
        devices: withPercentages(want.device, want.totals.clicks),
        browsers: withPercentages(want.browser, want.totals.clicks),
        os: withPercentages(want.os, want.totals.clicks),
      });
      expect(await linkReferrers(deps, userId, linkId, { period })).toEqual(
        withPercentages(want.referrer, want.totals.clicks).map(({ name, count, percentage }) => ({
          referrer: name === "Unknown" ? "" : name,
          count,
          percentage,
        })),
      );
      const bots = await linkBots(deps, userId, linkId, { period });
      expect(bots.totalBots).toBe(want.totals.bots);
      expect(Object.fromEntries(bots.bots.map((b) => [b.name === "Unknown" ? "" : b.name, b.count]))).toEqual(Object.fromEntries(want.bot));
      for (const tz of ZONES) {
        const hourly = await linkTimeline(deps, userId, linkId, { period, tz, granularity: "hourly" });
        const byHour = new Map<string, { clicks: number; unique: number }>();
        for (const c of want.rows) {
          const label = `${new Date(local(tz, c.at)).toISOString().slice(0, 13)}:00`;
          const b = byHour.get(label) ?? { clicks: 0, unique: 0 };
          b.clicks += 1;
          b.unique += c.isUnique && !c.isBot ? 1 : 0;
          byHour.set(label, b);
        }
        expect(Object.fromEntries(hourly.filter((b) => b.clicks).map((b) => [b.date, { clicks: b.clicks, unique: b.unique }]))).toEqual(
          Object.fromEntries(byHour),
        );
        expect(hourly.reduce((n, b) => n + b.clicks, 0)).toBe(want.totals.clicks);
        const daily = await linkTimeline(deps, userId, linkId, { period, tz, granularity: "daily" });
        expect(Object.fromEntries(daily.filter((b) => b.clicks).map((b) => [b.date, b.clicks]))).toEqual(
          Object.fromEntries(countBy(want.rows, (c) => new Date(local(tz, c.at)).toISOString().slice(0, 10))),
        );
        const heatmap = await linkHeatmap(deps, userId, linkId, { period, tz });
        const cells = countBy(want.rows, (c) => {
          const l = new Date(local(tz, c.at));
          return `${l.getUTCDay()}:${l.getUTCHours()}`;
        });
        expect(Object.fromEntries(heatmap.filter((c) => c.count).map((c) => [`${c.day}:${c.hour}`, c.count]))).toEqual(
          Object.fromEntries(cells),
        );
      }
    }
  }

  /** The query functions over `range` equal the raw counts: totals, every dimension, and series in each zone. */
  async function expectRangeMatches(deps: Deps, linkId: number, raw: Raw[], range: Range) {
    const want = counted(raw, range);
    expect(await totals(deps, [linkId], range)).toEqual(want.totals);
    const dims = await dimsCounts(deps, [linkId], range, ["country", "device", "browser", "os", "bot", "referrer"]);
    for (const dim of ["country", "device", "browser", "os", "bot", "referrer"] as const)
      expect(Object.fromEntries(dims[dim])).toEqual(Object.fromEntries(want[dim]));
    for (const tz of ZONES)
      for (const size of [HOUR, DAY]) {
        const expected = new Map<number, { clicks: number; unique: number }>();
        for (const c of want.rows) {
          const k = Math.floor(local(tz, c.at) / size);
          const e = expected.get(k) ?? { clicks: 0, unique: 0 };
          e.clicks += 1;
          e.unique += c.isUnique && !c.isBot ? 1 : 0;
          expected.set(k, e);
        }
        expect(Object.fromEntries(await localSeries(deps, [linkId], range, tz, { size }))).toEqual(Object.fromEntries(expected));
      }
  }

  test("while a link goes viral in the hour in progress, every endpoint equals the raw counts", async () => {
    const { t, deps, writer, userId, linkId } = await setUp();
    // a week and a half of ordinary traffic, then the hour in progress fills up batch after batch
    for (let d = 9; d >= 0; d--) await writer.write(packClicks(clicksBetween(linkId, 60, START - (d + 1) * DAY, START - d * DAY)));
    const hourStart = Math.floor(START / HOUR) * HOUR;
    await writer.write(packClicks(clicksBetween(linkId, 400, hourStart, START)));
    await expectEndpointsMatch(deps, userId, linkId);
    for (let round = 0; round < 3; round++) {
      const before = t.clock.now().getTime();
      t.clock.advance(4 * MINUTE + 7_250);
      // clicks up to now, and a few from a node whose clock runs two seconds ahead (after now: not in any period yet)
      const batch = [
        ...clicksBetween(linkId, 500, before, t.clock.now().getTime() + 1),
        ...clicksBetween(linkId, 3, t.clock.now().getTime() + 1, t.clock.now().getTime() + 2_000),
      ];
      await writer.write(packClicks(batch));
      await expectEndpointsMatch(deps, userId, linkId);
    }
    const raw = await rawClicks(deps.asyncDb, linkId);
    expect(raw.filter((c) => c.isBot).length).toBeGreaterThan(100);
    expect(humansUnique(raw)).toBeGreaterThan(20);
    expect(humansUnique(raw)).toBeLessThan(raw.filter((c) => !c.isBot).length / 4);
  });

  test("ranges that start and end mid-hour (and mid-minute) are exact, inside one hour, across one boundary and over days", async () => {
    const { t, deps, writer, linkId } = await setUp();
    for (let d = 3; d >= 0; d--) await writer.write(packClicks(clicksBetween(linkId, 300, START - (d + 1) * DAY, START - d * DAY)));
    await writer.write(packClicks(clicksBetween(linkId, 600, START - 3 * HOUR, START)));
    const raw = await rawClicks(deps.asyncDb, linkId);
    const now = t.clock.now().getTime();
    const ranges: Range[] = [
      { from: now - 2 * DAY - 17 * MINUTE - 3_001, to: now - 41 * MINUTE - 999 }, // both ends in the past, mid-hour
      { from: now - 5 * HOUR - 52 * MINUTE, to: now + 1 }, // ends now
      { from: now - 2 * HOUR - 50 * MINUTE, to: now - 2 * HOUR - 5 * MINUTE }, // inside one hour
      { from: now - 3 * HOUR + 12 * MINUTE + 1, to: now - HOUR - 59 * MINUTE }, // across one hour boundary, no whole hour
      { from: now - 40 * MINUTE, to: now - 39 * MINUTE - 30_000 }, // half a minute
      { from: now - 4 * DAY + 7 * MINUTE, to: now - 2 * HOUR + 3 * MINUTE },
    ];
    for (let i = 0; i < 12; i++) {
      const a = now - Math.floor(rnd() * 4 * DAY);
      ranges.push({ from: a, to: a + Math.floor(rnd() * (now + 1 - a)) + 1 });
    }
    for (const r of ranges) await expectRangeMatches(deps, linkId, raw, r);
  });

  test("rule and variant stats come from the roll-ups and equal the raw counts: mid-hour edges, half-hour zones' days, bots, uniques, clicks arriving", async () => {
    const { t, deps, writer, userId, linkId } = await setUp();
    const db = deps.asyncDb;
    const l = db.tables.links;
    await db
      .update(l)
      .set({
        rules: JSON.stringify([{}, {}, {}]),
        variants: JSON.stringify(["https://a.example/", "https://b.example/", "https://c.example/"].map((url) => ({ url, weight: 1 }))),
      })
      .where(eq(l.id, linkId));
    /** a rule sent some clicks, an A/B variant others (a rule's click gets no variant), the rest neither */
    const routed = (clicks: PendingClick[]) =>
      clicks.map((c) => {
        const r = rnd();
        return r < 0.3 ? { ...c, rule: Math.floor(rnd() * 3) } : r < 0.8 ? { ...c, variant: Math.floor(rnd() * 3) } : c;
      });
    /** the figures counted from the clicks table */
    async function rawRouting(r: Range) {
      const c = db.tables.clicks;
      const rows = (await db.select().from(c).where(eq(c.linkId, linkId))).filter(
        (x) => x.clickedAt.getTime() >= r.from && x.clickedAt.getTime() < r.to,
      );
      return {
        rules: [0, 1, 2].map((index) => ({ index, clicks: rows.filter((x) => x.rule === index).length })),
        variants: [0, 1, 2].map((index) => ({
          index,
          url: ["https://a.example/", "https://b.example/", "https://c.example/"][index]!,
          clicks: rows.filter((x) => x.variant === index).length,
          uniqueClicks: rows.filter((x) => x.variant === index && x.isUnique && !x.isBot).length,
        })),
        bots: rows.filter((x) => x.isBot && (x.rule !== null || x.variant !== null)).length,
        uniques: rows.filter((x) => x.isUnique && x.variant !== null).length,
      };
    }
    const link = async () => (await db.select().from(l).where(eq(l.id, linkId)))[0]!;
    for (let d = 3; d >= 0; d--) await writer.write(packClicks(routed(clicksBetween(linkId, 300, START - (d + 1) * DAY, START - d * DAY))));
    await writer.write(packClicks(routed(clicksBetween(linkId, 600, START - 3 * HOUR, START))));
    const now = t.clock.now().getTime();
    const localDay = (tz: string, daysAgo: number) => {
      const l0 = Math.floor(local(tz, now) / DAY - daysAgo) * DAY;
      return { from: l0 - offsetAt(tz, l0), to: l0 + DAY - offsetAt(tz, l0 + DAY) };
    };
    const ranges: Range[] = [
      { from: now - 2 * DAY - 17 * MINUTE - 3_001, to: now - 41 * MINUTE - 999 },
      { from: now - 5 * HOUR - 52 * MINUTE, to: now + 1 },
      { from: now - 2 * HOUR - 50 * MINUTE, to: now - 2 * HOUR - 5 * MINUTE },
      { from: now - 3 * HOUR + 12 * MINUTE + 1, to: now - HOUR - 59 * MINUTE },
      localDay("Asia/Kolkata", 1),
      localDay("Asia/Kathmandu", 2),
      localDay("America/St_Johns", 1),
      localDay("Asia/Kolkata", 0),
    ];
    for (const r of ranges) {
      const want = await rawRouting(r);
      expect(await routingStatsOf(deps, await link(), r)).toEqual({ rules: want.rules, variants: want.variants });
    }
    // the figures have bots and uniques in them, and a variant's unique clicks are not all of its clicks
    const all = await rawRouting({ from: 0, to: now + 1 });
    expect(all.bots).toBeGreaterThan(20);
    expect(all.uniques).toBeGreaterThan(10);
    expect(all.variants.every((v) => v.uniqueClicks > 0 && v.uniqueClicks < v.clicks)).toBe(true);
    // clicks keep arriving in the hour in progress: the stats endpoint follows them
    for (let round = 0; round < 3; round++) {
      const before = t.clock.now().getTime();
      t.clock.advance(3 * MINUTE + 11_500);
      await writer.write(packClicks(routed(clicksBetween(linkId, 400, before, t.clock.now().getTime() + 1))));
      for (const period of ["1d", "7d"] as const) {
        const want = await rawRouting({ from: t.clock.now().getTime() - PERIOD_DAYS[period] * DAY, to: t.clock.now().getTime() + 1 });
        const stats = await linkStats(deps, userId, linkId, { period });
        // no conversions here: each variant has none, a rate of 0 per unique click
        const variants = want.variants.map((v) => ({ ...v, conversions: 0, conversionRate: v.uniqueClicks > 0 ? 0 : null }));
        expect({ rules: stats.rules, variants: stats.variants }).toEqual({ rules: want.rules, variants });
      }
    }
  });

  test("a figure read while a batch commits is the figure before it or after it, never a mix", async () => {
    const { t, deps, writer, linkId } = await setUp();
    await writer.write(packClicks(clicksBetween(linkId, 800, START - HOUR, START)));
    const range = () => ({ from: t.clock.now().getTime() - DAY + 1234, to: t.clock.now().getTime() + 1 });
    for (let round = 0; round < 5; round++) {
      const before = counted(await rawClicks(deps.asyncDb, linkId), range());
      const [, got, dims] = await Promise.all([
        writer.write(packClicks(clicksBetween(linkId, 1500, t.clock.now().getTime() - 20 * MINUTE, t.clock.now().getTime()))),
        totals(deps, [linkId], range()),
        dimsCounts(deps, [linkId], range(), ["device", "browser", "os"]),
      ]);
      const after = counted(await rawClicks(deps.asyncDb, linkId), range());
      expect([before.totals, after.totals]).toContainEqual(got);
      const asObject = (d: Record<string, Map<string, number>>) =>
        Object.fromEntries(Object.entries(d).map(([k, m]) => [k, Object.fromEntries(m)]));
      expect([
        asObject({ device: before.device, browser: before.browser, os: before.os }),
        asObject({ device: after.device, browser: after.browser, os: after.os }),
      ]).toContainEqual(asObject(dims));
      expect(after.totals.clicks).toBe(before.totals.clicks + 1500);
    }
  });
});

test("a period ending now reads the hour in progress from its roll-up row, never its raw clicks", () => {
  const now = START;
  const hourStart = Math.floor(now / HOUR) * HOUR;
  for (const days of [1, 7, 30, 365]) {
    const pieces = plan({ from: now - days * DAY, to: now + 1 }, undefined, now);
    // the hour in progress: a whole roll-up hour, less the clicks after now (from a clock ahead of ours)
    expect(pieces).toContainEqual(expect.objectContaining({ span: HOUR, sign: 1 }));
    expect(pieces.some((p) => p.span === HOUR && p.from <= hourStart && p.to >= hourStart + HOUR)).toBe(true);
    expect(pieces.filter((p) => p.span === 0 && p.sign === -1 && p.from > hourStart)).toEqual([
      { from: now + 1, to: hourStart + HOUR, span: 0, sign: -1 },
    ]);
    // raw clicks read: only the start's partial hour, at most half an hour of it, and none of the hour in progress
    const scanned = pieces.filter((p) => p.span === 0 && p.to <= now);
    for (const p of scanned) expect(p.to - p.from).toBeLessThanOrEqual(HOUR / 2);
    expect(scanned.every((p) => p.to <= hourStart)).toBe(true);
  }
});
