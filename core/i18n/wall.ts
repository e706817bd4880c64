/**
 * Times as the user reads them: in the time zone of their Settings (UTC until one is set), in their
 * language, the zone named as people say it ("Москва (UTC+3)"). The bot's cards and prompts, the
 * files sent to the chat and the examples of what can be typed all use these.
 */
import { offsetAt } from "../clock";
import type { Language } from "./language";
import { placeOfZone } from "./places";
import { t } from "./translate";

/** Who reads a time: their language and time zone. */
export interface Reader {
  language: Language;
  zone: string;
}

/** `UTC+3`, `UTC+5:30`, `UTC−8` (a true minus), `UTC` for no offset: the zone's offset at `at`. */
function utcOffset(zone: string, at: Date): string {
  const minutes = Math.round(offsetAt(zone, at.getTime()) / 60_000);
  if (minutes === 0) return "UTC";
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? "−" : "+"}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, "0")}` : ""}`;
}

/** The zone as people say it: "Москва (UTC+3)", "Berlin (UTC+1)", "UTC+4" (an offset), "UTC". */
export function zoneName(zone: string, language: Language, at: Date): string {
  const place = placeOfZone(zone, language);
  const offset = utcOffset(zone, at);
  return place ? `${place} (${offset})` : offset;
}

/** A moment in the reader's zone and language: "28 нояб. 2026 г., 18:00" / "Nov 28, 2026, 6:00 PM". */
export function shownAt(reader: Reader, at: string | Date, withTime = true): string {
  return new Intl.DateTimeFormat(reader.language, {
    dateStyle: "medium",
    ...(withTime ? { timeStyle: "short" } : {}),
    timeZone: reader.zone,
  }).format(typeof at === "string" ? new Date(at) : at);
}

/** A date-time as a spreadsheet cell in the reader's zone: "2026-11-28 18:00:00". */
export function cellAt(zone: string, at: Date): string {
  return new Date(at.getTime() + offsetAt(zone, at.getTime())).toISOString().replace("T", " ").slice(0, 19);
}

/**
 * Examples of the times a person may type (core/links/when.ts reads them), in their language, with
 * a date a week from `now` in their zone (never in the past) and the zone they are read in.
 */
export function whenExamples(reader: Reader, now: Date): string {
  // the calendar day a week from today in the reader's zone
  const [y, m, d] = cellAt(reader.zone, new Date(now.getTime() + 7 * 86_400_000))
    .slice(0, 10)
    .split("-");
  const date = reader.language === "ru" ? `${d}.${m}.${y}` : `${y}-${m}-${d}`;
  return t(reader.language, "tz-examples", { date, zone: zoneName(reader.zone, reader.language, now) });
}
