import { Composer } from "grammy";
import type { BotContext } from "../context";
import { open } from "../menus/nav";
import { foldersScreen } from "../menus/secure";
import { secureStore } from "./secure-store";

/**
 * Secure sharing in the bot: send a file, photo, video, audio or text to store it in a folder; /secure
 * and the main menu open the folder screens (bot/menus/secure.ts). Start links and notification
 * buttons (a stored file's or a share link's screen) are routed by bot/features/deep-links.ts.
 */
export const secureFeature = new Composer<BotContext>();
const dm = secureFeature.chatType("private");
dm.command("secure", (ctx) => open(ctx, foldersScreen, []));

secureFeature.use(secureStore);
