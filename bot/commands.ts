import type { Language } from "../core/accounts/users";
import { i18n } from "./i18n";

/** The bot's commands, in menu order; each is described by `command-<name>` in the language files. */
const NAMES = [
  "start",
  "new",
  "links",
  "ads",
  "adpost",
  "summary",
  "secure",
  "track",
  "trackers",
  "channels",
  "trackguide",
  "settings",
  "help",
  "cancel",
];

/** The command list in `language`, as setMyCommands takes it and /help shows it. */
export const commandsIn = (language: Language) =>
  NAMES.map((command) => ({ command, description: i18n.t(language, `command-${command}`) }));

/** The English list (Telegram's default for every language). */
export const COMMANDS = commandsIn("en");

/** Telegram language codes that get the Russian list (the languages whose speakers get Russian). */
export const RUSSIAN_COMMAND_LANGUAGES = ["ru", "uk", "be", "kk"] as const;
