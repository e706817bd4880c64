/**
 * The folder question for something sent to be stored (the `store-in` screen), and the storing: the
 * item waits in the session under the id of the message that brought it until a folder is picked (or
 * created), then goes into secure storage. bot/features/secure-store.ts takes what is sent.
 */
import { listFolders } from "../../core/secure/folders";
import { write } from "../audited";
import { createFile, createUploadedFile } from "../../core/secure/files";
import { MAX_UPLOAD_BYTES } from "../../core/secure/storage";
import { AppError, Upstream } from "../../core/errors";
import type { BotContext } from "../context";
import { mayChange } from "../workspace";
import { l } from "../i18n";
import { problemText, translated } from "../problem";
import { createScreen, buttons, idOf, itemOf, open, payload } from "./nav";
import { fileScreen, kb, NEW_FOLDER } from "./secure";

/** Callback data of the offer to delete the user's own message that carried a note's text. */
export const DELETE_NOTE_MESSAGE = "del-note-msg:";

/** What waits in `ctx.session.secureWaiting` for a folder. */
export type PendingItem =
  | { kind: "media"; fileId: string; fileName: string; name: string; size: number | null }
  | { kind: "text"; text: string };

const LIMIT_MB = MAX_UPLOAD_BYTES / 1024 / 1024;
/** Items waiting at most; older ones are dropped (their prompt then answers "nothing is waiting"). */
const MAX_WAITING = 20;

/** The items waiting for a folder, by the id of the message that brought them. */
function waiting(ctx: BotContext): Record<string, PendingItem> {
  return (ctx.session.secureWaiting ??= {}) as Record<string, PendingItem>;
}

/** Keeps `item` waiting under `key` (the id of the message that brought it); the oldest go past MAX_WAITING. */
export function addWaiting(ctx: BotContext, key: number, item: PendingItem): number {
  const items = waiting(ctx);
  items[key] = item;
  const keys = Object.keys(items).sort((a, b) => Number(a) - Number(b));
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_WAITING))) delete items[old];
  return key;
}

/**
 * The folder question for the item waiting under the key it is drawn for (the id of the message that
 * brought it): one button per folder, "New folder" and "Cancel". Registered under the main menu in
 * bot/menus/root.ts, so a folder's press can show the stored file's screen in place.
 */
export const folderPicker = createScreen("store-in", 1, {
  // the item waiting (in the session) and the folders to put it in
  load: async (ctx, [key = 0]) => ({ item: waiting(ctx)[String(key)], folders: await listFolders(ctx.deps, ctx.owner.id) }),
  body: (ctx, { item }) => {
    if (item?.kind === "text") return `${ctx.t("store-ask-note")}\n${ctx.t("store-help-hint")}`;
    return item?.kind === "media" ? ctx.t("store-ask-file", { name: Bun.escapeHTML(item.name) }) : ctx.t("store-ask-it");
  },
});
buttons(folderPicker, (_ctx, range, { folders }) => {
  for (const f of folders) {
    range
      .text({ text: `📁 ${f.name}`, payload: payload(folderPicker, f.id) }, async (c) => {
        // the question is answered: its buttons go (the stored file's screen, when shown, replaces it)
        c.menu.close();
        if (!(await storePending(c, itemOf(c, folderPicker), String(idOf(c))))) {
          await c.reply(c.t("store-nothing-waiting"));
        }
      })
      .row();
  }
});
folderPicker
  .text({ text: l("secure-new-folder-button"), payload: payload(folderPicker) }, async (c) => {
    c.menu.close();
    await c.conversation.enter(NEW_FOLDER, String(idOf(c)));
  })
  .text({ text: l("store-cancel"), payload: payload(folderPicker) }, async (c) => {
    delete waiting(c)[String(idOf(c))];
    c.menu.close();
    await c.editMessageText(c.t("store-cancelled"));
  });

/**
 * Stores the item waiting under `key` (without a key: the latest one) in `folderId` and tells the user
 * (with a Share button). Returns false when nothing was waiting.
 */
export async function storePending(ctx: BotContext, folderId: number, key?: string): Promise<boolean> {
  const items = waiting(ctx);
  const k =
    key ??
    Object.keys(items)
      .sort((a, b) => Number(a) - Number(b))
      .pop();
  const item = k === undefined ? undefined : items[k];
  if (!item) return false;
  delete items[k!];
  try {
    mayChange(ctx);
    if (item.kind === "media") await ctx.replyWithChatAction("upload_document").catch(() => undefined);
    const file =
      item.kind === "text"
        ? await write(ctx, createFile, { folderId, contentType: "text", textContent: item.text })
        : await write(ctx, createUploadedFile, { folderId, name: item.name }, await download(ctx, item.fileId), item.fileName);
    // the result is the file's screen: its share links are made and managed from here
    const name = Bun.escapeHTML(file.name);
    const kind = ctx.t(`secure-kind-${file.contentType}`);
    const stored = file.fileSize
      ? ctx.t("store-stored-sized", { name, kind, size: kb(ctx, file.fileSize) })
      : ctx.t("store-stored", { name, kind });
    await open(ctx, fileScreen, [file.id], stored);
    // the note is safe now, but its plain text still stands in this chat
    if (item.kind === "text" && k !== undefined)
      await ctx.reply(ctx.t("store-delete-offer"), {
        reply_markup: { inline_keyboard: [[{ text: ctx.t("store-delete-button"), callback_data: `${DELETE_NOTE_MESSAGE}${k}` }]] },
      });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(e.status === 413 ? tooBig(ctx) : ctx.t("warning", { text: Bun.escapeHTML(problemText(ctx, e)) }));
  }
  return true;
}

/** The Bot API file as a byte stream (getFile, then BOT_API_ROOT/file/bot<token>/<path>). */
async function download(ctx: BotContext, fileId: string): Promise<AsyncIterable<Uint8Array>> {
  let file: Awaited<ReturnType<typeof ctx.api.getFile>>;
  let res: Response;
  try {
    file = await ctx.api.getFile(fileId);
    if (!file.file_path) throw translated(new Upstream(ctx.t("store-no-download-path")));
    res = await fetch(`${ctx.deps.config.botApiRoot}/file/bot${ctx.deps.config.botToken}/${file.file_path}`);
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw translated(new Upstream(ctx.t("store-download-failed", { reason: (e as Error).message })));
  }
  if (!res.ok || !res.body) throw translated(new Upstream(ctx.t("store-download-failed", { reason: String(res.status) })));
  return res.body as unknown as AsyncIterable<Uint8Array>;
}

/** What is said of a file over the storage's limit. */
export function tooBig(ctx: BotContext): string {
  return ctx.t("store-too-big", { mb: LIMIT_MB });
}
