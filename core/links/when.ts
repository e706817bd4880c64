import { offsetAt } from "../clock";

/**
 * Reads a moment typed by a person (the bot's option steps), in English or Russian:
 * - a duration from now: `30m`, `2h`, `3d`, `1w`, `3 days`, `2 часа`, `через 3 дня`, `in 2 hours`,
 *   a unit alone after "in"/"через" (`через неделю`, `in a week`, `через час`), months as 30 days,
 *   also several at once (`1d 12h`);
 * - a day: `today`/`сегодня`, `tomorrow`/`завтра`, `послезавтра`, a weekday (`friday`, `fri`,
 *   `пятница`, `пт`, `в пятницу`: the next one after today), an ISO date `2026-05-01`, or
 *   `01.05.2026` / `01.05` (day first, as Russian writes it; without a year the next such day, or
 *   with `nearest` the nearest one, past or coming: an ad that ran last week is not dated next year);
 *   a day means its midnight unless a time follows: `tomorrow 18:30`, `завтра в 9:00`; with
 *   `dayEnd` (an expiry: "until tomorrow") it means the day's last second;
 * - a time alone, `18:30`: today at that time, or tomorrow once it has passed;
 * - a full ISO 8601 timestamp, with its own offset.
 * Days and times are wall-clock times in `zone` (an IANA name, UTC by default). Null when the text
 * is none of these.
 */
export function parseWhen(text: string, now: Date, zone = "UTC", opts: { dayEnd?: boolean; nearest?: boolean } = {}): Date | null {
  const s = text.trim().toLowerCase().replace(/\s+/g, " ");
  if (!s) return null;
  const iso = /^(\d{4}-\d{2}-\d{2})[ t](\d{2}:\d{2}(?::\d{2})?)(z|[+-]\d{2}:?\d{2})$/.exec(s);
  if (iso) return valid(new Date(`${iso[1]}T${iso[2]}${iso[3] === "z" ? "Z" : iso[3]}`));
  const duration = durationOf(s);
  if (duration !== null) return new Date(now.getTime() + duration);
  const m = /^(?:(?:on|в|во|at|до|until|till|by) )?(.+?)(?:(?:,? (?:at|в))? (\d{1,2})[:.](\d{2}))?$/.exec(s);
  if (!m) return null;
  const time = m[2] === undefined ? null : { h: Number(m[2]), min: Number(m[3]) };
  if (time && (time.h > 23 || time.min > 59)) return null;
  // a time alone: "18:30"
  const alone = /^(\d{1,2})[:.](\d{2})$/.exec(m[1]!);
  if (!time && alone && !/^\d{1,2}\.\d{2}$/.test(m[1]!.replace(":", "x"))) {
    const [h, min] = [Number(alone[1]), Number(alone[2])];
    if (h > 23 || min > 59) return null;
    const today = wallDay(now, zone);
    const at = atWall(zone, today, h, min);
    return at.getTime() > now.getTime() ? at : atWall(zone, addDays(today, 1), h, min);
  }
  const day = dayOf(m[1]!, now, zone, opts.nearest === true);
  if (!day) return null;
  if (!time && opts.dayEnd) return new Date(atWall(zone, addDays(day, 1), 0, 0).getTime() - 1000);
  return atWall(zone, day, time?.h ?? 0, time?.min ?? 0);
}

const UNITS: [RegExp, number][] = [
  [/^(m|min|mins|minutes?|мин|минут[аыу]?)$/, 60_000],
  [/^(h|hr|hrs|hours?|ч|час|часа|часов)$/, 3_600_000],
  [/^(d|days?|д|дн|дня|дней|день|сутки|суток)$/, 86_400_000],
  [/^(w|weeks?|н|нед|недел[яиью]|недель)$/, 604_800_000],
  [/^(mo|mon|months?|мес|месяц|месяца|месяцев)$/, 30 * 86_400_000],
];

/** `3d`, `2 hours`, `через 1д 12ч`, `через неделю`, `in a month`: the total in ms, or null. */
function durationOf(s: string): number | null {
  // a unit alone after "in"/"через" is one of it: "через неделю", "in a week", "in an hour", "через полчаса"
  if (/^через полчаса$|^in half an hour$/.test(s)) return 1_800_000;
  const one = /^(?:in (?:a |an |one )?|через (?:одну |один )?)([a-zа-яё]+)$/.exec(s);
  if (one) return UNITS.find(([re]) => re.test(one[1]!))?.[1] ?? null;
  const body = s.replace(/^(?:\+|in |через )/, "");
  const parts = [...body.matchAll(/(\d{1,4}) ?([a-zа-яё]+)/g)];
  if (!parts.length || parts.map((p) => p[0]).join(" ") !== body) return null;
  let total = 0;
  for (const [, n, unit] of parts) {
    const ms = UNITS.find(([re]) => re.test(unit!))?.[1];
    if (ms === undefined) return null;
    total += Number(n) * ms;
  }
  return total;
}

