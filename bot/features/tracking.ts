import { Composer, InlineKeyboard } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { createConversation } from "@grammyjs/conversations";
import type { BotContext } from "../context";
import { trackConversation } from "../conversations/track";
import { getTracker, listTrackers, setTrackerEnabled, deleteTracker } from "../../core/tracking/trackers";
import { listMatches, markAllRead, markMatchesRead, markMatchRangeRead, unreadCount } from "../../core/tracking/matches";
import { escapeHtml, fitting, highlight } from "../../core/tracking/notify";
import { AppError } from "../../core/errors";

/**
 * Keyword tracking in the bot: /track (conversation), /trackers (list with enable/disable, matches
 * feed with paging, read-all, delete), /trackguide, the root menu's `menu:tracking`, and the
 * buttons of match notifications (`tr:` callbacks).
 */
export const trackingFeature = new Composer<BotContext>();
const PAGE = 5;

export const TRACK_GUIDE = [
  "<b>Adding me as a source</b>",
  "I find keywords in every channel and group I am a member of.",
  "",
  "• <b>Channel</b>: channel → Administrators → Add admin → search for me. Posting rights are not needed; admins are the only way for a bot to read a channel.",
  "• <b>Group</b>: group → Add members → me. In groups with privacy mode on, make me an admin so I can read every message.",
  "",
  "I read new posts and edits from the moment I am added. Past messages are not searched.",
].join("\n");

const priv = trackingFeature.chatType("private");
priv.use(createConversation(trackConversation, "track"));

priv.command("track", (ctx) => ctx.conversation.enter("track"));
priv.command("trackguide", (ctx) => ctx.reply(TRACK_GUIDE, { parse_mode: "HTML" }));

/** Trackers per list page: Telegram takes at most 100 buttons, and plans allow up to 500 trackers. */
const LIST_PAGE = 20;

function trackerList(ctx: BotContext, offset = 0) {
  const rows = listTrackers(ctx.deps, ctx.user!.id);
  const keyboard = new InlineKeyboard();
  for (const t of rows.slice(offset, offset + LIST_PAGE)) {
    const unread = unreadCount(ctx.deps, ctx.user!.id, t.id);
    keyboard.text(`${t.isEnabled ? "🟢" : "⏸"} ${t.name}${unread ? ` (${unread} new)` : ""}`, `tr:show:${t.id}`).row();
  }
  if (offset > 0) keyboard.text("« Previous", `tr:lp:${Math.max(0, offset - LIST_PAGE)}`);
  if (offset + LIST_PAGE < rows.length) keyboard.text("More »", `tr:lp:${offset + LIST_PAGE}`);
  if (rows.length > LIST_PAGE) keyboard.row();
  keyboard.text("➕ New tracker", "tr:new").text("📖 Add me to a channel", "tr:guide");
  const page = rows.length > LIST_PAGE ? ` (${offset + 1}–${Math.min(offset + LIST_PAGE, rows.length)} of ${rows.length})` : "";
  const text = rows.length ? `<b>Your keyword trackers</b>${page}\nTap one to see matches or change it.` : "You have no keyword trackers yet. Create one to be told when a word appears in channels and chats I am in.";
  return { text, reply_markup: keyboard, parse_mode: "HTML" as const };
}

/**
 * A card line cut at `max` characters (never inside an emoji): with the longest allowed keyword, minus
 * words (50 × 100) and sources (100) the card would pass Telegram's 4096 characters.
 */
function clip(s: string, max = 1200): string {
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : s;
}

function trackerCard(ctx: BotContext, id: number) {
  const t = getTracker(ctx.deps, ctx.user!.id, id);
  const unread = unreadCount(ctx.deps, ctx.user!.id, id);
  const lines = [
    `<b>${escapeHtml(t.name)}</b> ${t.isEnabled ? "🟢 active" : "⏸ paused"}`,
    `Keyword: <code>${escapeHtml(t.keyword)}</code>${t.exactMatch ? " (whole words)" : ""}`,
    t.minusWords?.length ? `Minus words: ${escapeHtml(clip(t.minusWords.join(", ")))}` : "",
    `Searches: ${[t.searchChannels && "channels", t.searchChats && "chats"].filter(Boolean).join(" and ")}`,
    t.includeSources?.length ? `Only: ${escapeHtml(clip(t.includeSources.join(", ")))}` : "",
    `Notifies via: ${t.notifyVia}`,
    `Matches: ${t.totalMatches} (${unread} unread)`,
  ].filter(Boolean);
  const keyboard = new InlineKeyboard()
    .text(t.isEnabled ? "⏸ Disable" : "▶️ Enable", `tr:toggle:${id}`)
    .text("📰 Matches", `tr:feed:${id}:0`)
    .row()
    .text("✓ Mark all read", `tr:readall:${id}`)
    .text("🗑 Delete", `tr:del:${id}`)
    .row()
    .text("« Back", "tr:list");
  return { text: lines.join("\n"), reply_markup: keyboard, parse_mode: "HTML" as const };
}

