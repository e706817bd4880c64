/**
 * Secure-sharing menus (inline keyboards, callback data `sec:*`): folders → files → links, with
 * pause toggle, revoke/restore and delete. `menu:secure` from the root menu opens the folder list.
 */
import { Composer, InlineKeyboard } from "grammy";
import { deleteFolder, getFolder, listFolders, togglePause } from "../../core/secure/folders";
import { deleteFile, listFiles, ownedFile, toFileJson } from "../../core/secure/files";
import { deleteLink, getLink, listLinks, setRevoked, type LinkJson } from "../../core/secure/links";
import { AppError } from "../../core/errors";
import type { BotContext } from "../context";

type View = { text: string; kb: InlineKeyboard };

const STATE_ICON: Record<LinkJson["state"], string> = { active: "🟢", revoked: "⛔", paused: "⏸", expired: "⌛", exhausted: "🚫" };

function foldersView(ctx: BotContext): View {
  const folders = listFolders(ctx.deps, ctx.user!.id);
  const kb = new InlineKeyboard();
  for (const f of folders) kb.text(`${f.isPaused ? "⏸" : "📁"} ${f.name} (${f.fileCount})`, `sec:f:${f.id}`).row();
  kb.text("➕ New folder", "sec:nf");
  const text = folders.length
    ? "🔐 Secure sharing: your folders. Send me a file, photo, video, audio or text to store it."
    : "🔐 Secure sharing: no folders yet. Send me a file, photo, video, audio or text to store it, or create a folder.";
  return { text, kb };
}

function folderView(ctx: BotContext, id: number): View {
  const folder = getFolder(ctx.deps, ctx.user!.id, id);
  const kb = new InlineKeyboard();
  for (const f of listFiles(ctx.deps, ctx.user!.id, id)) kb.text(`📄 ${f.name} · ${f.contentType}`, `sec:fi:${f.id}`).row();
  kb.text(folder.isPaused ? "▶️ Resume sharing" : "⏸ Pause sharing", `sec:fp:${id}`).text("🗑 Delete folder", `sec:fd:${id}`).row();
  kb.text("⬅️ Folders", "menu:secure");
  const text = `📁 ${folder.name}${folder.isPaused ? " (paused: its links answer 403)" : ""}\n${folder.fileCount} file(s)${folder.description ? `\n${folder.description}` : ""}`;
  return { text, kb };
}

function fileView(ctx: BotContext, id: number): View {
  const file = toFileJson(ownedFile(ctx.deps, ctx.user!.id, id));
  const kb = new InlineKeyboard();
  for (const l of listLinks(ctx.deps, ctx.user!.id, id))
    kb.text(`${STATE_ICON[l.state]} ${l.code} · ${l.viewCount}/${l.maxViews ?? "∞"}`, `sec:l:${l.id}`).row();
  kb.text("🔗 New share link", `sec:sh:${id}`).text("🗑 Delete file", `sec:fid:${id}`).row().text("⬅️ Folder", `sec:f:${file.folderId}`);
  const size = file.fileSize ? ` · ${(file.fileSize / 1024).toFixed(1)} KB` : "";
  return { text: `📄 ${file.name}\n${file.contentType}${file.mimeType ? ` (${file.mimeType})` : ""}${size}`, kb };
}

function linkView(ctx: BotContext, id: number): View {
  const l = getLink(ctx.deps, ctx.user!.id, id);
  const kb = new InlineKeyboard()
    .text(l.isRevoked ? "♻️ Restore" : "⛔ Revoke", `sec:${l.isRevoked ? "lu" : "lr"}:${id}`)
    .text("🗑 Delete link", `sec:ld:${id}`)
    .row()
    .text("⬅️ File", `sec:fi:${l.fileId}`);
  const text = `${STATE_ICON[l.state]} ${l.url}\nState: ${l.state}\nViews: ${l.viewCount} of ${l.maxViews ?? "unlimited"}\nExpires: ${l.expiresAt.replace("T", " ").slice(0, 16)} UTC`;
  return { text, kb };
}

