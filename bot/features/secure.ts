import { Composer } from "grammy";
import type { BotContext } from "../context";
import { NEW_FOLDER } from "../menus/secure";
import { act, open } from "../menus/nav";
import { fileScreen, foldersScreen } from "../menus/secure";
import { secureStore } from "./secure-store";

/**
 * Secure sharing in the bot: send a file, photo, video, audio or text to store it in a folder; /secure
 * and the main menu open the folder screens (bot/menus/secure.ts); t.me/<bot>?start=share_<id> opens a
 * file's screen with its share links.
 */
export const secureFeature = new Composer<BotContext>();
const dm = secureFeature.chatType("private");
dm.command("secure", (ctx) => open(ctx, foldersScreen, []));
dm.command("start", async (ctx, next) => {
  const m = /^share_(\d+)$/.exec(ctx.match);
  if (!m) return next();
  await act(ctx, () => open(ctx, fileScreen, [Number(m[1])]), "folders");
});
// sec:nf:<key> from a folder prompt stores that waiting item in the new folder
dm.callbackQuery(/^sec:nf(?::(\d+))?$/, async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.conversation.enter(NEW_FOLDER, ctx.match[1]);
});
// buttons of a finished share conversation
dm.callbackQuery(/^sec:[xv]:/, (ctx) => ctx.answerCallbackQuery({ text: "This choice has expired: tap “New share link” again." }));
secureFeature.use(secureStore);
