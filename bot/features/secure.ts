import { Composer } from "grammy";
import type { BotContext } from "../context";
import { open } from "../menus/nav";
import { fileScreen, foldersScreen, shareScreen } from "../menus/secure";
import { AppError } from "../../core/errors";
import { secureStore } from "./secure-store";

/**
 * Secure sharing in the bot: send a file, photo, video, audio or text to store it in a folder; /secure
 * and the main menu open the folder screens (bot/menus/secure.ts). Deep links: share_<file id> opens a
 * stored file's screen (its share links listed), sharelink_<link id> one share link's screen (a view
 * notification's button).
 */
export const secureFeature = new Composer<BotContext>();
const dm = secureFeature.chatType("private");
dm.command("secure", (ctx) => open(ctx, foldersScreen, []));
dm.command("start", async (ctx, next) => {
  const m = /^(share|sharelink)_(\d+)$/.exec(ctx.match);
  if (!m) return next();
  const file = m[1] === "share";
  try {
    await open(ctx, file ? fileScreen : shareScreen, [Number(m[2])]);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(ctx.t(file ? "secure-file-gone" : "secure-share-gone"));
    await open(ctx, foldersScreen, []);
  }
});
secureFeature.use(secureStore);