async function show(ctx: BotContext, view: View) {
  const opts = { reply_markup: view.kb, link_preview_options: { is_disabled: true } };
  if (ctx.callbackQuery?.message) await ctx.editMessageText(view.text, opts).catch(() => ctx.reply(view.text, opts));
  else await ctx.reply(view.text, opts);
}

/** Runs a menu action; a vanished or foreign item answers a toast and the folder list. */
function action(run: (ctx: BotContext, id: number) => View | Promise<View>, toast?: string) {
  return async (ctx: BotContext & { match: RegExpMatchArray | string }) => {
    try {
      const view = await run(ctx, Number((ctx.match as RegExpMatchArray)[1]));
      await ctx.answerCallbackQuery(toast ? { text: toast } : undefined);
      await show(ctx, view);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      await ctx.answerCallbackQuery({ text: e.message });
      await show(ctx, foldersView(ctx));
    }
  };
}

export const secureMenus = new Composer<BotContext>();
const dm = secureMenus.chatType("private");

dm.command("secure", (ctx) => show(ctx, foldersView(ctx)));
// the button of a view notification: t.me/<bot>?start=share_<link id> opens that link's card
dm.command("start", async (ctx, next) => {
  const m = /^share_(\d+)$/.exec(ctx.match);
  if (!m) return next();
  try {
    await show(ctx, linkView(ctx, Number(m[1])));
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply("That share link no longer exists.");
    await show(ctx, foldersView(ctx));
  }
});
dm.callbackQuery("menu:secure", async (ctx) => {
  await ctx.answerCallbackQuery();
  await show(ctx, foldersView(ctx));
});
dm.callbackQuery(/^sec:f:(\d+)$/, action(folderView));
dm.callbackQuery(/^sec:fi:(\d+)$/, action(fileView));
dm.callbackQuery(/^sec:l:(\d+)$/, action(linkView));
dm.callbackQuery(/^sec:fp:(\d+)$/, action((ctx, id) => (togglePause(ctx.deps, ctx.user!.id, id), folderView(ctx, id))));
dm.callbackQuery(/^sec:fd:(\d+)$/, action((ctx, id) => {
  const f = getFolder(ctx.deps, ctx.user!.id, id);
  const kb = new InlineKeyboard().text("🗑 Yes, delete everything", `sec:fdy:${id}`).text("Keep", `sec:f:${id}`);
  return { text: `Delete folder “${f.name}” with its ${f.fileCount} file(s) and all their links?`, kb };
}));
dm.callbackQuery(/^sec:fdy:(\d+)$/, action((ctx, id) => (deleteFolder(ctx.deps, ctx.user!.id, id), foldersView(ctx)), "Folder deleted"));
dm.callbackQuery(/^sec:fid:(\d+)$/, action((ctx, id) => {
  const { folderId } = ownedFile(ctx.deps, ctx.user!.id, id);
  deleteFile(ctx.deps, ctx.user!.id, id);
  return folderView(ctx, folderId);
}, "File deleted"));
dm.callbackQuery(/^sec:lr:(\d+)$/, action((ctx, id) => (setRevoked(ctx.deps, ctx.user!.id, id, true), linkView(ctx, id)), "Link revoked"));
dm.callbackQuery(/^sec:lu:(\d+)$/, action((ctx, id) => (setRevoked(ctx.deps, ctx.user!.id, id, false), linkView(ctx, id)), "Link restored"));
dm.callbackQuery(/^sec:ld:(\d+)$/, action((ctx, id) => {
  const { fileId } = getLink(ctx.deps, ctx.user!.id, id);
  deleteLink(ctx.deps, ctx.user!.id, id);
  return fileView(ctx, fileId);
}, "Link deleted"));
