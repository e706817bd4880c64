/**
 * The mini-app's words in the user's language, from the same Fluent files as the bot (locales/,
 * the `app-` keys, bundled at build time). The language is the bot's: the one chosen in Settings,
 * else the Telegram app's (GET /api/settings tells it once signed in; before that Telegram's
 * language_code or the browser's guides the sign-in page).
 */
import { FluentBundle, FluentResource } from "@fluent/bundle";
import en from "../../locales/en.ftl";
import ru from "../../locales/ru.ftl";
import { languageFor, type Language } from "../../core/i18n/language";

export type { Language };

const SOURCES: Record<Language, string> = { en, ru };
const bundles = new Map<Language, FluentBundle>();
let current: Language = "en";
const listeners = new Set<() => void>();

function bundle(language: Language): FluentBundle {
  let b = bundles.get(language);
  if (!b) {
    // no invisible isolation marks around variables: they would land in copied codes and URLs
    b = new FluentBundle(language, { useIsolating: false });
    b.addResource(new FluentResource(SOURCES[language]));
    bundles.set(language, b);
  }
  return b;
}

/** `key` (an `app-` key of the language files) in the current language, with its variables. */
export function t(key: string, vars?: Record<string, string | number>): string {
  const b = bundle(current);
  const message = b.getMessage(key);
  if (!message?.value) return key;
  return b.formatPattern(message.value, vars);
}

export const language = (): Language => current;

/**
 * The time zone every time is shown and read in: the one of the account's Settings (the bot's, UTC
 * until one is set), never the browser's, so the app and the bot say the same hour. GET /api/settings
 * tells it once signed in.
 */
let zone = "UTC";
export const timeZone = (): string => zone;
export function setTimeZone(next: string) {
  if (next === zone) return;
  zone = next;
  listeners.forEach((l) => l());
}

const regionNames = new Map<Language, Intl.DisplayNames>();
/** A country by its ISO code in the current language ("DE" → "Germany", "Германия"); any other text as it is. */
export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  let names = regionNames.get(current);
  if (!names) regionNames.set(current, (names = new Intl.DisplayNames([current], { type: "region" })));
  return names.of(code) ?? code;
}

/** Switches the language; the app redraws in it. */
export function setLanguage(next: Language) {
  if (next === current && document.documentElement.lang === next) return;
  current = next;
  document.documentElement.lang = next;
  document.title = t("app-title");
  listeners.forEach((l) => l());
}

export function onLanguageChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

/** The language before the account tells it: Telegram's language_code in initData, else the browser's. */
export function guessLanguage(initData: string | undefined): Language {
  let code: string | undefined;
  try {
    code = initData ? JSON.parse(new URLSearchParams(initData).get("user") ?? "{}").language_code : undefined;
  } catch {
    code = undefined;
  }
  return languageFor(null, code ?? navigator.language);
}

/** A number the user's way (1 234 in Russian, 1,234 in English). */
export const fmtNumber = (n: number, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(current, options).format(n);
