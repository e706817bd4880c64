/**
 * Keyword-tracking screens: the list (paged) → a tracker's card (enable/disable, each option one tap
 * plus one answer, matches, mark all read, delete with confirmation) → its matches feed; the guide.
 */
import { getTracker, listTrackers, setTrackerEnabled, deleteTracker, trackerLimits } from "../../core/tracking/trackers";
import { listMatches, markAllRead, unreadCount } from "../../core/tracking/matches";
import { fitting, highlight } from "../../core/tracking/notify";
import { previewTracker } from "../../core/tracking/preview";
import { PlanLimit } from "../../core/errors";
import type { BotContext } from "../context";
import { act, back, backHome, createScreen, dynamic, go, idOf, itemOf, open, payload, type Screen } from "./nav";
import { TRACKER_OPTIONS } from "./tracker-options";

export const NEW_TRACKER = "track";
export const TRACKER_OPTION = "tracker-option";
const esc = (s: string) => Bun.escapeHTML(s);
const uid = (ctx: BotContext) => ctx.user!.id;
/** Trackers per list page: Telegram takes at most 100 buttons, and plans allow up to 500 trackers. */
const LIST_PAGE = 20;
const FEED_PAGE = 5;

export const TRACK_GUIDE = [
  "<b>Adding me as a source</b>",
  "I find keywords in every channel and group I am a member of.",
  "",
  "• <b>Channel</b>: channel → Administrators → Add admin → search for me. Posting rights are not needed; admins are the only way for a bot to read a channel.",
  "• <b>Group</b>: group → Add members → me. In groups with privacy mode on, make me an admin so I can read every message.",
  "",
  "I read new posts and edits from the moment I am added. Past messages are not searched. I tell you when I am added or removed.",
].join("\n");

/** A card line cut at `max` characters (never inside an emoji), so that the card stays under 4096. */
const clip = (s: string, max = 1200) => (Array.from(s).length > max ? `${Array.from(s).slice(0, max).join("")}…` : s);

export const trackersScreen = createScreen("trackers", 1, async (ctx) => {
  const rows = await listTrackers(ctx.deps, uid(ctx));
  const offset = idOf(ctx);
  const page = rows.length > LIST_PAGE ? ` (${offset + 1}–${Math.min(offset + LIST_PAGE, rows.length)} of ${rows.length})` : "";
  return rows.length ? `🔎 <b>Your keyword trackers</b>${page}\nTap one to see matches or change it.` : "🔎 You have no keyword trackers yet. Create one to be told when a word appears in channels and chats I am in.";
});

/** "this query would have matched these 3 of the last 100 posts", with up to 3 of them. */
async function previewLines(ctx: BotContext, t: Awaited<ReturnType<typeof getTracker>>): Promise<string[]> {
  const { of, matched } = await previewTracker(ctx.deps, t);
  if (!of) return ["Preview: no recent posts to try it on yet."];
  const what = t.syntax === "query" ? "This query" : "This keyword";
  const head = `👀 ${what} would have matched ${matched.length === 1 ? "this" : "these"} ${matched.length} of the last ${of} posts${matched.length ? ":" : "."}`;
  return [head, ...matched.slice(0, 3).map((m) => `• ${esc(m.source)}: ${highlight(clip(m.snippet, 200), m.matchedKeyword)}`)];
}

const chatLine = (t: Awaited<ReturnType<typeof getTracker>>) =>
  t.notifyVia === "webhook" ? `webhook ${esc(t.webhookUrl ?? "")}` : t.notifyVia === "chat" ? `chat ${t.notifyChatId}${t.notifyThreadId ? `, topic ${t.notifyThreadId}` : ""}` : "this chat";

