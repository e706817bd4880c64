/**
 * Secure-sharing screens: folders → folder → file → share link, each with a way back; pause toggle,
 * revoke/restore, and every delete asks first. Each file's row in its folder shares or deletes it in
 * one tap, and every share link is also in one flat list with revoke/restore and delete on its row,
 * so each of these is at most 3 taps from /start. A stored file's message is its file screen, so its
 * share links are managed from there.
 */
import { deleteFolder, getFolder, listFolders, togglePause } from "../../core/secure/folders";
import { write } from "../audited";
import { deleteFile, listFiles, ownedFile, toFileJson } from "../../core/secure/files";
import { listFileShareLinks } from "../../core/secure/share-links";
import type { BotContext } from "../context";
import { mayChange, writes } from "../workspace";
import { act, back, backHome, buttons, createScreen, go, idOf, itemOf, modelOf, open, payload, screenAt, type Screen } from "./nav";
import { createRequest } from "../../core/secure/requests";
import { confirmScreen, type Outcome, type Question } from "./confirm";
import { registerShares, STATE_ICON } from "./secure-shares";

export { SHARE_OPTION, shareScreen } from "./secure-shares";
import { l, localeOf } from "../i18n";

/** Conversations the screens enter (registered in bot/conversations). */
export const NEW_FOLDER = "secure-new-folder";
export const SHARE = "secure-share";

const esc = (s: string) => Bun.escapeHTML(s);
const uid = (ctx: BotContext) => ctx.owner.id;

export const foldersScreen = createScreen("folders", 0, {
  load: (ctx) => listFolders(ctx.deps, uid(ctx)),
  body: (ctx, folders) => ctx.t(folders.length ? "secure-folders" : "secure-folders-none"),
});

/** "12.3 KB" in the user's locale. */
export const kb = (ctx: BotContext, bytes: number) =>
  ctx.t("secure-size-kb", {
    size: new Intl.NumberFormat(localeOf(ctx), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1024),
  });

/** A folder and its files, read once per draw. */
export const folderScreen = createScreen("folder", 1, {
  load: async (ctx, ids) => {
    const folder = await getFolder(ctx.deps, uid(ctx), ids[0] ?? 0);
    return { folder, files: await listFiles(ctx.deps, uid(ctx), folder.id) };
  },
  body: (ctx, { folder: f }) => {
    const head = ctx.t(f.isPaused ? "secure-folder-paused" : "secure-folder", { name: esc(f.name) });
    return `${head}\n${ctx.t("secure-file-count", { count: f.fileCount })}${f.description ? `\n${esc(f.description)}` : ""}`;
  },
});

/** A file and its share links, read once per draw. */
async function fileOf(ctx: BotContext, ids: number[]) {
  const owned = await ownedFile(ctx.deps, uid(ctx), ids[0] ?? 0);
  return { owned, file: toFileJson(owned), links: await listFileShareLinks(ctx.deps, uid(ctx), owned.id) };
}

export const fileScreen = createScreen("file", 1, { load: fileOf, body: fileText });

function fileText(ctx: BotContext, { file, links }: Awaited<ReturnType<typeof fileOf>>): string {
  const size = file.fileSize ? ` · ${kb(ctx, file.fileSize)}` : "";
  const kind = ctx.t(`secure-kind-${file.contentType}`);
  const shares = links.length ? ctx.t("secure-file-shares", { count: links.length }) : ctx.t("secure-file-no-shares");
  return `📄 <b>${esc(file.name)}</b>\n${kind}${file.mimeType ? ` (${esc(file.mimeType)})` : ""}${size}\n${shares}`;
}

const folderDelete = confirmScreen(
  "folder-delete",
  async (ctx) => {
    const f = await getFolder(ctx.deps, uid(ctx), idOf(ctx));
    return ctx.t("secure-folder-delete-ask", { name: esc(f.name), count: f.fileCount });
  },
  async (ctx) => {
    mayChange(ctx);
    await write(ctx, deleteFolder, idOf(ctx));
    return { screen: foldersScreen, view: [], notice: ctx.t("secure-folder-deleted") };
  },
  "folder",
);

const fileDeleteQuestion: Question = async (ctx) => {
  const f = await ownedFile(ctx.deps, uid(ctx), idOf(ctx));
  return ctx.t("secure-file-delete-ask", { name: esc(f.name), count: (await listFileShareLinks(ctx.deps, uid(ctx), f.id)).length });
};
const fileDeleteRun: Outcome = async (ctx) => {
  const { folderId } = await ownedFile(ctx.deps, uid(ctx), idOf(ctx));
  mayChange(ctx);
  await write(ctx, deleteFile, idOf(ctx));
  return { screen: folderScreen, view: [folderId], notice: ctx.t("secure-file-deleted") };
};
/** from the file's screen, and from its row in the folder (which "Keep it" goes back to) */
const fileDelete = confirmScreen("file-delete", fileDeleteQuestion, fileDeleteRun, "file");
const folderFileDelete = confirmScreen("folder-file-delete", fileDeleteQuestion, fileDeleteRun, "folder", async (c) => [
  (await ownedFile(c.deps, uid(c), idOf(c))).folderId,
]);

