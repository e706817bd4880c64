/**
 * Storing what the user sends: a document, photo, video, audio or a plain (non-URL) text waits in the
 * session until a folder is picked (or created), then goes into secure storage.
 */
import { Composer, InlineKeyboard } from "grammy";
import type { Message } from "grammy/types";
import { listFolders } from "../../core/secure/folders";
import { createFile, createUploadedFile } from "../../core/secure/files";
import { MAX_UPLOAD_BYTES } from "../../core/secure/storage";
import { AppError } from "../../core/errors";
import type { BotContext } from "../context";

/** What waits in `ctx.session.securePending` for a folder. */
export type PendingItem =
  | { kind: "media"; fileId: string; fileName: string; name: string; size: number | null }
  | { kind: "text"; text: string; name: string };

const LIMIT_MB = MAX_UPLOAD_BYTES / 1024 / 1024;

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

/** The folder picker for a pending item: one button per folder plus "New folder". */
export function folderPicker(ctx: BotContext): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const f of listFolders(ctx.deps, ctx.user!.id)) kb.text(`📁 ${f.name}`, `sec:st:${f.id}`).row();
  return kb.text("➕ New folder", "sec:nf").text("✖️ Cancel", "sec:cancel");
}

/**
 * Stores the session's pending item in `folderId` and tells the user (with a Share button).
 * Returns false when nothing was pending.
 */
export async function storePending(ctx: BotContext, folderId: number): Promise<boolean> {
  const item = ctx.session.securePending as PendingItem | undefined;
  if (!item) return false;
  delete ctx.session.securePending;
  try {
    const file = item.kind === "text"
      ? createFile(ctx.deps, ctx.user!.id, { folderId, name: item.name, contentType: "text", textContent: item.text })
      : await createUploadedFile(ctx.deps, ctx.user!.id, { folderId, name: item.name }, await download(ctx, item.fileId), item.fileName);
    await ctx.reply(`🔐 Stored “${file.name}” (${file.contentType}${file.fileSize ? `, ${(file.fileSize / 1024).toFixed(1)} KB` : ""}).`, {
      reply_markup: new InlineKeyboard().text("🔗 Create share link", `sec:sh:${file.id}`).text("📁 Folder", `sec:f:${folderId}`),
    });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(e.status === 413 ? tooBig() : `⚠️ ${e.message}`);
  }
  return true;
}

/** The Bot API file as a byte stream (getFile, then BOT_API_ROOT/file/bot<token>/<path>). */
async function download(ctx: BotContext, fileId: string): Promise<AsyncIterable<Uint8Array>> {
  const file = await ctx.api.getFile(fileId);
  if (!file.file_path) throw new AppError(502, "upstream_error", "Telegram did not give a download path for this file");
  const res = await fetch(`${ctx.deps.config.botApiRoot}/file/bot${ctx.deps.config.botToken}/${file.file_path}`);
  if (!res.ok || !res.body) throw new AppError(502, "upstream_error", `Downloading the file from Telegram failed (${res.status})`);
  return res.body as unknown as AsyncIterable<Uint8Array>;
}

function tooBig(): string {
  return `⚠️ That file is too big: secure storage takes files up to ${LIMIT_MB} MB.`;
}

/** A text is a link (left to the links feature) when it carries a URL. */
function isUrlText(msg: Message): boolean {
  if (msg.entities?.some((e) => e.type === "url" || e.type === "text_link")) return true;
  return /https?:\/\/|^\s*(www\.)?[\w-]+(\.[\w-]+)+(\/\S*)?\s*$/i.test(msg.text ?? "");
}

export const secureStore = new Composer<BotContext>();
const dm = secureStore.chatType("private");

/** Another feature's conversation waiting for input gets the message, not us. */
const inConversation = (ctx: BotContext) => Object.keys(ctx.conversation.active()).length > 0;

dm.on(["message:document", "message:photo", "message:video", "message:audio"], async (ctx, next) => {
  if (inConversation(ctx)) return next();
  const item = mediaOf(ctx.message)!;
  if (item.kind === "media" && item.size !== null && item.size > MAX_UPLOAD_BYTES) return ctx.reply(tooBig());
  ctx.session.securePending = item;
  await ctx.reply(`Where should I store “${item.name}”? Pick a folder:`, { reply_markup: folderPicker(ctx) });
});

dm.on("message:text", async (ctx, next) => {
  const text = ctx.message.text;
  if (text.startsWith("/") || isUrlText(ctx.message) || inConversation(ctx)) return next();
  const name = text.split("\n")[0]!.trim().slice(0, 60) || "Note";
  ctx.session.securePending = { kind: "text", text, name } satisfies PendingItem;
  await ctx.reply("Store this text as a secure note? Pick a folder.\n(Send /help to see everything else I can do.)", { reply_markup: folderPicker(ctx) });
});

dm.callbackQuery(/^sec:st:(\d+)$/, async (ctx) => {
  await ctx.answerCallbackQuery();
  if (!(await storePending(ctx, Number(ctx.match[1])))) await ctx.reply("Nothing is waiting to be stored. Send me a file, photo, video, audio or text first.");
});

dm.callbackQuery("sec:cancel", async (ctx) => {
  delete ctx.session.securePending;
  await ctx.answerCallbackQuery({ text: "Cancelled" });
  await ctx.editMessageText("Cancelled: nothing was stored.");
});