export const trackerScreen = createScreen("tracker", 1, async (ctx) => {
  const t = await getTracker(ctx.deps, uid(ctx), idOf(ctx));
  const unread = await unreadCount(ctx.deps, uid(ctx), t.id);
  return [
    `<b>${esc(t.name)}</b> ${t.isEnabled ? "🟢 active" : "⏸ paused"}`,
    `${t.syntax === "query" ? "Query" : "Keyword"}: <code>${esc(t.keyword)}</code>${t.exactMatch && t.syntax !== "query" && !t.wordForms ? " (whole words)" : ""}`,
    [t.wordForms && "any word forms", t.skipReposts && "reposts and copies skipped", t.watchLinks && "posts with my links too"].filter(Boolean).join(", "),
    t.minusWords?.length ? `Minus words: ${esc(clip(t.minusWords.join(", ")))}` : "",
    `Searches: ${[t.searchChannels && "channels", t.searchChats && "chats"].filter(Boolean).join(" and ")}`,
    t.includeSources?.length ? `Only: ${esc(clip(t.includeSources.join(", ")))}` : "",
    t.excludeSources?.length ? `Never: ${esc(clip(t.excludeSources.join(", ")))}` : "",
    t.filterMinSubscribers ? `At least ${t.filterMinSubscribers} members` : "",
    t.filterLanguage ? `Language: ${t.filterLanguage}` : "",
    `Notifies via: ${chatLine(t)}${t.notifyEvery === "instant" ? "" : `, one digest a${t.notifyEvery === "hour" ? "n hour" : " day"}`}`,
    `Matches: ${t.totalMatches} (${unread} unread)`,
  ]
    .filter(Boolean)
    .concat("", ...(await previewLines(ctx, t)))
    .join("\n");
});

export const feedScreen = createScreen("tracker-feed", 2, async (ctx) => (await feed(ctx)).text);

async function feed(ctx: BotContext) {
  const [id = 0, offset = 0] = [idOf(ctx, 0), idOf(ctx, 1)];
  const t = await getTracker(ctx.deps, uid(ctx), id);
  const { items, total } = await listMatches(ctx.deps, uid(ctx), id, FEED_PAGE, offset);
  // within Telegram's 4096 characters: long snippets make a shorter page, "Older" goes on from it
  const lines = fitting(items.map((m) => {
    const source = esc(m.source_title ?? m.source_username ?? "chat");
    const link = m.post_url ? ` <a href="${esc(m.post_url)}">open</a>` : "";
    return `${m.is_read ? "" : "🆕 "}<b>${source}</b>${m.is_deleted ? " (deleted)" : ""}${link}\n${highlight(m.text_snippet, m.matched_keyword)}`;
  }));
  const header = total ? `<b>${esc(t.name)}</b>: matches ${offset + 1}–${offset + lines.length} of ${total}` : `<b>${esc(t.name)}</b>: no matches yet.`;
  return { text: [header, ...lines].join("\n\n"), id, offset, shown: lines.length, total };
}

export const trackerDelete = createScreen("tracker-delete", 1, async (ctx) => `Delete the tracker “${esc((await getTracker(ctx.deps, uid(ctx), idOf(ctx))).name)}” and its matches?`);
export const guideScreen = createScreen("track-guide", 0, () => TRACK_GUIDE);

/** Enters the new-tracker dialog, unless the plan's tracker limit is reached (said before any question). */
export async function startNewTracker(ctx: BotContext) {
  const { current, max, plan } = await trackerLimits(ctx.deps, uid(ctx));
  if (current >= max) throw new PlanLimit(`Your ${plan} plan allows ${max} trackers and you have ${current}. Delete one or upgrade to add more.`);
  await ctx.conversation.enter(NEW_TRACKER);
}

