import { Composer } from "grammy";
import { createConversation } from "@grammyjs/conversations";
import type { BotContext } from "../context";
import { NEW_FOLDER, SHARE, newFolderConversation, shareConversation } from "../conversations/secure";
import { secureMenus } from "../menus/secure";
import { secureStore } from "./secure-store";

/**
 * Secure sharing in the bot: send a file, photo, video, audio or text to store it in a folder;
 * create share links in a short conversation; browse folders, files and links (`menu:secure`, /secure).
 */
export const secureFeature = new Composer<BotContext>();
secureFeature.use(createConversation(newFolderConversation, NEW_FOLDER));
secureFeature.use(createConversation(shareConversation, SHARE));
const dm = secureFeature.chatType("private");
// sec:nf:<key> from a folder prompt stores that waiting item in the new folder
dm.callbackQuery(/^sec:nf(?::(\d+))?$/, async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.conversation.enter(NEW_FOLDER, ctx.match[1]);
});
dm.callbackQuery(/^sec:sh:(\d+)$/, async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.conversation.enter(SHARE, Number(ctx.match[1]));
});
// buttons of a finished share conversation
dm.callbackQuery(/^sec:[xv]:/, (ctx) => ctx.answerCallbackQuery({ text: "This choice has expired: tap “New share link” again." }));
secureFeature.use(secureMenus);
secureFeature.use(secureStore);
