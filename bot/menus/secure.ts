/**
 * Secure-sharing screens: folders → folder → file → share link, each with a way back; pause toggle,
 * revoke/restore, and every delete asks first. Each file's row in its folder shares or deletes it in
 * one tap, and every share link is also in one flat list with revoke/restore and delete on its row,
 * so each of these is at most 3 taps from /start. A stored file's message is its file screen, so its
 * share links are managed from there.
 */
import { deleteFolder, getFolder, listFolders, togglePause } from "../../core/secure/folders";
import { deleteFile, listFiles, ownedFile, toFileJson } from "../../core/secure/files";
import { deleteLink, getLink, listLinks, setRevoked, type LinkJson } from "../../core/secure/links";
import type { BotContext } from "../context";
import { SHARE_OPTIONS } from "./share-options";
import { act, back, backHome, createScreen, dynamic, go, idOf, itemOf, open, payload, screen, type Screen } from "./nav";
import { createRequest } from "../../core/secure/requests";
import { listShareLinks } from "../../core/secure/share-list";

/** Conversations the screens enter (registered in bot/conversations). */
export const NEW_FOLDER = "secure-new-folder";
export const SHARE = "secure-share";
export const SHARE_OPTION = "secure-share-option";

const esc = (s: string) => Bun.escapeHTML(s);
const STATE_ICON: Record<LinkJson["state"], string> = { active: "🟢", revoked: "⛔", paused: "⏸", expired: "⌛", exhausted: "🚫" };
const uid = (ctx: BotContext) => ctx.user!.id;

export const foldersScreen = createScreen("folders", 0, async (ctx) =>
  (await listFolders(ctx.deps, uid(ctx))).length
    ? "🔐 <b>Secure sharing</b>: your folders. Send me a file, photo, video, audio or text to store it."
    : "🔐 <b>Secure sharing</b>: no folders yet. Send me a file, photo, video, audio or text to store it, or create a folder.");

export const folderScreen = createScreen("folder", 1, async (ctx) => {
  const f = await getFolder(ctx.deps, uid(ctx), idOf(ctx));
  return `📁 <b>${esc(f.name)}</b>${f.isPaused ? " (paused: its share links do not open)" : ""}\n${f.fileCount} file(s)${f.description ? `\n${esc(f.description)}` : ""}`;
});

export const fileScreen = createScreen("file", 1, async (ctx) => {
  const file = toFileJson(await ownedFile(ctx.deps, uid(ctx), idOf(ctx)));
  const size = file.fileSize ? ` · ${(file.fileSize / 1024).toFixed(1)} KB` : "";
  const links = await listLinks(ctx.deps, uid(ctx), file.id);
  return `📄 <b>${esc(file.name)}</b>\n${file.contentType}${file.mimeType ? ` (${esc(file.mimeType)})` : ""}${size}\n${links.length ? `${links.length} share link(s): tap one to manage it.` : "No share links yet."}`;
});

export const shareScreen = createScreen("share", 1, async (ctx) => {
  const l = await getLink(ctx.deps, uid(ctx), idOf(ctx));
  const lines = SHARE_OPTIONS.map((o) => o.line(l)).filter((x): x is string => Boolean(x)).map((key) => ctx.t(key));
  return `${STATE_ICON[l.state]} ${esc(l.url)}\nState: ${l.state}\nViews: ${l.viewCount} of ${l.maxViews ?? "unlimited"}\nExpires: ${l.expiresAt.replace("T", " ").slice(0, 16)} UTC${lines.length ? `\n${lines.join("\n")}` : ""}`;
});

type Question = (ctx: BotContext) => string | Promise<string>;
type Outcome = (ctx: BotContext) => { screen: Screen; view: number[]; notice: string } | Promise<{ screen: Screen; view: number[]; notice: string }>;

/**
 * A confirmation screen for a delete: the question, "Yes" doing it and opening the screen `run`
 * names, and "Keep it" back to `backTo` (drawn for the object's id unless `backView` says otherwise).
 */
export function confirmScreen(id: string, question: Question, run: Outcome, backTo: string, backView: (ctx: BotContext) => number[] | Promise<number[]> = (c) => [idOf(c)]) {
  const s = createScreen(id, 1, question);
  s.menu.text({ text: "🗑 Yes, delete", payload: payload(s) }, (ctx) => act(ctx, async () => {
    const next = await run(ctx);
    await open(ctx, next.screen, next.view, next.notice);
  }, "folders"));
  back(s, "Keep it", backTo, backView);
  return s;
}

const folderDelete = confirmScreen("folder-delete", async (ctx) => {
  const f = await getFolder(ctx.deps, uid(ctx), idOf(ctx));
  return `Delete folder “${esc(f.name)}” with its ${f.fileCount} file(s) and all their links?`;
}, async (ctx) => (await deleteFolder(ctx.deps, uid(ctx), idOf(ctx)), { screen: foldersScreen, view: [], notice: "🗑 Folder deleted." }), "folder");