function matchFeed(ctx: BotContext, id: number, offset: number) {
  const t = getTracker(ctx.deps, ctx.user!.id, id);
  const { items, total } = listMatches(ctx.deps, ctx.user!.id, id, PAGE, offset);
  // within Telegram's 4096 characters: long snippets make a shorter page, "Older" goes on from it
  const lines = fitting(
    items.map((m) => {
      const source = escapeHtml(m.source_title ?? m.source_username ?? "chat");
      const link = m.post_url ? ` <a href="${escapeHtml(m.post_url)}">open</a>` : "";
      return `${m.is_read ? "" : "🆕 "}<b>${source}</b>${m.is_deleted ? " (deleted)" : ""}${link}\n${highlight(m.text_snippet, m.matched_keyword)}`;
    }),
  );
  const header = total ? `<b>${escapeHtml(t.name)}</b>: matches ${offset + 1}–${offset + lines.length} of ${total}` : `<b>${escapeHtml(t.name)}</b>: no matches yet.`;
  const keyboard = new InlineKeyboard();
  if (offset > 0) keyboard.text("« Newer", `tr:feed:${id}:${Math.max(0, offset - PAGE)}`);
  if (offset + lines.length < total) keyboard.text("Older »", `tr:feed:${id}:${offset + lines.length}`);
  keyboard.row().text("✓ Mark all read", `tr:readall:${id}`).text("« Tracker", `tr:show:${id}`);
  return { text: [header, ...lines].join("\n\n"), reply_markup: keyboard, parse_mode: "HTML" as const, link_preview_options: { is_disabled: true } };
}

priv.command("trackers", (ctx) => ctx.reply(trackerList(ctx).text, trackerList(ctx)));

/**
 * Replaces (or, with null, removes) the pressed button on the notification it was on. Best effort:
 * messages older than 48 hours cannot be edited.
 */
async function swapPressedButton(ctx: BotContext, replacement: { text: string; callback_data: string } | null) {
  const rows = ctx.callbackQuery?.message?.reply_markup?.inline_keyboard;
  if (!rows) return;
  const pressed = (b: (typeof rows)[number][number]) => "callback_data" in b && b.callback_data === ctx.callbackQuery!.data;
  const next: InlineKeyboardButton[][] = rows.map((row) => row.flatMap((b): InlineKeyboardButton[] => (pressed(b) ? (replacement ? [replacement] : []) : [b]))).filter((row) => row.length);
  await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: next } }).catch(() => {});
}

/** Shows a screen by editing the message the button was on. */
async function show(ctx: BotContext, screen: { text: string } & Record<string, unknown>) {
  await ctx.answerCallbackQuery();
  const { text, ...rest } = screen;
  await ctx.editMessageText(text, rest).catch(() => ctx.reply(text, rest));
}

priv.callbackQuery(["menu:tracking", "tr:list"], (ctx) => show(ctx, trackerList(ctx)));
priv.callbackQuery("tr:guide", (ctx) => show(ctx, { text: TRACK_GUIDE, parse_mode: "HTML", reply_markup: new InlineKeyboard().text("« Back", "tr:list") }));
priv.callbackQuery("tr:new", async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.conversation.enter("track");
});

priv.callbackQuery(/^tr:(show|toggle|readall|del|delok|pause|resume|read|readr|feed|lp):([\d-]+)(?::(\d+))?$/, async (ctx) => {
  const [, action, arg, page] = ctx.match;
  const userId = ctx.user!.id;
  const id = Number(arg);
  try {
    switch (action) {
      case "show":
        return await show(ctx, trackerCard(ctx, id));
      case "lp":
        return await show(ctx, trackerList(ctx, id));
      case "toggle":
        setTrackerEnabled(ctx.deps, userId, id, !getTracker(ctx.deps, userId, id).isEnabled);
        return await show(ctx, trackerCard(ctx, id));
      case "feed":
        return await show(ctx, matchFeed(ctx, id, Number(page ?? 0)));
      case "readall":
        markAllRead(ctx.deps, userId, id);
        return await show(ctx, trackerCard(ctx, id));
      case "del":
        await ctx.answerCallbackQuery();
        return await ctx.editMessageReplyMarkup({ reply_markup: new InlineKeyboard().text("Yes, delete it and its matches", `tr:delok:${id}`).row().text("No, keep it", `tr:show:${id}`) });
      case "delok":
        deleteTracker(ctx.deps, userId, id);
        return await show(ctx, trackerList(ctx));
      case "pause":
      case "resume":
        setTrackerEnabled(ctx.deps, userId, id, action === "resume");
        await ctx.answerCallbackQuery({ text: action === "pause" ? "Tracker paused" : "Tracker resumed" });
        return await swapPressedButton(ctx, action === "pause" ? { text: "▶️ Resume tracker", callback_data: `tr:resume:${id}` } : { text: "⏸ Pause tracker", callback_data: `tr:pause:${id}` });
      case "read":
        markMatchesRead(ctx.deps, userId, [id]);
        await ctx.answerCallbackQuery({ text: "Marked as read" });
        return await swapPressedButton(ctx, null);
      case "readr": {
        const [from, to] = arg!.split("-").map(Number);
        const n = markMatchRangeRead(ctx.deps, userId, from!, to!);
        return await ctx.answerCallbackQuery({ text: `${n} marked as read` });
      }
    }
  } catch (e) {
    if (e instanceof AppError) return ctx.answerCallbackQuery({ text: e.message, show_alert: true });
    throw e;
  }
});
