import { targetButton } from "../deep-link";
import { and, asc, desc, eq, gt, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { queueBotMessage, queueWebhook } from "../delivery/outbox";
import { matchResponse, type MatchRow } from "./matches";
import { getTracker, trackerResponse, type TrackerRow } from "./trackers";
import { FieldError, NotConfigured } from "../errors";
import { isWholeWord } from "./normalise";
import { serializeOn, transaction, type AsyncDbOrTx, type AsyncTx } from "../../db/async";
import { t, type Language } from "../i18n/translate";
import { ownerChat } from "../accounts/users";

/**
 * A bot notification to an owner who got another one less than this long ago waits, and every
 * match waiting for that owner goes out as one grouped message when the window closes
 * (`flushTrackerNotifications`). The waiting state is a column of the match, so a restart loses nothing.
 */
export const BURST_WINDOW_MS = 60_000;
/** At most this many matches are listed in a grouped message. */
const GROUP_LIST = 5;
/** The listed matches' share of a message's 4096 characters (the rest: header, "…and N more"). */
const LISTED_TEXT_MAX = 3900;

/** The length Telegram counts of an HTML text: tags left out, entities as one character. */
const visibleLength = (html: string) => html.replace(/<[^>]*>/g, "").replace(/&(?:lt|gt|amp|quot);/g, "_").length;

/**
 * The first of `lines` (HTML, joined by blank lines) that fit in a message: Telegram refuses a text
 * over 4096 characters, and snippets of long keywords (up to 800 characters) can pass it in a list.
 * Never none: one line always fits.
 */
export function fitting(lines: string[]): string[] {
  const out: string[] = [];
  let visible = 0;
  for (const line of lines) {
    const length = visibleLength(line) + 2;
    if (out.length && visible + length > LISTED_TEXT_MAX) break;
    out.push(line);
    visible += length;
  }
  return out;
}

/**
 * Where `matched` is in `snippet`: its first occurrence as whole words when there is one (an exact
 * tracker's match; "кот" in "котёнок и кот." is the second), else its first occurrence.
 */
function matchedAt(snippet: string, matched: string): number {
  let first = -1;
  for (let at = snippet.indexOf(matched); at !== -1; at = snippet.indexOf(matched, at + 1)) {
    if (isWholeWord(snippet, at, at + matched.length)) return at;
    if (first === -1) first = at;
  }
  return first;
}

/** The snippet, escaped, with the matched words in bold. */
export function highlight(snippet: string | null, matchedAsWritten: string | null): string {
  if (!snippet) return "";
  // the snippet is one line (whitespace runs are one space); a phrase may have matched across a line break
  const matched = matchedAsWritten?.replace(/\s+/g, " ") ?? null;
  const at = matched ? matchedAt(snippet, matched) : -1;
  if (at === -1) return Bun.escapeHTML(snippet);
  return `${Bun.escapeHTML(snippet.slice(0, at))}<b>${Bun.escapeHTML(matched!)}</b>${Bun.escapeHTML(snippet.slice(at + matched!.length))}`;
}

function sourceLine(lang: Language, m: MatchRow): string {
  const title = Bun.escapeHTML(m.sourceTitle ?? m.sourceUsername ?? t(lang, "notify-some-chat"));
  return m.sourceUsername ? `${title} (@${Bun.escapeHTML(m.sourceUsername)})` : title;
}

type Named = Pick<TrackerRow, "id" | "name">;
/** The matches of one post, with every tracker of the owner that matched it (in tracker order). */
interface PostItem {
  trackers: Named[];
  match: MatchRow;
  ids: number[];
}

const names = (trackers: Named[]) => trackers.map((t) => `<b>${Bun.escapeHTML(t.name)}</b>`).join(", ");

/** Groups an owner's matches (in id order) by post: one entry per post, naming every tracker that matched it. */
function byPost(items: { tracker: Named; match: MatchRow }[]): PostItem[] {
  const posts = new Map<string, PostItem>();
  for (const { tracker, match } of items) {
    const key = `${match.sourceChatId}/${match.sourceMessageId}`;
    const post = posts.get(key);
    if (post) {
      post.trackers.push(tracker);
      post.ids.push(match.id);
    } else posts.set(key, { trackers: [tracker], match, ids: [match.id] });
  }
  return [...posts.values()];
}

/** A button that marks these matches read in place (one, or the range from the first to the last: the owner's only). */
export const readButton = (text: string, ids: number[]) =>
  targetButton(text, ids.length === 1 ? { kind: "read", id: ids[0]! } : { kind: "readr", from: Math.min(...ids), to: Math.max(...ids) });

/**
 * The Bot API sendMessage parameters (without chat_id) for one post: its match, and every tracker
 * of the owner that matched it (`ids`: their matches, all marked read by the button).
 */
function matchMessage(lang: Language, trackers: Named | Named[], m: MatchRow, ids: number[] = [m.id]) {
  const list = Array.isArray(trackers) ? trackers : [trackers];
  const text = [
    t(lang, "notify-new-match", { trackers: names(list) }),
    `📣 ${sourceLine(lang, m)}`,
    "",
    highlight(m.textSnippet, m.matchedKeyword),
  ].join("\n");
  const keyboard: ({ text: string; url: string } | { text: string; callback_data: string })[][] = [];
  if (m.postUrl) keyboard.push([{ text: t(lang, "notify-open-post"), url: m.postUrl }]);
  keyboard.push([
    readButton(t(lang, "notify-mark-read"), ids),
    list.length === 1
      ? targetButton(t(lang, "notify-tracker"), { kind: "tracker", id: list[0]!.id })
      : targetButton(t(lang, "notify-my-trackers"), { kind: "trackers" }),
  ]);
  return { text, parse_mode: "HTML", link_preview_options: { is_disabled: true }, reply_markup: { inline_keyboard: keyboard } };
}

/** The Bot API parameters for several posts of one owner, grouped into one message (a post once, with all its trackers). */
function groupedMessage(lang: Language, posts: PostItem[]) {
  const lines = fitting(
    posts
      .slice(0, GROUP_LIST)
      .map(
        ({ trackers, match }) =>
          `• ${names(trackers)}, ${sourceLine(lang, match)}:${openLink(lang, match)}\n${highlight(match.textSnippet, match.matchedKeyword)}`,
      ),
  );
  const more = posts.length > lines.length ? [t(lang, "notify-and-more", { count: posts.length - lines.length })] : [];
  const text = [t(lang, "notify-new-matches", { count: posts.length }), "", ...lines, ...more].join("\n");
  const ids = posts.flatMap((p) => p.ids);
  return {
    text,
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
    reply_markup: {
      inline_keyboard: [
        [readButton(t(lang, "notify-mark-these-read"), ids), targetButton(t(lang, "notify-my-trackers"), { kind: "trackers" })],
      ],
    },
  };
}

/** " open" linking to the post, for lists of matches (nothing when the post has no public link). */
export const openLink = (lang: Language, m: MatchRow) =>
  m.postUrl ? ` <a href="${Bun.escapeHTML(m.postUrl)}">${t(lang, "notify-open")}</a>` : "";

/**
 * A message for a team chat (notify_via "chat"): the owner's message without the buttons that act
 * for the owner (they open the bot in a private chat), in the forum topic when one is set.
 */
export function chatMessage(
  lang: Language,
  params: Record<string, unknown>,
  m: MatchRow | null,
  threadId: number | null,
): Record<string, unknown> {
  const { reply_markup: _, ...rest } = params;
  return {
    ...rest,
    ...(m?.postUrl ? { reply_markup: { inline_keyboard: [[{ text: t(lang, "notify-open-post"), url: m.postUrl }]] } } : {}),
    ...(threadId !== null ? { message_thread_id: threadId } : {}),
  };
}

async function recentlyNotified(tx: AsyncDbOrTx, userId: number, now: Date): Promise<boolean> {
  const { outbox } = tx.tables;
  const rows = await tx
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.userId, userId),
        inArray(outbox.topic, ["tracker_notify"]),
        gt(outbox.createdAt, new Date(now.getTime() - BURST_WINDOW_MS)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Pending matches of these trackers wait for the burst window; the others' for their digest. */
const INSTANT_BOT = (trackers: AsyncTx["tables"]["trackers"]) => and(eq(trackers.notifyVia, "bot"), eq(trackers.notifyEvery, "instant"));

/** Inside a transaction: holds an owner's notification state (the burst window) until it ends, on every node. */
const holdOwner = (tx: AsyncTx, userId: number) => serializeOn(tx, `tracker-notify:${userId}`);

/** The webhook body of a match event: {event, tracker, match}. */
function webhookPayload(event: "keyword_match" | "post_deleted", tracker: TrackerRow, m: MatchRow) {
  return { event, tracker: trackerResponse(tracker), match: matchResponse(m) };
}

/**
 * Notifies one owner of the new matches of one post, inside the transaction that recorded them:
 * a webhook job per webhook tracker, and for the bot trackers one message naming all of them (sent
 * now, or left pending when the owner was notified within BURST_WINDOW_MS).
 */
export async function notifyMatches(
  tx: AsyncTx,
  now: Date,
  userId: number,
  items: { tracker: TrackerRow; match: MatchRow }[],
): Promise<void> {
  const viaBot: number[] = [];
  const digest: number[] = [];
  const toChats = new Map<string, { tracker: TrackerRow; match: MatchRow }[]>();
  for (const item of items) {
    const { tracker, match } = item;
    if (tracker.notifyVia === "webhook") {
      if (tracker.webhookUrl)
        await queueWebhook(tx, now, {
          userId,
          topic: "tracker_webhook",
          refId: tracker.id,
          url: tracker.webhookUrl,
          method: "POST",
          data: webhookPayload("keyword_match", tracker, match),
        });
    } else if (tracker.notifyEvery !== "instant") digest.push(match.id);
    else if (tracker.notifyVia === "chat") {
      const key = `${tracker.notifyChatId}/${tracker.notifyThreadId ?? ""}`;
      toChats.set(key, [...(toChats.get(key) ?? []), item]);
    } else viaBot.push(match.id);
  }
  const { trackerMatches } = tx.tables;
  // digests wait in the database for the end of their hour or day (flushTrackerDigests)
  if (digest.length) await tx.update(trackerMatches).set({ notifyPending: true }).where(inArray(trackerMatches.id, digest));
  const owner = await ownerChat(tx, userId);
  for (const list of toChats.values()) {
    const { notifyChatId, notifyThreadId } = list[0]!.tracker;
    if (!notifyChatId) continue;
    const params = chatMessage(
      owner.lang,
      matchMessage(
        owner.lang,
        list.map((i) => i.tracker),
        list[0]!.match,
      ),
      list[0]!.match,
      notifyThreadId,
    );
    await queueBotMessage(tx, now, { userId, topic: "tracker_chat", refId: list[0]!.match.id, chatId: notifyChatId, params });
  }
  if (!viaBot.length || owner.chatId === null) return; // an email-only account has no chat; the match is in the feed and API
  await tx.update(trackerMatches).set({ notifyPending: true }).where(inArray(trackerMatches.id, viaBot));
  // outside the window it goes out now, with any match still waiting for the flush job (in order)
  await holdOwner(tx, userId);
  if (!(await recentlyNotified(tx, userId, now))) await flushOwner(tx, userId, now);
}

/**
 * Sends an owner's pending matches, oldest first: one match as its own message, several grouped.
 * Clears their pending state. Returns whether a message was queued.
 */
async function flushOwner(tx: AsyncTx, userId: number, now: Date): Promise<boolean> {
  const { trackerMatches, trackers } = tx.tables;
  const pending = await tx
    .select({ id: trackerMatches.id })
    .from(trackerMatches)
    .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
    .where(and(eq(trackerMatches.notifyPending, true), eq(trackers.userId, userId), INSTANT_BOT(trackers)));
  if (!pending.length) return false;
  // taken by a conditional update: a row another run took meanwhile is not sent twice
  const taken = await tx
    .update(trackerMatches)
    .set({ notifyPending: false })
    .where(
      and(
        inArray(
          trackerMatches.id,
          pending.map((p) => p.id),
        ),
        eq(trackerMatches.notifyPending, true),
      ),
    )
    .returning({ id: trackerMatches.id });
  if (!taken.length) return false;
  const items = await tx
    .select({ match: trackerMatches, tracker: trackers })
    .from(trackerMatches)
    .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
    .where(
      inArray(
        trackerMatches.id,
        taken.map((t) => t.id),
      ),
    )
    .orderBy(asc(trackerMatches.id));
  const ids = items.map((i) => i.match.id);
  const { chatId, lang } = await ownerChat(tx, userId);
  if (chatId === null) return false;
  const posts = byPost(items);
  const params = posts.length === 1 ? matchMessage(lang, posts[0]!.trackers, posts[0]!.match, posts[0]!.ids) : groupedMessage(lang, posts);
  await queueBotMessage(tx, now, { userId, topic: "tracker_notify", refId: ids[ids.length - 1]!, chatId, params });
  return true;
}

/**
 * Sends the grouped message of every owner whose burst window has closed and who has pending
 * matches. Runs from a job every few seconds; safe to run any time (idempotent per pending row).
 * Returns the number of messages queued.
 */
export async function flushTrackerNotifications(deps: Pick<Deps, "asyncDb" | "clock">): Promise<number> {
  const now = deps.clock.now();
  const { trackerMatches, trackers } = deps.asyncDb.tables;
  const owners = await deps.asyncDb
    .selectDistinct({ userId: trackers.userId })
    .from(trackerMatches)
    .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
    .where(and(eq(trackerMatches.notifyPending, true), INSTANT_BOT(trackers)))
    .orderBy(trackers.userId);
  let sent = 0;
  // an owner per transaction: one owner's notifications never wait for another's
  for (const { userId } of owners)
    if (
      await transaction(deps.asyncDb, async (tx) => {
        await holdOwner(tx, userId);
        return !(await recentlyNotified(tx, userId, now)) && (await flushOwner(tx, userId, now));
      })
    )
      sent++;
  return sent;
}

/** Notifies, inside `tx`, that a matched post was deleted (trackers with notify_on_delete). */
export async function notifyDeleted(tx: AsyncTx, now: Date, tracker: TrackerRow, m: MatchRow): Promise<void> {
  if (!tracker.notifyOnDelete) return;
  if (tracker.notifyVia === "webhook") {
    if (tracker.webhookUrl)
      await queueWebhook(tx, now, {
        userId: tracker.userId,
        topic: "tracker_webhook",
        refId: tracker.id,
        url: tracker.webhookUrl,
        method: "POST",
        data: webhookPayload("post_deleted", tracker, m),
      });
    return;
  }
  const { chatId, lang } = await ownerChat(tx, tracker.userId);
  if (chatId === null) return;
  const text = [
    t(lang, "notify-deleted", { tracker: Bun.escapeHTML(tracker.name) }),
    `📣 ${sourceLine(lang, m)}`,
    "",
    highlight(m.textSnippet, m.matchedKeyword),
  ].join("\n");
  await queueBotMessage(tx, now, {
    userId: tracker.userId,
    topic: "tracker_deleted",
    refId: m.id,
    chatId,
    params: { text, parse_mode: "HTML" },
  });
}

/**
 * POST /api/tracking/:id/test: queues a sample notification through the tracker's channel (a bot
 * message marked as a test, or a keyword_match webhook with `test: true` and match id 0).
 */
export async function sendTestNotification(deps: Deps, userId: number, trackerId: number): Promise<void> {
  const tracker = await getTracker(deps, userId, trackerId);
  const now = deps.clock.now();
  const owner = await ownerChat(deps.asyncDb, userId);
  const lang = owner.lang;
  const sample: MatchRow = {
    id: 0,
    trackerId,
    sourceChatId: "-1000000000000",
    sourceTitle: t(lang, "notify-test-channel"),
    sourceUsername: null,
    sourceMessageId: 1,
    textSnippet: t(lang, "notify-test-text", { keyword: tracker.keyword }),
    matchedKeyword: tracker.keyword,
    postUrl: null,
    linkId: null,
    inviteId: null,
    isDeleted: false,
    noLongerMatches: false,
    isRead: false,
    detectedAt: now,
    notifyPending: false,
  };
  const db = deps.asyncDb;
  {
    if (tracker.notifyVia === "webhook" && tracker.webhookUrl) {
      await queueWebhook(db, now, {
        userId,
        topic: "tracker_webhook",
        refId: tracker.id,
        url: tracker.webhookUrl,
        method: "POST",
        data: { ...webhookPayload("keyword_match", tracker, sample), test: true },
      });
      return;
    }
    if (!deps.config.botToken) throw new NotConfigured("The bot is not configured (BOT_TOKEN), so bot notifications cannot be sent");
    if (tracker.notifyVia === "chat" && tracker.notifyChatId) {
      const { text, parse_mode } = matchMessage(lang, tracker, sample);
      const params = chatMessage(lang, { text: `${t(lang, "notify-test")}\n${text}`, parse_mode }, null, tracker.notifyThreadId);
      await queueBotMessage(db, now, { userId, topic: "tracker_test", refId: tracker.id, chatId: tracker.notifyChatId, params });
      return;
    }
    const { chatId } = owner;
    if (chatId === null)
      throw new FieldError("notify_via", "your account has no Telegram chat; sign in with Telegram once or notify via a webhook");
    const { text, parse_mode } = matchMessage(lang, tracker, sample);
    await queueBotMessage(db, now, {
      userId,
      topic: "tracker_test",
      refId: tracker.id,
      chatId,
      params: { text: `${t(lang, "notify-test")}\n${text}`, parse_mode },
    });
  }
}
