/**
 * Retention, one definition for every figure that shows it (an invite's or a channel's stats, a
 * placement's `stayed`): after 24 h, 7 d and 30 d, counted from the updates' dates.
 */
const HOUR = 3_600_000;

/** The retention windows: a join is eligible once it is this old, and stayed when its person had not left within it. */
export const RETENTION_WINDOWS = { h24: 24 * HOUR, d7: 7 * 24 * HOUR, d30: 30 * 24 * HOUR } as const;
export type RetentionWindow = keyof typeof RETENTION_WINDOWS;

/** One window's retention. */
export interface Retention {
  /** joins at least the window old */
  eligible: number;
  /** of those, the people who had not left within the window after joining */
  stayed: number;
  /** stayed / eligible to 4 places, null when none is eligible */
  rate: number | null;
}

/** a / b rounded to `places` decimals; null when b is 0. */
export const ratio = (a: number, b: number, places = 4) => (b > 0 ? Math.round((a / b) * 10 ** places) / 10 ** places : null);

/** The retention of a window from its counts. */
export const retention = (stayed: number, eligible: number): Retention => ({ eligible, stayed, rate: ratio(stayed, eligible) });
