import { conversionRate, conversionStats, conversionsByVariant } from "../conversions/stats";
import type { Deps } from "../deps";
import { FieldError } from "../errors";
import type { Tables } from "../../db/async";
import { ownedLink } from "../links/links";
import { DAY, HOUR, parsePeriod, parseTimeZone, periodDays, periodRange, type Period, type Range } from "./range";
import { dimCounts, dimsCounts, firstClickBucket, totals } from "./query";
import { localKeys, localSeries } from "./local-series";
import { routingStatsOf } from "./routing-stats";

type LinkRow = Tables["links"]["$inferSelect"];

/** Query options shared by the analytics endpoints (raw, as received). */
export interface PeriodQuery {
  period?: string;
  tz?: string;
}

/** Resolves a validated period to the range it covers for these links, ending now. */
export async function rangeOf(deps: Pick<Deps, "asyncDb" | "clock">, linkRows: LinkRow[], period: Period): Promise<Range> {
  const now = deps.clock.now().getTime();
  const created = Math.min(now, ...linkRows.map((l) => l.createdAt.getTime()));
  const firstClick =
    period === "all"
      ? await firstClickBucket(
          deps,
          linkRows.map((l) => l.id),
        )
      : null;
  return periodRange(period, now, Math.min(created, firstClick ?? created));
}

async function linkRange(deps: Pick<Deps, "asyncDb" | "clock">, link: LinkRow, q: PeriodQuery) {
  const period = parsePeriod(q.period);
  return { period, range: await rangeOf(deps, [link], period) };
}

