/**
 * The bot's two languages, Russian and English, with grammY's i18n plugin over the Fluent files in
 * locales/ (en.ftl, ru.ftl). The language is the one chosen in Settings (users.language); until one is
 * chosen it follows the Telegram app (core/i18n/translate.ts `languageFor`). Plurals are Fluent's;
 * numbers and dates are formatted with Intl in the user's locale. docs/bot.md says how to add a string.
 */
import { I18n, type I18nFlavor } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { Language, UserRow } from "../core/accounts/users";
import { LANGUAGE_FILES, languageFor, numberIn } from "../core/i18n/translate";
import { shownAt, type Reader } from "../core/i18n/wall";

type Localised = Context & { user?: Pick<UserRow, "language"> };

export const i18n = new I18n<Localised & I18nFlavor>({
  ...LANGUAGE_FILES,
  localeNegotiator: (ctx) => languageFor(ctx.user?.language, ctx.from?.language_code),
});

/** The locale of `ctx` (what ctx.t translates into). */
export const localeOf = (ctx: Localised): Language => languageFor(ctx.user?.language, ctx.from?.language_code);

/** A label translated when drawn: menus and keyboards take it where they take a string. */
export const l = (key: string, vars?: Record<string, string | number>) => (ctx: I18nFlavor) => ctx.t(key, vars);

/** A number in the user's locale (1 234 in Russian, 1,234 in English). */
export const num = (ctx: Localised, n: number) => numberIn(localeOf(ctx), n);

/**
 * A date (ISO string or Date) in the user's locale and time zone (Settings → Reports and time zone;
 * UTC until one is set), e.g. "25 нояб. 2026 г." / "Nov 25, 2026"; `time` adds hours and minutes.
 */
export function date(ctx: Localised & { timeZone?: string }, at: string | Date | null | undefined, time = false): string {
  if (!at) return "";
  return shownAt(readerOf(ctx), at, time);
}

/** Who reads what the bot says: the user's language and time zone (Settings; UTC until one is set). */
export const readerOf = (ctx: Localised & { timeZone?: string }): Reader => ({ language: localeOf(ctx), zone: ctx.timeZone ?? "UTC" });

/** A text to be said in the reader's language, for code that has no context to translate with. */
export type Said = { key: string; vars?: Record<string, string | number> };

/** `said` in the language of `ctx`. */
export const tell = (ctx: I18nFlavor, said: Said) => ctx.t(said.key, said.vars);
