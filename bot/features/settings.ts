import { Composer } from "grammy";
import type { BotContext } from "../context";
import { open } from "../menus/nav";
import { settingsScreen } from "../menus/settings";

/** /settings opens the settings screen (bot/menus/settings.ts). */
export const settingsFeature = new Composer<BotContext>();
const pm = settingsFeature.chatType("private");
pm.command("settings", (ctx) => open(ctx, settingsScreen, []));
