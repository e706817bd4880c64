/**
 * Which of the two languages a person gets (pure: the mini-app bundles it too). The rule is in
 * docs/bot.md, "Languages": the one chosen in Settings, else the Telegram app's language.
 */

/** The languages the bot and the mini-app speak. */
export type Language = "en" | "ru";

/** Telegram language codes that get Russian when the user has not chosen a language. */
const RUSSIAN_READERS = new Set(["ru", "uk", "be", "kk"]);

/**
 * The language for a stored choice and a Telegram `language_code` ("pt-br", "ru"…): the choice,
 * else Russian for ru, uk, be and kk (whose speakers mostly read Russian), else English.
 */
export function languageFor(chosen: Language | null | undefined, telegramCode: string | null | undefined): Language {
  if (chosen) return chosen;
  const base = (telegramCode ?? "").toLowerCase().split(/[-_]/)[0] ?? "";
  return RUSSIAN_READERS.has(base) ? "ru" : "en";
}