const fileDeleteQuestion: Question = async (ctx) => {
  const f = await ownedFile(ctx.deps, uid(ctx), idOf(ctx));
  return `Delete “${esc(f.name)}” and its ${(await listLinks(ctx.deps, uid(ctx), f.id)).length} share link(s)?`;
};
const fileDeleteRun: Outcome = async (ctx) => {
  const { folderId } = await ownedFile(ctx.deps, uid(ctx), idOf(ctx));
  await deleteFile(ctx.deps, uid(ctx), idOf(ctx));
  return { screen: folderScreen, view: [folderId], notice: "🗑 File deleted." };
};
/** from the file's screen, and from its row in the folder (which "Keep it" goes back to) */
const fileDelete = confirmScreen("file-delete", fileDeleteQuestion, fileDeleteRun, "file");
const folderFileDelete = confirmScreen("folder-file-delete", fileDeleteQuestion, fileDeleteRun, "folder", async (c) => [(await ownedFile(c.deps, uid(c), idOf(c))).folderId]);

const shareDeleteQuestion: Question = async (ctx) => `Delete the share link ${esc((await getLink(ctx.deps, uid(ctx), idOf(ctx))).url)}? It stops working at once.`;
const shareDelete = confirmScreen("share-delete", shareDeleteQuestion, async (ctx) => {
  const { fileId } = await getLink(ctx.deps, uid(ctx), idOf(ctx));
  await deleteLink(ctx.deps, uid(ctx), idOf(ctx));
  return { screen: fileScreen, view: [fileId], notice: "🗑 Share link deleted." };
}, "share");

/** Every share link of the user in one list (newest first), each with revoke/restore and delete on its row. */
const sharesScreen = createScreen("shares", 0, async (ctx) => {
  const all = await listShareLinks(ctx.deps, uid(ctx));
  return all.length
    ? `🔗 <b>Share links</b> (${all.length === 40 ? "the newest 40" : all.length}): tap one to manage it, ⛔/♻️ to revoke or restore, 🗑 to delete.`
    : "🔗 <b>Share links</b>: none yet. Open a stored file and tap “🔗 New share link”.";
});
const sharesDelete = confirmScreen("shares-delete", shareDeleteQuestion, async (ctx) => {
  await deleteLink(ctx.deps, uid(ctx), idOf(ctx));
  return { screen: sharesScreen, view: [], notice: "🗑 Share link deleted." };
}, "shares", () => []);

dynamic(foldersScreen.menu, async (ctx, range) => {
  for (const f of await listFolders(ctx.deps, uid(ctx))) {
    go(range, foldersScreen, `${f.isPaused ? "⏸" : "📁"} ${f.name} (${f.fileCount})`, "folder", (c) => [itemOf(c, foldersScreen)], f.id);
    range.row();
  }
  range.text({ text: "➕ New folder", payload: payload(foldersScreen) }, (c) => act(c, () => c.conversation.enter(NEW_FOLDER)));
  range.row();
  go(range, foldersScreen, "🔗 Share links", "shares", () => []);
  go(range, foldersScreen, "📥 Request links", "requests", () => []);
});
backHome(foldersScreen);

dynamic(folderScreen.menu, async (ctx, range) => {
  const folder = await getFolder(ctx.deps, uid(ctx), idOf(ctx));
  for (const f of await listFiles(ctx.deps, uid(ctx), folder.id)) {
    go(range, folderScreen, `📄 ${f.name} · ${f.contentType}`, "file", (c) => [itemOf(c, folderScreen)], f.id);
    range.text({ text: "🔗", payload: payload(folderScreen, f.id) }, (c) => act(c, () => c.conversation.enter(SHARE, itemOf(c, folderScreen)), "folders"));
    go(range, folderScreen, "🗑", "folder-file-delete", (c) => [itemOf(c, folderScreen)], f.id);
    range.row();
  }
  range.text({ text: folder.isPaused ? "▶️ Resume sharing" : "⏸ Pause sharing", payload: payload(folderScreen) }, (c) => act(c, async () => {
    const f = await togglePause(c.deps, uid(c), idOf(c));
    await open(c, folderScreen, [f.id], f.isPaused ? "⏸ Paused: its share links do not open until you resume." : "▶️ Sharing resumed.");
  }, "folders"));
  go(range, folderScreen, "🗑 Delete folder", "folder-delete", (c) => [idOf(c)]);
  range.row();
  range.text({ text: "📥 New request link", payload: payload(folderScreen) }, (c) => act(c, async () => {
    // a link made in one tap is bounded by default: a week and 20 items, so a link that leaks
    // cannot fill the plan with strangers' files
    const request = await createRequest(c.deps, uid(c), { folderId: idOf(c), title: (await getFolder(c.deps, uid(c), idOf(c))).name, ...BOT_REQUEST_DEFAULTS });
    await open(c, screen("request"), [request.id], `📥 Request link created: anyone with it can send files or texts into this folder, up to ${BOT_REQUEST_DEFAULTS.maxFiles} items within ${BOT_REQUEST_DEFAULTS.expiresInHours / 24} days.`);
  }, "folders"));
});
back(folderScreen, "⬅️ Folders", "folders");

