/**
 * The service's two languages, Russian and English, in the Fluent files of locales/ (en.ftl, ru.ftl).
 * The bot translates through grammY's i18n plugin with the same files (bot/i18n.ts); what core sends
 * on its own (reports, match notifications, digests, exports, charts) translates here, in the
 * language the bot would answer the user in: the one chosen in Settings, else the Telegram app's.
 */
import { join } from "node:path";
import { I18n } from "@grammyjs/i18n";
import { languageFor, type Language } from "./language";

export { languageFor, type Language };

/** Where the language files are, and how the plugin reads them (both the bot's instance and core's use these). */
export const LANGUAGE_FILES = {
  defaultLocale: "en",
  directory: join(import.meta.dir, "..", "..", "locales"),
  useSession: false,
  // no invisible isolation marks around variables: they would land in links, codes and copied text
  fluentBundleOptions: { useIsolating: false },
} as const;

const translations = new I18n(LANGUAGE_FILES);

/** `key` of the language files in `language`, with its variables. */
export function t(language: Language, key: string, vars?: Record<string, string | number>): string {
  return translations.t(language, key, vars);
}

/** A number in `language`'s way (1 234 in Russian, 1,234 in English). */
export const numberIn = (language: Language, n: number) => new Intl.NumberFormat(language).format(n);

/** The device classes clicks are counted by, as the language says them. */
const DEVICES = new Set(["mobile", "desktop", "tablet", "bot"]);

/** A device class ("mobile", …) in `language`; any other name as it is. */
export const deviceName = (language: Language, name: string) => (DEVICES.has(name) ? t(language, `device-${name}`) : name);
