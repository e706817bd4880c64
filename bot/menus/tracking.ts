/**
 * Keyword-tracking screens: the list (paged) → a tracker's card (enable/disable, each option one tap
 * plus one answer, matches, mark all read, delete with confirmation) → its matches feed; the guide.
 */
import { getTracker, listTrackers, setTrackerEnabled, deleteTracker, trackerLimits } from "../../core/tracking/trackers";
import { write } from "../audited";
import { listMatches, markAllRead, unreadCount } from "../../core/tracking/matches";
import { fitting, highlight } from "../../core/tracking/match-messages";
import { previewTracker } from "../../core/tracking/preview";
import { teamChatTitle, topicName } from "../../core/tracking/team-chats";
import { PlanLimit } from "../../core/errors";
import type { BotContext } from "../context";
import { may, mayChange } from "../workspace";
import { l } from "../i18n";
import { translated } from "../problem";
import { act, back, backHome, buttons, createScreen, go, idOf, itemOf, modelOf, open, payload, type Screen } from "./nav";
import { TRACKER_OPTIONS } from "./tracker-options";

export const NEW_TRACKER = "track";
export const TRACKER_OPTION = "tracker-option";
const esc = (s: string) => Bun.escapeHTML(s);
const uid = (ctx: BotContext) => ctx.owner.id;
/** Trackers per list page: Telegram takes at most 100 buttons, and plans allow up to 500 trackers. */
const LIST_PAGE = 20;
const FEED_PAGE = 5;

/** The guide to adding the bot as a source (its translation key). */
const TRACK_GUIDE = "track-guide";

/** A card line cut at `max` characters (never inside an emoji), so that the card stays under 4096. */
const clip = (s: string, max = 1200) => (Array.from(s).length > max ? `${Array.from(s).slice(0, max).join("")}…` : s);

/** The list's model: every tracker (for the count), the page from `offset`, and each shown tracker's unread matches. */
async function trackerPage(ctx: BotContext, [offset = 0]: number[]) {
  const rows = await listTrackers(ctx.deps, uid(ctx));
  const page: { t: (typeof rows)[number]; unread: number }[] = [];
  for (const t of rows.slice(offset, offset + LIST_PAGE)) page.push({ t, unread: await unreadCount(ctx.deps, uid(ctx), t.id) });
  return { total: rows.length, offset, page };
}

export const trackersScreen = createScreen("trackers", 1, {
  load: trackerPage,
  body: (ctx, { total, offset }) => {
    if (!total) return ctx.t("trackers-none");
    if (total <= LIST_PAGE) return ctx.t("trackers-title");
    return ctx.t("trackers-title-paged", { from: offset + 1, to: Math.min(offset + LIST_PAGE, total), total });
  },
});

/** "this query would have matched these 3 of the last 100 posts", with up to 3 of them. */
async function previewLines(ctx: BotContext, t: Awaited<ReturnType<typeof getTracker>>): Promise<string[]> {
  const { of, matched, skipped } = await previewTracker(ctx.deps, t);
  if (!of) return [ctx.t("tracker-preview-none")];
  const head = ctx.t(t.syntax === "query" ? "tracker-preview-query" : "tracker-preview-keyword", { matched: matched.length, of });
  return [
    head,
    ...matched.slice(0, 3).map((m) => `• ${esc(m.source)}: ${highlight(clip(m.snippet, 200), m.matchedKeyword)}`),
    ...(skipped ? [ctx.t("tracker-preview-skipped", { count: skipped })] : []),
  ];
}

/** Where the tracker's notifications go, in words: a team chat by its title and topic name (ids only when unknown). */
async function chatLine(ctx: BotContext, t: Awaited<ReturnType<typeof getTracker>>): Promise<string> {
  if (t.notifyVia === "webhook") return ctx.t("tracker-via-webhook", { url: esc(t.webhookUrl ?? "") });
  if (t.notifyVia !== "chat" || !t.notifyChatId) return ctx.t("tracker-via-here");
  const chat = esc((await teamChatTitle(ctx.deps, uid(ctx), t.notifyChatId)) ?? t.notifyChatId);
  if (!t.notifyThreadId) return ctx.t("tracker-via-chat", { chat });
  const topic = esc((await topicName(ctx.deps, uid(ctx), t.notifyChatId, t.notifyThreadId)) ?? String(t.notifyThreadId));
  return ctx.t("tracker-via-topic", { chat, topic });
}