/** Checks ownership and the period, then runs `fn` over the link's range. */
async function onLink<T>(
  deps: Deps,
  userId: number,
  linkId: number,
  q: PeriodQuery,
  fn: (deps: Deps, ids: number[], range: Range) => Promise<T>,
): Promise<T> {
  const link = await ownedLink(deps, userId, linkId);
  return fn(deps, [link.id], (await linkRange(deps, link, q)).range);
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Label shown for an unknown value of a dimension. */
const UNKNOWN = "Unknown";

/** Most clicks first; ties by name, the unknown value ('') last. */
export function byCount(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || Number(a[0] === "") - Number(b[0] === "") || a[0].localeCompare(b[0]);
}

/**
 * `[{name, count, percentage}]` sorted by count, percentages with one decimal that add up to exactly
 * 100 (largest remainder), of `total`.
 */
export function withPercentages(counts: Map<string, number>, total: number): { name: string; count: number; percentage: number }[] {
  const entries = [...counts].filter(([, n]) => n > 0).sort(byCount);
  if (!total) return [];
  const tenths = entries.map(([, n]) => (n * 1000) / total);
  const floors = tenths.map(Math.floor);
  let left = Math.min(1000, Math.round(tenths.reduce((s, x) => s + x, 0))) - floors.reduce((s, x) => s + x, 0);
  const order = tenths.map((x, i) => [x - floors[i]!, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    floors[i]! += 1;
    left -= 1;
  }
  return entries.map(([name, count], i) => ({ name: name || UNKNOWN, count, percentage: floors[i]! / 10 }));
}

/** `GET /links/:id/stats`: totals of the period (see CONTRACT §4 Links for the definitions). */
export async function linkStats(deps: Deps, userId: number, linkId: number, q: PeriodQuery) {
  const link = await ownedLink(deps, userId, linkId);
  const { period, range } = await linkRange(deps, link, q);
  const stats = await statsOf(deps, [link], period, range);
  const routing = await routingStatsOf(deps, link, range);
  const within = { from: new Date(range.from), to: new Date(range.to) };
  const conversions = await conversionStats(deps, userId, { linkId: link.id }, within);
  const byVariant = routing.variants.length ? await conversionsByVariant(deps, userId, link.id, within) : new Map<number, number>();
  return {
    ...stats,
    ...routing,
    // A/B variants compared by conversions too: those of clicks the variant sent, per its unique clicks
    variants: routing.variants.map((v) => ({
      ...v,
      conversions: byVariant.get(v.index) ?? 0,
      conversionRate: conversionRate(byVariant.get(v.index) ?? 0, v.uniqueClicks),
    })),
    conversions: { ...conversions, rate: conversionRate(conversions.count, stats.uniqueClicks) },
  };
}

/** Stats of a set of links over a range (also used by the chat summary). */
export async function statsOf(deps: Deps, linkRows: LinkRow[], period: Period | null, range: Range) {
  const ids = linkRows.map((l) => l.id);
  const t = await totals(deps, ids, range);
  const countries = [...(await dimCounts(deps, ids, range, "country"))].filter(([c]) => c !== "").sort(byCount);
  const now = deps.clock.now().getTime();
  const created = Math.min(...linkRows.map((l) => l.createdAt.getTime()));
  const days = period ? periodDays(period, now, created) : Math.max(1, Math.ceil((range.to - range.from) / DAY));
  return {
    totalClicks: t.clicks,
    uniqueClicks: t.uniques,
    botClicks: t.bots,
    avgClicksPerDay: round(t.clicks / days, 2),
    topCountry: countries[0]?.[0] ?? null,
  };
}

/** `GET /links/:id/geo`: clicks per country (ISO code, "Unknown" when not located). */
export function linkGeo(deps: Deps, userId: number, linkId: number, q: PeriodQuery) {
  return onLink(deps, userId, linkId, q, geoOf);
}

export async function geoOf(deps: Deps, ids: number[], range: Range) {
  const countries = await dimCounts(deps, ids, range, "country");
  // every click has one country value ('' when unknown), so the period's clicks are their sum (one snapshot)
  return withPercentages(countries, sumOf(countries)).map(({ name, count, percentage }) => ({ country: name, count, percentage }));
}

/** `GET /links/:id/devices`: clicks per device type, browser and OS. */
export function linkDevices(deps: Deps, userId: number, linkId: number, q: PeriodQuery) {
  return onLink(deps, userId, linkId, q, devicesOf);
}

export async function devicesOf(deps: Deps, ids: number[], range: Range) {
  const { device, browser, os } = await dimsCounts(deps, ids, range, ["device", "browser", "os"]);
  // every click has one value of each ('' when unknown): the period's clicks are the sum of any of them
  const total = sumOf(device);
  return { devices: withPercentages(device, total), browsers: withPercentages(browser, total), os: withPercentages(os, total) };
}

/** `GET /links/:id/referrers`: clicks by the host that sent them ("" when none was sent: direct, an app, a QR code). */
export function linkReferrers(deps: Deps, userId: number, linkId: number, q: PeriodQuery) {
  return onLink(deps, userId, linkId, q, referrersOf);
}

export async function referrersOf(deps: Deps, ids: number[], range: Range) {
  const hosts = await dimCounts(deps, ids, range, "referrer");
  // every click has one referrer value ('' for none): the period's clicks are their sum
  return withPercentages(hosts, sumOf(hosts)).map(({ name, count, percentage }) => ({
    referrer: name === UNKNOWN ? "" : name,
    count,
    percentage,
  }));
}

const sumOf = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

/** `GET /links/:id/bots`: bot clicks by bot name. */
export function linkBots(deps: Deps, userId: number, linkId: number, q: PeriodQuery) {
  return onLink(deps, userId, linkId, q, botsOf);
}

export async function botsOf(deps: Deps, ids: number[], range: Range) {
  const t = await totals(deps, ids, range);
  const bots = [...(await dimCounts(deps, ids, range, "bot"))].sort(byCount).map(([name, count]) => ({ name: name || UNKNOWN, count }));
  return { totalBots: t.bots, botPercentage: t.clicks ? round((t.bots / t.clicks) * 100, 1) : 0, bots };
}

/** A timeline's buckets: the API's enum. */
export const GRANULARITIES = ["hourly", "daily"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

function parseGranularity(g: string | undefined): Granularity {
  if (g === undefined || g === "") return "daily";
  if (!(GRANULARITIES as readonly string[]).includes(g)) throw new FieldError("granularity", `must be one of ${GRANULARITIES.join(", ")}`);
  return g as Granularity;
}

/** `GET /links/:id/timeline`: every hour or day of the period in `tz`, zero buckets included. */
export async function linkTimeline(deps: Deps, userId: number, linkId: number, q: PeriodQuery & { granularity?: string }) {
  const granularity = parseGranularity(q.granularity);
  const tz = parseTimeZone(q.tz);
  const link = await ownedLink(deps, userId, linkId);
  const { range } = await linkRange(deps, link, q);
  return timelineOf(deps, [link.id], range, tz, granularity);
}

export async function timelineOf(deps: Deps, ids: number[], range: Range, tz: string, granularity: Granularity) {
  const size = granularity === "hourly" ? HOUR : DAY;
  const series = await localSeries(deps, ids, range, tz, { size });
  const perDay = DAY / size;
  // YYYY-MM-DD of the key's day, formatted once per day: a year's hourly timeline formats 365 dates, not 8,760
  let day = [Number.NaN, ""] as [number, string];
  const dayLabel = (d: number) => (day[0] === d ? day[1] : (day = [d, new Date(d * DAY).toISOString().slice(0, 10)])[1]);
  return localKeys(range, tz, size).map((k) => {
    const b = series.get(k);
    const date = dayLabel(Math.floor(k / perDay));
    return {
      date: perDay === 1 ? date : `${date}T${HOURS[k - Math.floor(k / perDay) * perDay]}:00`,
      clicks: b?.clicks ?? 0,
      unique: b?.unique ?? 0,
    };
  });
}

const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0"));

/** `GET /links/:id/heatmap`: all 168 (day, hour) cells in `tz`, day 0 = Sunday. */
export async function linkHeatmap(deps: Deps, userId: number, linkId: number, q: PeriodQuery) {
  const tz = parseTimeZone(q.tz);
  const link = await ownedLink(deps, userId, linkId);
  const { range } = await linkRange(deps, link, q);
  const byHourOfWeek = await localSeries(deps, [link.id], range, tz, { size: HOUR, add: 96, mod: 168 });
  return Array.from({ length: 168 }, (_, i) => ({ day: Math.floor(i / 24), hour: i % 24, count: byHourOfWeek.get(i)?.clicks ?? 0 }));
}
