/**
 * Fixed-window counters for rate limits and password attempts. Windows are aligned to the epoch
 * (a 60 s window starts at every whole minute), so every node puts a hit in the same window
 * without agreeing on anything first.
 */
interface WindowHit {
  /** hits in this window, this one included */
  count: number;
  /** when the window ends */
  resetAt: Date;
}

export interface WindowCounters {
  /** Adds one hit to `key` in the window of `windowMs` that holds `now`. */
  hit(key: string, windowMs: number, now: Date): Promise<WindowHit>;
  /** Hits of `key` so far in the window that holds `now` (0 when none). */
  count(key: string, windowMs: number, now: Date): Promise<number>;
  /** Forgets `key`'s hits in the window that holds `now` (e.g. after a right password). */
  reset(key: string, windowMs: number, now: Date): Promise<void>;
  /** Deletes windows that ended before `now`; returns how many. */
  sweep(now: Date): Promise<number>;
}

/** Start of the window of `windowMs` that holds `now`, ms since the epoch. */
export function windowStart(windowMs: number, now: Date): number {
  if (!Number.isInteger(windowMs) || windowMs <= 0) throw new RangeError(`window must be a positive whole number of ms, got ${windowMs}`);
  return Math.floor(now.getTime() / windowMs) * windowMs;
}

/** One node: counters in process memory. What SQLite mode uses. */
export function createLocalWindowCounters(): WindowCounters {
  const windows = new Map<string, { count: number; end: number }>();
  const id = (key: string, start: number) => `${start}\u0000${key}`;
  return {
    async hit(key, windowMs, now) {
      const start = windowStart(windowMs, now);
      const w = windows.get(id(key, start)) ?? { count: 0, end: start + windowMs };
      w.count++;
      windows.set(id(key, start), w);
      return { count: w.count, resetAt: new Date(w.end) };
    },
    async count(key, windowMs, now) {
      return windows.get(id(key, windowStart(windowMs, now)))?.count ?? 0;
    },
    async reset(key, windowMs, now) {
      windows.delete(id(key, windowStart(windowMs, now)));
    },
    async sweep(now) {
      let n = 0;
      for (const [k, w] of windows) if (w.end <= now.getTime()) n += Number(windows.delete(k));
      return n;
    },
  };
}
