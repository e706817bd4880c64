import { Composer } from "grammy";
import type { BotContext } from "../context";
import { open } from "../menus/nav";
import { foldersScreen, shareScreen } from "../menus/secure";
import { AppError } from "../../core/errors";
import { secureStore } from "./secure-store";

/**
 * Secure sharing in the bot: send a file, photo, video, audio or text to store it in a folder; /secure
 * and the main menu open the folder screens (bot/menus/secure.ts); t.me/<bot>?start=share_<link id>
 * opens a share link's screen.
 */
export const secureFeature = new Composer<BotContext>();
const dm = secureFeature.chatType("private");
dm.command("secure", (ctx) => open(ctx, foldersScreen, []));
// a view notification's button: t.me/<bot>?start=share_<link id> opens that share link's screen
dm.command("start", async (ctx, next) => {
  const m = /^share_(\d+)$/.exec(ctx.match);
  if (!m) return next();
  try {
    await open(ctx, shareScreen, [Number(m[1])]);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply("That share link no longer exists.");
    await open(ctx, foldersScreen, []);
  }
});
secureFeature.use(secureStore);
