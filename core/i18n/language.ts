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

/**
 * The language of a public page (the mini-app's shell before its script runs, the visitor and
 * secure pages) from the browser's Accept-Language (Telegram's in-app browser sends the device's):
 * the tag with the highest weight, read as the bot reads a Telegram language_code.
 */
export function pageLanguage(acceptLanguage: string | null | undefined): Language {
  let best = { tag: "", q: 0 };
  for (const part of (acceptLanguage ?? "").split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const q = Number(
      params
        .find((p) => p.trim().startsWith("q="))
        ?.trim()
        .slice(2) ?? 1,
    );
    if (tag && tag !== "*" && q > best.q) best = { tag, q };
  }
  return languageFor(null, best.tag);
}
