/** Time comes from here so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string | number = "2026-01-15T12:00:00Z") {
    this.t = new Date(start).getTime();
  }
  now() {
    return new Date(this.t);
  }
  set(to: Date | string | number) {
    this.t = new Date(to).getTime();
  }
  advance(ms: number) {
    this.t += ms;
  }
}

/** A formatter of wall-clock parts in time zone `tz` (cached per zone; throws RangeError for an unknown zone). */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function zoneFormatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Offset of `tz` from UTC at instant `ms`, in ms (e.g. +3_600_000 for Berlin in winter). */
export function offsetAt(tz: string, ms: number): number {
  const second = Math.floor(ms / 1000) * 1000;
  const p: Record<string, number> = {};
  for (const part of zoneFormatter(tz).formatToParts(second)) if (part.type !== "literal") p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - second;
}

/** Midnight starting the calendar day (in `zone`) that `ms` falls in, as an instant. */
export function localMidnight(zone: string, ms: number): number {
  const day = 86_400_000;
  const wall = ms + offsetAt(zone, ms);
  const wallMidnight = wall - (((wall % day) + day) % day);
  // the offset at midnight itself (a DST change during the day moves it)
  const guess = wallMidnight - offsetAt(zone, wallMidnight);
  return wallMidnight - offsetAt(zone, guess);
}
