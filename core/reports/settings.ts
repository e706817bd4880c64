/**
 * A user's own settings: the time zone (reports, and in time the stats and the times they type) and
 * the report: off, daily or weekly, at an hour of their day. One row per user, made on first change.
 */
import { eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { FieldError } from "../errors";
import { parseTimeZone, TIME_ZONES } from "../analytics/range";
import { lastSlot } from "./schedule";
import { languageOf, setUserLanguage, type Language } from "../accounts/users";
import { zoneOfPlace } from "../i18n/places";
import { isCurrencyCode } from "../currency";
import { timeZoneOf } from "../i18n/zone";

type ReportEvery = "off" | "day" | "week";

/** SettingsResponse */
export interface SettingsView {
  time_zone: string;
  report_every: ReportEvery;
  /** 0–23, in time_zone */
  report_hour: number;
  /** 1 = Monday … 7 = Sunday (weekly reports) */
  report_weekday: number;
}

export type SettingsInput = Partial<SettingsView>;

/** The settings with the language: the one the bot and the mini-app speak, and the user's own choice (null: the Telegram app's). */
export interface UserSettingsView extends SettingsView {
  language: Language;
  language_chosen: Language | null;
  /** the currency a bare price (`5000`) is read in */
  currency: string;
  currency_chosen: string | null;
}

/**
 * A change of the settings, the language included (null: follow the Telegram app's language again),
 * and the default currency (an ISO 4217 code; null: RUB for a Russian-speaking account, else USD).
 */
export type UserSettingsInput = SettingsInput & { language?: Language | null; currency?: string | null };

/** The currency of an account's bare prices: its choice, else RUB when it speaks Russian, else USD. */
export async function accountCurrency(deps: Pick<Deps, "asyncDb">, userId: number): Promise<{ effective: string; chosen: string | null }> {
  const { userSettings } = deps.asyncDb.tables;
  const [[row], language] = await Promise.all([
    deps.asyncDb.select({ currency: userSettings.currency }).from(userSettings).where(eq(userSettings.userId, userId)).limit(1),
    languageOf(deps.asyncDb, userId),
  ]);
  const chosen = row?.currency ?? null;
  return { effective: chosen ?? (language.effective === "ru" ? "RUB" : "USD"), chosen };
}

async function setCurrency(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, currency: string | null): Promise<void> {
  let code: string | null = null;
  if (currency !== null) {
    code = String(currency).trim().toUpperCase();
    if (!isCurrencyCode(code)) throw new FieldError("currency", "must be an ISO 4217 currency code, e.g. RUB, USD or EUR, or null");
  }
  const { userSettings } = deps.asyncDb.tables;
  const now = deps.clock.now();
  // a first row takes the zone in force (a team's is its first owner's until it sets one), not the column's UTC
  await deps.asyncDb
    .insert(userSettings)
    .values({ userId, currency: code, timeZone: await timeZoneOf(deps, userId), updatedAt: now })
    .onConflictDoUpdate({ target: userSettings.userId, set: { currency: code, updatedAt: now } });
}

/**
 * A time zone as a person types it: an IANA name in any case (`europe/moscow`), its city alone
 * (`Moscow`, `Almaty`), a city in Russian or English that names a zone (`Москва`, `Питер`,
 * `Saint Petersburg`: core/i18n/places.ts), or a whole-hour UTC offset (`+3`, `UTC+3`, `GMT-5`).
 * Null when it is none of these.
 */
export function readTimeZone(text: string): string | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, "_");
  if (!t) return null;
  const zones = TIME_ZONES;
  const exact = zones.find((z) => z.toLowerCase() === t);
  if (exact) return exact;
  if (t === "utc" || t === "gmt") return "UTC";
  // before the city names: Etc/GMT-5 is UTC+5 (POSIX signs), so "GMT-5" must not find it by name
  const offset = /^(?:utc|gmt)?([+-])(\d{1,2})$/.exec(t);
  if (offset)
    return Number(offset[2]) > 14 ? null : Number(offset[2]) === 0 ? "UTC" : `Etc/GMT${offset[1] === "+" ? "-" : "+"}${Number(offset[2])}`;
  const city = zones.find((z) => z.toLowerCase().endsWith(`/${t}`));
  if (city) return city;
  return zoneOfPlace(text);
}