dynamic(trackersScreen.menu, async (ctx, range) => {
  const rows = await listTrackers(ctx.deps, uid(ctx));
  const offset = idOf(ctx);
  for (const t of rows.slice(offset, offset + LIST_PAGE)) {
    const unread = await unreadCount(ctx.deps, uid(ctx), t.id);
    go(range, trackersScreen, `${t.isEnabled ? "🟢" : "⏸"} ${t.name}${unread ? ` (${unread} new)` : ""}`, "tracker", (c) => [itemOf(c, trackersScreen)], t.id);
    range.row();
  }
  if (offset > 0) go(range, trackersScreen, "« Previous", "trackers", () => [Math.max(0, offset - LIST_PAGE)]);
  if (offset + LIST_PAGE < rows.length) go(range, trackersScreen, "More »", "trackers", () => [offset + LIST_PAGE]);
  if (rows.length > LIST_PAGE) range.row();
  range.text({ text: "➕ New tracker", payload: payload(trackersScreen) }, (c) => act(c, () => startNewTracker(c), "trackers"));
  go(range, trackersScreen, "📖 Add me to a channel", "track-guide", () => []);
  range.row();
});
backHome(trackersScreen);
back(guideScreen, "⬅️ Trackers", "trackers", () => [0]);

dynamic(trackerScreen.menu, async (ctx, range) => {
  const t = await getTracker(ctx.deps, uid(ctx), idOf(ctx));
  const p = payload(trackerScreen);
  range.text({ text: t.isEnabled ? "⏸ Disable" : "▶️ Enable", payload: p }, (c) => act(c, async () => {
    const now = await setTrackerEnabled(c.deps, uid(c), idOf(c), !(await getTracker(c.deps, uid(c), idOf(c))).isEnabled);
    await open(c, trackerScreen, [now.id]);
  }, "trackers"));
  go(range, trackerScreen, "📰 Matches", "tracker-feed", (c) => [idOf(c), 0]);
  range.text({ text: "✓ Mark all read", payload: p }, (c) => act(c, async () => {
    await markAllRead(c.deps, uid(c), idOf(c));
    await open(c, trackerScreen, [idOf(c)], "✓ All matches marked as read.");
  }, "trackers"));
  range.row();
  TRACKER_OPTIONS.forEach((o, i) => {
    range.text({ text: o.label, payload: p }, (c) => act(c, () => c.conversation.enter(TRACKER_OPTION, idOf(c), i), "trackers"));
    if (i % 3 === 2) range.row();
  });
  range.row();
  go(range, trackerScreen, "🗑 Delete", "tracker-delete", (c) => [idOf(c)]);
});
back(trackerScreen, "⬅️ Trackers", "trackers", () => [0]);

dynamic(feedScreen.menu, async (ctx, range) => {
  const f = await feed(ctx);
  if (f.offset > 0) go(range, feedScreen, "« Newer", "tracker-feed", () => [f.id, Math.max(0, f.offset - FEED_PAGE)]);
  if (f.offset + f.shown < f.total) go(range, feedScreen, "Older »", "tracker-feed", () => [f.id, f.offset + f.shown]);
  range.row();
  range.text({ text: "✓ Mark all read", payload: payload(feedScreen) }, (c) => act(c, async () => {
    await markAllRead(c.deps, uid(c), idOf(c));
    await open(c, feedScreen, [idOf(c, 0), idOf(c, 1)], "✓ All matches marked as read.");
  }, "trackers"));
});
back(feedScreen, "⬅️ Tracker", "tracker", (c) => [idOf(c)]);

trackerDelete.menu.text({ text: "🗑 Yes, delete it and its matches", payload: payload(trackerDelete) }, (ctx) => act(ctx, async () => {
  await deleteTracker(ctx.deps, uid(ctx), idOf(ctx));
  await open(ctx, trackersScreen, [0], "🗑 Tracker deleted.");
}, "trackers"));
back(trackerDelete, "No, keep it", "tracker", (c) => [idOf(c)]);

/** The tracking screens under `parent`, in their tree. */
export function registerTracking(parent: Screen) {
  parent.menu.register(trackersScreen.menu);
  trackersScreen.menu.register([trackerScreen.menu, guideScreen.menu]);
  trackerScreen.menu.register([feedScreen.menu, trackerDelete.menu]);
}