/** What a request link made in the bot takes: at most this many items, for this long. */
const BOT_REQUEST_DEFAULTS = { expiresInHours: 7 * 24, maxFiles: 20 } as const;

dynamic(fileScreen.menu, async (ctx, range) => {
  for (const l of await listLinks(ctx.deps, uid(ctx), idOf(ctx))) {
    go(range, fileScreen, `${STATE_ICON[l.state]} ${l.code} · ${l.viewCount}/${l.maxViews ?? "∞"}`, "share", (c) => [itemOf(c, fileScreen)], l.id);
    range.row();
  }
  range.text({ text: "🔗 New share link", payload: payload(fileScreen) }, (c) => act(c, () => c.conversation.enter(SHARE, idOf(c)), "folders"));
  go(range, fileScreen, "🗑 Delete file", "file-delete", (c) => [idOf(c)]);
  range.row();
});
back(fileScreen, "⬅️ Folder", "folder", async (c) => [(await ownedFile(c.deps, uid(c), idOf(c))).folderId]);

dynamic(shareScreen.menu, async (ctx, range) => {
  const l = await getLink(ctx.deps, uid(ctx), idOf(ctx));
  range.text({ text: l.isRevoked ? "♻️ Restore" : "⛔ Revoke", payload: payload(shareScreen) }, (c) => act(c, async () => {
    const now = await setRevoked(c.deps, uid(c), idOf(c), !(await getLink(c.deps, uid(c), idOf(c))).isRevoked);
    await open(c, shareScreen, [now.id], now.isRevoked ? "⛔ Revoked: the link no longer opens." : "♻️ Restored.");
  }, "folders"));
  go(range, shareScreen, "🗑 Delete link", "share-delete", (c) => [idOf(c)]);
  range.row();
  SHARE_OPTIONS.forEach((o, i) => {
    range.text({ text: ctx.t(o.label(l)), payload: payload(shareScreen) }, (c) => act(c, async () => {
      const link = await getLink(c.deps, uid(c), idOf(c));
      if (o.tap) {
        await o.tap(c.deps, uid(c), link);
        await open(c, shareScreen, [link.id]);
      } else await c.conversation.enter(SHARE_OPTION, link.id, i);
    }, "folders"));
  });
  range.row();
});
back(shareScreen, "⬅️ File", "file", async (c) => [(await getLink(c.deps, uid(c), idOf(c))).fileId]);

dynamic(sharesScreen.menu, async (ctx, range) => {
  for (const l of await listShareLinks(ctx.deps, uid(ctx))) {
    go(range, sharesScreen, `${STATE_ICON[l.state]} ${l.fileName} · ${l.code} · ${l.viewCount}/${l.maxViews ?? "∞"}`, "share", (c) => [itemOf(c, sharesScreen)], l.id);
    range.text({ text: l.isRevoked ? "♻️" : "⛔", payload: payload(sharesScreen, l.id) }, (c) => act(c, async () => {
      const id = itemOf(c, sharesScreen);
      const now = await setRevoked(c.deps, uid(c), id, !(await getLink(c.deps, uid(c), id)).isRevoked);
      await open(c, sharesScreen, [], now.isRevoked ? `⛔ Revoked ${esc(now.url)}: it no longer opens.` : `♻️ Restored ${esc(now.url)}.`);
    }, "folders"));
    go(range, sharesScreen, "🗑", "shares-delete", (c) => [itemOf(c, sharesScreen)], l.id);
    range.row();
  }
});
back(sharesScreen, "⬅️ Folders", "folders");

/** The secure screens under `parent`, in their tree. */
export function registerSecure(parent: Screen) {
  parent.menu.register(foldersScreen.menu);
  foldersScreen.menu.register(folderScreen.menu);
  foldersScreen.menu.register(sharesScreen.menu);
  sharesScreen.menu.register(sharesDelete.menu);
  folderScreen.menu.register([folderDelete.menu, folderFileDelete.menu, fileScreen.menu]);
  fileScreen.menu.register([fileDelete.menu, shareScreen.menu]);
  shareScreen.menu.register(shareDelete.menu);
}