const DEFAULTS: SettingsView = { time_zone: "UTC", report_every: "off", report_hour: 9, report_weekday: 1 };

/**
 * An account's settings. Without a row of its own, the zone is the one in force (timeZoneOf: a
 * team's first owner's), so turning a team's report on keeps the days its people live in.
 */
export async function getSettings(deps: Pick<Deps, "asyncDb">, userId: number): Promise<SettingsView> {
  const { userSettings } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb.select().from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return row
    ? { time_zone: row.timeZone, report_every: row.reportEvery, report_hour: row.reportHour, report_weekday: row.reportWeekday }
    : { ...DEFAULTS, time_zone: await timeZoneOf(deps, userId) };
}

function whole(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw new FieldError(field, `must be a whole number from ${min} to ${max}`);
  return value;
}

/**
 * Changes the given settings (400 naming the field otherwise). Switching a report on or moving it
 * starts it at the next slot: a period that ended before the change is not reported.
 */
export async function updateSettings(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, input: SettingsInput): Promise<SettingsView> {
  const next = { ...(await getSettings(deps, userId)) };
  if (input.time_zone !== undefined) {
    try {
      next.time_zone = parseTimeZone(input.time_zone);
    } catch {
      throw new FieldError("time_zone", `"${input.time_zone}" is not an IANA time zone name (e.g. Europe/Moscow, Asia/Almaty, UTC)`);
    }
  }
  if (input.report_every !== undefined) {
    if (!["off", "day", "week"].includes(input.report_every)) throw new FieldError("report_every", "must be off, day or week");
    next.report_every = input.report_every;
  }
  if (input.report_hour !== undefined) next.report_hour = whole("report_hour", input.report_hour, 0, 23);
  if (input.report_weekday !== undefined) next.report_weekday = whole("report_weekday", input.report_weekday, 1, 7);
  const now = deps.clock.now();
  const row = {
    timeZone: next.time_zone,
    reportEvery: next.report_every,
    reportHour: next.report_hour,
    reportWeekday: next.report_weekday,
    reportSentFor: next.report_every === "off" ? null : lastSlot(next, now),
    updatedAt: now,
  };
  const { userSettings } = deps.asyncDb.tables;
  await deps.asyncDb
    .insert(userSettings)
    .values({ userId, ...row })
    .onConflictDoUpdate({ target: userSettings.userId, set: row });
  return next;
}

/** The settings and the language (GET /api/settings). */
export async function getUserSettings(deps: Pick<Deps, "asyncDb">, userId: number): Promise<UserSettingsView> {
  const [settings, language, currency] = await Promise.all([
    getSettings(deps, userId),
    languageOf(deps.asyncDb, userId),
    accountCurrency(deps, userId),
  ]);
  return {
    ...settings,
    language: language.effective,
    language_chosen: language.chosen,
    currency: currency.effective,
    currency_chosen: currency.chosen,
  };
}

/**
 * Changes the given settings and the language choice, which is the bot's too (its Settings show and
 * change the same one). The report settings and the currency make a settings row.
 */
export async function updateUserSettings(
  deps: Pick<Deps, "asyncDb" | "clock">,
  userId: number,
  input: UserSettingsInput,
): Promise<UserSettingsView> {
  const { language, currency, ...rest } = input;
  if (currency !== undefined) await setCurrency(deps, userId, currency);
  if (language !== undefined) {
    if (language !== null && language !== "en" && language !== "ru") throw new FieldError("language", "must be en, ru or null");
    await setUserLanguage(deps, userId, language);
  }
  if (Object.keys(rest).length) await updateSettings(deps, userId, rest);
  return getUserSettings(deps, userId);
}
