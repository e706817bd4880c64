import { offsetAt, zoneFormatter as formatter } from "../clock";

export { offsetAt };
import { FieldError } from "../errors";

export const MINUTE = 60_000;
export const QUARTER = 15 * MINUTE;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** The coarsest roll-up bucket: 8 days, aligned to the epoch. */
export const BLOCK = 8 * DAY;
/** Roll-up bucket lengths, finest first. */
export const SPANS = [HOUR, DAY, BLOCK] as const;
/** The end of "all time" in a range: the last instant a JavaScript Date (and a PostgreSQL timestamp) holds, on a block boundary. */
export const ALL_TIME_END = Math.floor(8_640_000_000_000_000 / BLOCK) * BLOCK;

/** The periods the API accepts, in days (`all` is since the link's creation). */
/** The IANA time zone names, canonical spellings (the document's list; old aliases are read too). */
export const TIME_ZONES = Intl.supportedValuesOf("timeZone") as [string, ...string[]];

export const PERIODS = { "1d": 1, "7d": 7, "30d": 30, "90d": 90, "1y": 365, all: null } as const;
export type Period = keyof typeof PERIODS;
/** The period names, in order: the API's enum. */
export const PERIOD_NAMES = Object.keys(PERIODS) as [Period, ...Period[]];
const DEFAULT_PERIOD: Period = "30d";

/** A half-open time range [from, to) in ms since the epoch. */
export interface Range {
  from: number;
  to: number;
}

/** Validates `period` (undefined → 30d); 400 naming the allowed values otherwise. */
export function parsePeriod(period: string | undefined | null): Period {
  if (period === undefined || period === null || period === "") return DEFAULT_PERIOD;
  if (!Object.hasOwn(PERIODS, period)) throw new FieldError("period", `must be one of ${PERIOD_NAMES.join(", ")}`);
  return period as Period;
}

/**
 * The range a period covers, ending now (inclusive). `all` starts at `allFrom` (the link's creation
 * or its first click, whichever is earlier).
 */
export function periodRange(period: Period, now: number, allFrom: number): Range {
  const days = PERIODS[period];
  return { from: days === null ? Math.min(allFrom, now) : now - days * DAY, to: now + 1 };
}

/** How many days a period's average is spread over: its length, or whole days since creation for `all`. */
export function periodDays(period: Period, now: number, createdAt: number): number {
  const days = PERIODS[period];
  return days ?? Math.max(1, Math.ceil((now - createdAt) / DAY));
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))?)?$/i;

/**
 * Parses an ISO 8601 date or datetime; 400 naming `field` when it is not one or names no real
 * moment (2026-02-30, 25:00). A date or a time without an offset is UTC (never the server's zone).
 */
export function parseInstant(field: string, value: string): number {
  const m = ISO_INSTANT.exec(value.trim());
  const n = (i: number) => Number(m?.[i] ?? 0);
  const at = new Date(0);
  if (m) {
    at.setUTCFullYear(n(1), n(2) - 1, n(3));
    at.setUTCHours(n(4), n(5), n(6), Number((m[7] ?? "0").padEnd(3, "0")));
  }
  const real =
    m &&
    at.getUTCFullYear() === n(1) &&
    at.getUTCMonth() === n(2) - 1 &&
    at.getUTCDate() === n(3) &&
    n(4) < 24 &&
    n(5) < 60 &&
    n(6) < 60 &&
    n(10) < 24 &&
    n(11) < 60;
  if (!real) throw new FieldError(field, "must be an ISO 8601 date or datetime, e.g. 2026-01-31T00:00:00Z");
  return at.getTime() - (m[9] ? (m[9] === "-" ? -1 : 1) * (n(10) * 60 + n(11)) * MINUTE : 0);
}

/** Validates an IANA time zone name (undefined → UTC); 400 otherwise. Returns the canonical name. */
export function parseTimeZone(tz: string | undefined | null): string {
  if (tz === undefined || tz === null || tz === "") return "UTC";
  try {
    return formatter(tz).resolvedOptions().timeZone;
  } catch {
    throw new FieldError("tz", `"${tz}" is not an IANA time zone name (e.g. Europe/Berlin, Asia/Kolkata, UTC)`);
  }
}

/** A sub-range during which the zone's offset is constant. */
export interface OffsetSegment extends Range {
  offset: number;
}

const PROBE = 7 * DAY;

/** Splits `range` where the zone's UTC offset changes (DST), finding each change to the minute. */
export function offsetSegments(tz: string, range: Range): OffsetSegment[] {
  const segments: OffsetSegment[] = [];
  let start = range.from;
  let offset = offsetAt(tz, start);
  let t = start;
  while (t < range.to) {
    const next = Math.min(t + PROBE, range.to - 1);
    if (next <= t) break;
    if (offsetAt(tz, next) === offset) {
      t = next === range.to - 1 ? range.to : next;
      continue;
    }
    let lo = Math.floor(t / MINUTE);
    let hi = Math.floor(next / MINUTE);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(tz, mid * MINUTE) === offset) lo = mid;
      else hi = mid;
    }
    const change = Math.max(hi * MINUTE, start + 1);
    segments.push({ from: start, to: change, offset });
    start = t = change;
    offset = offsetAt(tz, change);
  }
  segments.push({ from: start, to: range.to, offset });
  return segments;
}

export const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
export const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;
