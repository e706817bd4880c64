/**
 * Secure-sharing conversations: name a new folder (then store what was waiting for one), and create
 * a share link (expiry, then max views) answering with its URL. I/O only through conversation.external.
 */
import { InlineKeyboard, type Context } from "grammy";
import type { Conversation } from "@grammyjs/conversations";
import { createFolder } from "../../core/secure/folders";
import { createLink } from "../../core/secure/links";
import { AppError } from "../../core/errors";
import type { BotContext } from "../context";
import { storePending } from "../features/secure-store";

type Convo = Conversation<BotContext, Context>;

export const NEW_FOLDER = "secure-new-folder";
export const SHARE = "secure-share";

const EXPIRY: [string, number][] = [["1 hour", 1], ["24 hours", 24], ["7 days", 168], ["30 days", 720]];
const VIEWS: [string, number][] = [["1", 1], ["3", 3], ["10", 10], ["Unlimited", 0]];

/** Asks for a folder name, creates it and stores the item waiting under `key` (or the latest, if any) there. */
export async function newFolderConversation(conversation: Convo, ctx: Context, key?: string) {
  await ctx.reply("📁 Send a name for the new folder (or /cancel).");
  const answer = await conversation.wait();
  const name = answer.message?.text?.trim();
  if (name === "/cancel") return answer.reply("Cancelled.");
  // anything else (a button, a command, a file) leaves the conversation and is handled as usual
  if (!name || name.startsWith("/")) return conversation.halt({ next: true });
  if (name.length > 100) return answer.reply("That name is too long (at most 100 characters). Tap ➕ New folder to try again.");
  const result = await conversation.external(async (outer) => {
    const folder = createFolder(outer.deps, outer.user!.id, { name });
    const stored = await storePending(outer, folder.id, key);
    return { folderId: folder.id, stored };
  });
  if (!result.stored) await answer.reply(`📁 Folder “${name}” created.`, { reply_markup: new InlineKeyboard().text("Open folder", `sec:f:${result.folderId}`) });
}

/** Waits for a press of one of our buttons; any other update leaves the conversation and is handled as usual. */
async function choice(conversation: Convo, re: RegExp): Promise<Context & { match: RegExpMatchArray }> {
  const c = await conversation.wait();
  const match = c.callbackQuery?.data?.match(re);
  if (!match) return conversation.halt({ next: true });
  await c.answerCallbackQuery();
  return Object.assign(c, { match });
}

/** Asks for expiry and max views, creates the link and answers with its URL. */
export async function shareConversation(conversation: Convo, ctx: Context, fileId: number) {
  const expiry = new InlineKeyboard();
  for (const [label, h] of EXPIRY) expiry.text(label, `sec:x:${h}`);
  await ctx.reply("🔗 How long should the link work?", { reply_markup: expiry.row().text("Cancel", "sec:x:0") });
  const e = await choice(conversation, /^sec:x:(\d+)$/);
  const hours = Number(e.match[1]);
  if (!hours) return e.reply("Cancelled.");
  const views = new InlineKeyboard();
  for (const [label, n] of VIEWS) views.text(label, `sec:v:${n}`);
  await e.reply("👁 How many times may it be opened?", { reply_markup: views.row().text("Cancel", "sec:v:c") });
  const v = await choice(conversation, /^sec:v:(\d+|c)$/);
  if (v.match[1] === "c") return v.reply("Cancelled.");
  const maxViews = Number(v.match[1]) || null;
  const result = await conversation.external((outer) => {
    try {
      return { url: createLink(outer.deps, outer.user!.id, { fileId, expiresInHours: hours, maxViews }).url };
    } catch (err) {
      if (err instanceof AppError) return { error: err.message };
      throw err;
    }
  });
  if ("error" in result) return v.reply(`⚠️ ${result.error}`);
  const label = EXPIRY.find(([, h]) => h === hours)![0];
  await v.reply(`✅ Share link (valid ${label}, ${maxViews ? `${maxViews} view${maxViews === 1 ? "" : "s"}` : "unlimited views"}):\n${result.url}`, {
    link_preview_options: { is_disabled: true },
  });
}
