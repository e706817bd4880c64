/**
 * Storing what the user sends: a document, photo, video, audio or a plain (non-URL) text waits in the
 * session until a folder is picked (or created), then goes into secure storage. Each item waits under
 * the id of the message that brought it and its folder prompt names that id, so several files sent at
 * once (an album) are each stored from their own prompt.
 */
import { Composer } from "grammy";
import type { Message } from "grammy/types";
import { MAX_UPLOAD_BYTES } from "../../core/secure/storage";
import { accountUsage } from "../../core/accounts/usage";
import { open } from "../menus/nav";
import { addWaiting, DELETE_NOTE_MESSAGE, folderPicker, tooBig, type PendingItem } from "../menus/store-in";
import type { BotContext } from "../context";

function mediaOf(msg: Message): PendingItem | null {
  const caption = msg.caption?.trim();
  const pick = (f: { file_id: string; file_size?: number }, fileName: string): PendingItem => ({
    kind: "media",
    fileId: f.file_id,
    fileName,
    name: (caption || fileName).slice(0, 200),
    size: f.file_size ?? null,
  });
  if (msg.document) return pick(msg.document, msg.document.file_name ?? "document");
  if (msg.video) return pick(msg.video, msg.video.file_name ?? `video_${msg.message_id}.mp4`);
  if (msg.audio) return pick(msg.audio, msg.audio.file_name ?? `audio_${msg.message_id}.mp3`);
  if (msg.photo?.length) return pick(msg.photo[msg.photo.length - 1]!, `photo_${msg.message_id}.jpg`);
  return null;
}

/** A text is a link (left to the links feature) when it carries a URL. */
function isUrlText(msg: Message): boolean {
  if (msg.entities?.some((e) => e.type === "url" || e.type === "text_link")) return true;
  return /https?:\/\/|^\s*(www\.)?[\w-]+(\.[\w-]+)+(\/\S*)?\s*$/i.test(msg.text ?? "");
}

export const secureStore = new Composer<BotContext>();

secureStore.callbackQuery(new RegExp(`^${DELETE_NOTE_MESSAGE}(\\d+)$`), async (ctx) => {
  const messageId = Number(ctx.match[1]);
  const deleted = await ctx.api.deleteMessage(ctx.chat!.id, messageId).then(
    () => true,
    () => false,
  );
  await ctx.answerCallbackQuery({ text: ctx.t(deleted ? "store-deleted-toast" : "store-not-deleted-toast") });
  await ctx.editMessageText(ctx.t(deleted ? "store-deleted" : "store-not-deleted")).catch(() => undefined);
});
const dm = secureStore.chatType("private");

/** Another feature's conversation waiting for input gets the message, not us. */
const inConversation = (ctx: BotContext) => Object.keys(ctx.conversation.active()).length > 0;

/** Why the plan cannot take `bytes` more in secure storage, said before the folder question; null when it can. */
async function planFull(ctx: BotContext, bytes: number): Promise<string | null> {
  const { subscription, limits, usage } = await accountUsage(ctx.deps, ctx.owner.id);
  if (usage.secureFiles >= limits.secureFiles)
    return ctx.t("store-plan-files", { plan: ctx.t(`plan-${subscription.plan}`), max: limits.secureFiles, count: usage.secureFiles });
  if (usage.storageMB + bytes / 1024 / 1024 > limits.storageMB)
    return ctx.t("store-plan-storage", { plan: ctx.t(`plan-${subscription.plan}`), max: limits.storageMB, used: usage.storageMB });
  return null;
}

dm.on(["message:document", "message:photo", "message:video", "message:audio"], async (ctx, next) => {
  if (inConversation(ctx)) return next();
  const item = mediaOf(ctx.message)!;
  if (item.kind === "media" && item.size !== null && item.size > MAX_UPLOAD_BYTES) return ctx.reply(tooBig(ctx));
  const full = await planFull(ctx, item.kind === "media" ? (item.size ?? 0) : 0);
  if (full) return ctx.reply(full);
  const key = addWaiting(ctx, ctx.message.message_id, item);
  await open(ctx, folderPicker, [key]);
});

dm.on("message:text", async (ctx, next) => {
  const text = ctx.message.text;
  if (text.startsWith("/") || isUrlText(ctx.message) || inConversation(ctx)) return next();
  const full = await planFull(ctx, Buffer.byteLength(text));
  if (full) return ctx.reply(`${full}\n${ctx.t("store-help-hint")}`);
  const key = addWaiting(ctx, ctx.message.message_id, { kind: "text", text });
  await open(ctx, folderPicker, [key]);
});