/** The tracker, read once per draw (its text and its buttons); its counts and previews are the text's own. */
export const trackerScreen = createScreen("tracker", 1, {
  load: (ctx, ids) => getTracker(ctx.deps, uid(ctx), ids[0] ?? 0),
  body: trackerText,
});

async function trackerText(ctx: BotContext, t: Awaited<ReturnType<typeof getTracker>>): Promise<string> {
  const unread = await unreadCount(ctx.deps, uid(ctx), t.id);
  return [
    `<b>${esc(t.name)}</b> ${ctx.t(t.isEnabled ? "tracker-active" : "tracker-paused")}`,
    ctx.t(t.syntax === "query" ? "tracker-query" : t.exactMatch && !t.wordForms ? "tracker-keyword-whole" : "tracker-keyword", {
      keyword: esc(t.keyword),
    }),
    [
      t.wordForms && ctx.t("tracker-word-forms"),
      t.skipReposts && ctx.t("tracker-skip-reposts"),
      t.watchLinks && ctx.t("tracker-watch-links"),
    ]
      .filter(Boolean)
      .join(", "),
    t.minusWords?.length ? ctx.t("tracker-minus", { words: esc(clip(t.minusWords.join(", "))) }) : "",
    ctx.t(
      t.searchChannels && t.searchChats
        ? "tracker-searches-both"
        : t.searchChannels
          ? "tracker-searches-channels"
          : "tracker-searches-chats",
    ),
    t.includeSources?.length ? ctx.t("tracker-only", { sources: esc(clip(t.includeSources.join(", "))) }) : "",
    t.excludeSources?.length ? ctx.t("tracker-never", { sources: esc(clip(t.excludeSources.join(", "))) }) : "",
    t.filterMinSubscribers ? ctx.t("tracker-min-members", { count: t.filterMinSubscribers }) : "",
    t.filterLanguage ? ctx.t("tracker-language", { language: t.filterLanguage }) : "",
    ctx.t(t.notifyEvery === "hour" ? "tracker-notify-hourly" : t.notifyEvery === "instant" ? "tracker-notify" : "tracker-notify-daily", {
      via: await chatLine(ctx, t),
    }),
    ctx.t("tracker-matches", { total: t.totalMatches, unread }),
  ]
    .filter(Boolean)
    .concat("", ...(await previewLines(ctx, t)))
    .join("\n");
}

/** The feed's model: a page of the tracker's matches from `offset`, as many as fit one message, and its text. */
async function feed(ctx: BotContext, [id = 0, offset = 0]: number[]) {
  const t = await getTracker(ctx.deps, uid(ctx), id);
  const { items, total } = await listMatches(ctx.deps, uid(ctx), id, FEED_PAGE, offset);
  // within Telegram's 4096 characters: long snippets make a shorter page, "Older" goes on from it
  const lines = fitting(
    items.map((m) => {
      const source = esc(m.source_title ?? m.source_username ?? ctx.t("feed-chat"));
      const link = m.post_url ? ` <a href="${esc(m.post_url)}">${ctx.t("feed-open")}</a>` : "";
      return `${m.is_read ? "" : "🆕 "}<b>${source}</b>${m.is_deleted ? ` ${ctx.t("feed-deleted")}` : ""}${m.no_longer_matches ? ` ${ctx.t("feed-edited-out")}` : ""}${link}\n${highlight(m.text_snippet, m.matched_keyword)}`;
    }),
  );
  const header = total
    ? ctx.t("feed-header", { name: esc(t.name), from: offset + 1, to: offset + lines.length, total })
    : ctx.t("feed-empty", { name: esc(t.name) });
  return { text: [header, ...lines].join("\n\n"), id, offset, shown: lines.length, total };
}

const feedScreen = createScreen("tracker-feed", 2, { load: feed, body: (_ctx, f) => f.text });

const trackerDelete = createScreen("tracker-delete", 1, {
  load: (ctx, [id = 0]) => getTracker(ctx.deps, uid(ctx), id),
  body: (ctx, t) => ctx.t("tracker-delete-confirm", { name: esc(t.name) }),
});
export const guideScreen = createScreen("track-guide", 0, { body: (ctx) => ctx.t(TRACK_GUIDE) });

/** Enters the new-tracker dialog, unless the plan's tracker limit is reached (said before any question). */
export async function startNewTracker(ctx: BotContext, keyword?: string) {
  const { current, max, plan } = await trackerLimits(ctx.deps, uid(ctx));
  if (current >= max) throw translated(new PlanLimit(ctx.t("trackers-limit", { plan, max, current })));
  await ctx.conversation.enter(NEW_TRACKER, ...(keyword ? [keyword] : []));
}

