/**
 * When reports are due: a daily report at its hour of the user's day, a weekly one at its hour of
 * its weekday, each covering the whole calendar days (in the user's zone) before that day.
 */
import { localMidnight, offsetAt } from "../clock";
import type { SettingsView } from "./settings";

/** `hour` o'clock (in `zone`) on the day that starts at `midnight`. */
const atHour = (zone: string, midnight: number, hour: number) => {
  const wall = midnight + offsetAt(zone, midnight) + hour * 3_600_000;
  return wall - offsetAt(zone, wall - offsetAt(zone, wall));
};

/** The weekday (1 = Monday … 7 = Sunday) of the day starting at `midnight` in `zone`. */
const weekdayOf = (zone: string, midnight: number) =>
  ((new Date(midnight + offsetAt(zone, midnight) + 12 * 3_600_000).getUTCDay() + 6) % 7) + 1;

/** The latest moment at or before `now` a report of these settings was due (its slot). */
export function lastSlot(s: Pick<SettingsView, "time_zone" | "report_every" | "report_hour" | "report_weekday">, now: Date): Date {
  const zone = s.time_zone;
  let midnight = localMidnight(zone, now.getTime());
  for (let i = 0; i < 8; i++) {
    const slot = atHour(zone, midnight, s.report_hour);
    const dayFits = s.report_every !== "week" || weekdayOf(zone, midnight) === s.report_weekday;
    if (dayFits && slot <= now.getTime()) return new Date(slot);
    midnight = localMidnight(zone, midnight - 12 * 3_600_000); // the day before
  }
  throw new Error("no report slot within a week");
}

/** The period a report sent at `slot` covers: the calendar day before it, or the seven days before it. */
export function periodOf(s: Pick<SettingsView, "time_zone" | "report_every">, slot: Date): { from: number; to: number } {
  const to = localMidnight(s.time_zone, slot.getTime());
  let from = to;
  for (let i = 0; i < (s.report_every === "week" ? 7 : 1); i++) from = localMidnight(s.time_zone, from - 12 * 3_600_000);
  return { from, to };
}
