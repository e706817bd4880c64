/**
 * Share-link screens: one share link (copy, revoke/restore, its options, delete) under its file, and
 * every share link of the user in one list with revoke/restore and delete on each row.
 */
import { write } from "../audited";
import { ownedFile } from "../../core/secure/files";
import { deleteShareLink, getShareLink, setShareLinkRevoked, type ShareLinkJson } from "../../core/secure/share-links";
import { listShareLinks } from "../../core/secure/share-list";
import type { BotContext } from "../context";
import { date, l } from "../i18n";
import { may, mayChange, writes } from "../workspace";
import { confirmScreen, type Question } from "./confirm";
import { act, back, buttons, createScreen, go, idOf, itemOf, open, payload, screenAt, type Screen } from "./nav";
import { SHARE_OPTIONS } from "./share-options";

/** The conversation a share link's option that asks for a value enters (registered in bot/conversations). */
export const SHARE_OPTION = "secure-share-option";

const esc = (s: string) => Bun.escapeHTML(s);
const uid = (ctx: BotContext) => ctx.owner.id;
/** A share link's state at the head of its line or button. */
export const STATE_ICON: Record<ShareLinkJson["state"], string> = {
  active: "🟢",
  revoked: "⛔",
  paused: "⏸",
  expired: "⌛",
  exhausted: "🚫",
};

/** A share link and its file, read once per draw. */
export const shareScreen = createScreen("share", 1, {
  load: async (ctx, [id = 0]) => {
    const share = await getShareLink(ctx.deps, uid(ctx), id);
    return { share, file: await ownedFile(ctx.deps, uid(ctx), share.fileId) };
  },
  body: (ctx, { share, file }) => {
    const lines = SHARE_OPTIONS.map((o) => o.line(share))
      .filter((x): x is string => Boolean(x))
      .map((key) => ctx.t(key));
    const views =
      share.maxViews === null
        ? ctx.t("secure-share-views-unlimited", { views: share.viewCount })
        : ctx.t("secure-share-views", { views: share.viewCount, max: share.maxViews });
    const facts = [
      ctx.t("secure-share-file", { name: esc(file.name) }),
      `${STATE_ICON[share.state]} ${esc(share.url)}`,
      ctx.t("secure-share-state", { state: ctx.t(`secure-state-${share.state}`) }),
      views,
      ctx.t("secure-share-expires", { at: date(ctx, share.expiresAt, true) }),
    ];
    return [...facts, ...lines].join("\n");
  },
});

const shareDeleteQuestion: Question = async (ctx) =>
  ctx.t("secure-share-delete-ask", { url: esc((await getShareLink(ctx.deps, uid(ctx), idOf(ctx))).url) });
const shareDelete = confirmScreen(
  "share-delete",
  shareDeleteQuestion,
  async (ctx) => {
    const { fileId } = await getShareLink(ctx.deps, uid(ctx), idOf(ctx));
    mayChange(ctx);
    await write(ctx, deleteShareLink, idOf(ctx));
    return { screen: screenAt("file"), view: [fileId], notice: ctx.t("secure-share-deleted") };
  },
  "share",
);

/** Every share link of the user in one list (newest first), each with revoke/restore and delete on its row. */
const sharesScreen = createScreen("shares", 0, {
  load: (ctx) => listShareLinks(ctx.deps, uid(ctx)),
  body: (ctx, all) => {
    if (!all.length) return ctx.t("secure-shares-none");
    // a viewer has no ⛔/♻️ and 🗑 on the rows: the text does not offer them
    if (!may(ctx)) return ctx.t("ws-read-shares", { count: all.length });
    return ctx.t(all.length === 40 ? "secure-shares-newest" : "secure-shares", { count: all.length });
  },
});
const sharesDelete = confirmScreen(
  "shares-delete",
  shareDeleteQuestion,
  async (ctx) => {
    mayChange(ctx);
    await write(ctx, deleteShareLink, idOf(ctx));
    return { screen: sharesScreen, view: [], notice: ctx.t("secure-share-deleted") };
  },
  "shares",
  () => [],
);

buttons(shareScreen, (ctx, range, { share }) => {
  // a tap on the URL itself would open it and count a view: the button copies it
  range.copyText(l("card-copy"), share.url).row();
  const w = writes(ctx, range);
  w.text({ text: ctx.t(share.isRevoked ? "secure-restore" : "secure-revoke"), payload: payload(shareScreen) }, (c) =>
    act(
      c,
      async () => {
        mayChange(c);
        const now = await write(c, setShareLinkRevoked, idOf(c), !(await getShareLink(c.deps, uid(c), idOf(c))).isRevoked);
        await open(c, shareScreen, [now.id], c.t(now.isRevoked ? "secure-revoked" : "secure-restored"));
      },
      "folders",
    ),
  );
  go(w, shareScreen, l("secure-delete-link"), "share-delete", (c) => [idOf(c)]);
  range.row();
  SHARE_OPTIONS.forEach((o, i) => {
    w.text({ text: ctx.t(o.label(share)), payload: payload(shareScreen) }, (c) =>
      act(
        c,
        async () => {
          const link = await getShareLink(c.deps, uid(c), idOf(c));
          if (o.tap) {
            mayChange(c);
            await o.tap(c, link);
            await open(c, shareScreen, [link.id]);
          } else await c.conversation.enter(SHARE_OPTION, link.id, i);
        },
        "folders",
      ),
    );
  });
  range.row();
});
back(shareScreen, l("secure-back-file"), "file", async (c) => [(await getShareLink(c.deps, uid(c), idOf(c))).fileId]);

buttons(sharesScreen, (ctx, range, all) => {
  for (const share of all) {
    go(
      range,
      sharesScreen,
      `${STATE_ICON[share.state]} ${share.fileName} · ${share.code} · ${share.viewCount}/${share.maxViews ?? "∞"}`,
      "share",
      (c) => [itemOf(c, sharesScreen)],
      share.id,
    );
    const w = writes(ctx, range);
    w.text({ text: share.isRevoked ? "♻️" : "⛔", payload: payload(sharesScreen, share.id) }, (c) =>
      act(
        c,
        async () => {
          const id = itemOf(c, sharesScreen);
          mayChange(c);
          const now = await write(c, setShareLinkRevoked, id, !(await getShareLink(c.deps, uid(c), id)).isRevoked);
          await open(c, sharesScreen, [], c.t(now.isRevoked ? "secure-revoked-url" : "secure-restored-url", { url: esc(now.url) }));
        },
        "folders",
      ),
    );
    go(w, sharesScreen, "🗑", "shares-delete", (c) => [itemOf(c, sharesScreen)], share.id);
    range.row();
  }
});
back(sharesScreen, l("secure-back-folders"), "folders");

/** The share-link screens: the list under the folders screen, one link under its file's screen. */
export function registerShares(folders: Screen, file: Screen) {
  folders.register(sharesScreen);
  sharesScreen.register(sharesDelete);
  file.register(shareScreen);
  shareScreen.register(shareDelete);
}