buttons(foldersScreen, (ctx, range, folders) => {
  for (const f of folders) {
    go(range, foldersScreen, `${f.isPaused ? "⏸" : "📁"} ${f.name} (${f.fileCount})`, "folder", (c) => [itemOf(c, foldersScreen)], f.id);
    range.row();
  }
  // a viewer reads folders, files and links; every button that changes them is for editors and up
  writes(ctx, range).text({ text: ctx.t("secure-new-folder-button"), payload: payload(foldersScreen) }, (c) =>
    act(c, () => c.conversation.enter(NEW_FOLDER)),
  );
  range.row();
  go(range, foldersScreen, l("secure-share-links"), "shares", () => []);
  go(range, foldersScreen, l("secure-request-links"), "requests", () => []);
});
backHome(foldersScreen);

buttons(folderScreen, (ctx, range, { folder, files }) => {
  const w = writes(ctx, range);
  for (const f of files) {
    go(range, folderScreen, `📄 ${f.name} · ${ctx.t(`secure-kind-${f.contentType}`)}`, "file", (c) => [itemOf(c, folderScreen)], f.id);
    w.text({ text: "🔗", payload: payload(folderScreen, f.id) }, (c) =>
      act(c, () => c.conversation.enter(SHARE, itemOf(c, folderScreen)), "folders"),
    );
    go(w, folderScreen, "🗑", "folder-file-delete", (c) => [itemOf(c, folderScreen)], f.id);
    range.row();
  }
  w.text({ text: ctx.t(folder.isPaused ? "secure-resume" : "secure-pause"), payload: payload(folderScreen) }, (c) =>
    act(
      c,
      async () => {
        mayChange(c);
        const f = await write(c, togglePause, idOf(c));
        await open(c, folderScreen, [f.id], c.t(f.isPaused ? "secure-paused" : "secure-resumed"));
      },
      "folders",
    ),
  );
  go(w, folderScreen, l("secure-delete-folder"), "folder-delete", (c) => [idOf(c)]);
  range.row();
  w.text({ text: ctx.t("secure-new-request"), payload: payload(folderScreen) }, (c) =>
    act(
      c,
      async () => {
        // a link made in one tap is bounded by default: a week and 20 items, so a link that leaks
        // cannot fill the plan with strangers' files
        mayChange(c);
        const request = await write(c, createRequest, {
          folderId: idOf(c),
          title: (await getFolder(c.deps, uid(c), idOf(c))).name,
          ...BOT_REQUEST_DEFAULTS,
        });
        const notice = c.t("secure-request-created", {
          items: BOT_REQUEST_DEFAULTS.maxFiles,
          days: BOT_REQUEST_DEFAULTS.expiresInHours / 24,
        });
        await open(c, screenAt("request"), [request.id], notice);
      },
      "folders",
    ),
  );
});
back(folderScreen, l("secure-back-folders"), "folders");

/** What a request link made in the bot takes: at most this many items, for this long. */
const BOT_REQUEST_DEFAULTS = { expiresInHours: 7 * 24, maxFiles: 20 } as const;

buttons(fileScreen, (ctx, range, { links }) => {
  for (const share of links) {
    go(
      range,
      fileScreen,
      `${STATE_ICON[share.state]} ${share.code} · ${share.viewCount}/${share.maxViews ?? "∞"}`,
      "share",
      (c) => [itemOf(c, fileScreen)],
      share.id,
    );
    range.row();
  }
  const w = writes(ctx, range);
  w.text({ text: ctx.t("secure-new-share"), payload: payload(fileScreen) }, (c) =>
    act(c, () => c.conversation.enter(SHARE, idOf(c)), "folders"),
  );
  go(w, fileScreen, l("secure-delete-file"), "file-delete", (c) => [idOf(c)]);
  range.row();
});
back(fileScreen, l("secure-back-folder"), "folder", async (c) => [(await modelOf(c, fileScreen)).owned.folderId]);

/** The secure screens under `parent`, in their tree. */
export function registerSecure(parent: Screen) {
  parent.register(foldersScreen);
  foldersScreen.register(folderScreen);
  folderScreen.register([folderDelete, folderFileDelete, fileScreen]);
  fileScreen.register(fileDelete);
  registerShares(foldersScreen, fileScreen);
}