buttons(trackersScreen, (ctx, range, { total, offset, page }) => {
  for (const { t, unread } of page) {
    go(
      range,
      trackersScreen,
      `${t.isEnabled ? "🟢" : "⏸"} ${t.name}${unread ? ` ${ctx.t("trackers-item-new", { count: unread })}` : ""}`,
      "tracker",
      (c) => [itemOf(c, trackersScreen)],
      t.id,
    );
    range.row();
  }
  if (offset > 0) go(range, trackersScreen, l("page-previous"), "trackers", () => [Math.max(0, offset - LIST_PAGE)]);
  if (offset + LIST_PAGE < total) go(range, trackersScreen, l("page-more"), "trackers", () => [offset + LIST_PAGE]);
  if (total > LIST_PAGE) range.row();
  if (may(ctx))
    range.text({ text: l("trackers-new"), payload: payload(trackersScreen) }, (c) => act(c, () => startNewTracker(c), "trackers"));
  go(range, trackersScreen, l("trackers-guide"), "track-guide", () => []);
  range.row();
});
backHome(trackersScreen);
back(guideScreen, l("trackers-back"), "trackers", () => [0]);

buttons(trackerScreen, (ctx, range, t) => {
  const p = payload(trackerScreen);
  // a viewer reads the tracker and its feed; the buttons that change it are for editors and up
  if (!may(ctx)) {
    go(range, trackerScreen, l("tracker-feed"), "tracker-feed", (c) => [idOf(c), 0]);
    range.row();
    return;
  }
  range.text({ text: ctx.t(t.isEnabled ? "tracker-disable" : "tracker-enable"), payload: p }, (c) =>
    act(
      c,
      async () => {
        mayChange(c);
        const now = await write(c, setTrackerEnabled, idOf(c), !(await modelOf(c, trackerScreen)).isEnabled);
        await open(c, trackerScreen, [now.id]);
      },
      "trackers",
    ),
  );
  go(range, trackerScreen, l("tracker-feed"), "tracker-feed", (c) => [idOf(c), 0]);
  range.text({ text: l("tracker-mark-all"), payload: p }, (c) =>
    act(
      c,
      async () => {
        mayChange(c);
        await markAllRead(c.deps, uid(c), idOf(c));
        await open(c, trackerScreen, [idOf(c)], c.t("tracker-marked-all"));
      },
      "trackers",
    ),
  );
  range.row();
  TRACKER_OPTIONS.forEach((o, i) => {
    range.text({ text: ctx.t(o.label), payload: p }, (c) => act(c, () => c.conversation.enter(TRACKER_OPTION, idOf(c), i), "trackers"));
    if (i % 3 === 2) range.row();
  });
  range.row();
  go(range, trackerScreen, l("card-delete"), "tracker-delete", (c) => [idOf(c)]);
});
back(trackerScreen, l("trackers-back"), "trackers", () => [0]);

buttons(feedScreen, (_ctx, range, f) => {
  if (f.offset > 0) go(range, feedScreen, l("feed-newer"), "tracker-feed", () => [f.id, Math.max(0, f.offset - FEED_PAGE)]);
  if (f.offset + f.shown < f.total) go(range, feedScreen, l("feed-older"), "tracker-feed", () => [f.id, f.offset + f.shown]);
  range.row();
  range.text({ text: l("tracker-mark-all"), payload: payload(feedScreen) }, (c) =>
    act(
      c,
      async () => {
        mayChange(c);
        await markAllRead(c.deps, uid(c), idOf(c));
        await open(c, feedScreen, [idOf(c, 0), idOf(c, 1)], c.t("tracker-marked-all"));
      },
      "trackers",
    ),
  );
});
back(feedScreen, l("feed-back"), "tracker", (c) => [idOf(c)]);

trackerDelete.text({ text: l("tracker-delete-yes"), payload: payload(trackerDelete) }, (ctx) =>
  act(
    ctx,
    async () => {
      mayChange(ctx);
      await write(ctx, deleteTracker, idOf(ctx));
      await open(ctx, trackersScreen, [0], ctx.t("tracker-deleted"));
    },
    "trackers",
  ),
);
back(trackerDelete, l("tracker-keep"), "tracker", (c) => [idOf(c)]);

/** The tracking screens under `parent`, in their tree. */
export function registerTracking(parent: Screen) {
  parent.register(trackersScreen);
  trackersScreen.register([trackerScreen, guideScreen]);
  trackerScreen.register([feedScreen, trackerDelete]);
}