type Day = { y: number; m: number; d: number };

const WEEKDAYS: RegExp[] = [
  /^(sunday|sun|воскресенье|воскресенья|вс)$/,
  /^(monday|mon|понедельник|понедельника|пн)$/,
  /^(tuesday|tue|tues|вторник|вторника|вт)$/,
  /^(wednesday|wed|среда|среду|среды|ср)$/,
  /^(thursday|thu|thur|thurs|четверг|четверга|чт)$/,
  /^(friday|fri|пятница|пятницу|пятницы|пт)$/,
  /^(saturday|sat|суббота|субботу|субботы|сб)$/,
];

function dayOf(word: string, now: Date, zone: string, nearest: boolean): Day | null {
  const today = wallDay(now, zone);
  const w = word.replace(/^next /, "");
  if (/^(today|сегодня)$/.test(w)) return today;
  if (/^(tomorrow|завтра)$/.test(w)) return addDays(today, 1);
  if (/^(послезавтра|day after tomorrow)$/.test(w)) return addDays(today, 2);
  const weekday = WEEKDAYS.findIndex((re) => re.test(w));
  if (weekday >= 0) {
    const current = new Date(Date.UTC(today.y, today.m - 1, today.d)).getUTCDay();
    return addDays(today, ((weekday - current + 6) % 7) + 1);
  }
  const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/.exec(w);
  if (isoDay) return realDay(Number(isoDay[1]), Number(isoDay[2]), Number(isoDay[3]));
  const dotted = /^(\d{1,2})[./](\d{1,2})(?:[./](\d{4}))?$/.exec(w);
  if (dotted) {
    const [d, m] = [Number(dotted[1]), Number(dotted[2])];
    if (dotted[3]) return realDay(Number(dotted[3]), m, d);
    const at = (day: Day) => Date.UTC(day.y, day.m - 1, day.d);
    const t = at(today);
    // 29.02 has no day in most years: the candidates are the years that have it
    const years = [today.y - 1, today.y, today.y + 1].map((y) => realDay(y, m, d)).filter((x): x is Day => x !== null);
    if (nearest) {
      // the closest to today; between two as close, the coming one
      return years.reduce<Day | null>((best, c) => (best === null || Math.abs(at(c) - t) < Math.abs(at(best) - t) ? c : best), null);
    }
    return years.find((c) => at(c) >= t) ?? null;
  }
  return null;
}

function realDay(y: number, m: number, d: number): Day | null {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d ? { y, m, d } : null;
}

function addDays(day: Day, n: number): Day {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** The calendar day in `zone` at `now`. */
function wallDay(now: Date, zone: string): Day {
  const t = new Date(now.getTime() + offsetAt(zone, now.getTime()));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** The instant a wall clock in `zone` shows `h:min` on `day` (the later reading in a DST overlap). */
function atWall(zone: string, day: Day, h: number, min: number): Date {
  const wall = Date.UTC(day.y, day.m - 1, day.d, h, min);
  let at = wall - offsetAt(zone, wall);
  at = wall - offsetAt(zone, at);
  return new Date(at);
}

const valid = (d: Date) => (Number.isNaN(d.getTime()) ? null : d);

/**
 * An ISO 8601 date or date-time; without a zone it is UTC (the server's own time zone never counts),
 * except a bare date when `dateZone` is given: that day's midnight in `dateZone` (the account's zone).
 */
export function parseDate(value: string, dateZone?: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (!m) return null;
  const [y, mo, day] = m[1]!.split("-").map(Number) as [number, number, number];
  // a day the calendar does not have (2026-02-31) is refused, not carried over into the next month
  if (!realDay(y, mo, day)) return null;
  if (m[2] === undefined && dateZone) return atWall(dateZone, { y, m: mo, d: day }, 0, 0);
  const d = new Date(`${m[1]}T${m[2] ?? "00:00"}${m[3] ?? "Z"}`);
  return Number.isNaN(d.getTime()) ? null : d;
}
