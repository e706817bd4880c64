import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { queueBotMessage, queueWebhook } from "../delivery/outbox";
import { matchResponse, type MatchRow } from "./matches";
import { getTracker, trackerResponse, type TrackerRow } from "./trackers";
import { FieldError, NotConfigured } from "../errors";
import { byPost, chatMessage, groupedMessage, highlight, matchMessage, sourceLine } from "./match-messages";
import { serializeOn, transaction, type AsyncDbOrTx, type AsyncTx } from "../../db/async";
import { t, type Language } from "../i18n/translate";
import { ownerChat } from "../accounts/users";
import { deliveryChats, queueToWorkspace } from "../team-chat/destinations";

/**
 * A bot notification to an owner who got another one less than this long ago waits, and every
 * match waiting for that owner goes out as one grouped message when the window closes
 * (`flushTrackerNotifications`). The waiting state is a column of the match, so a restart loses nothing.
 */
export const BURST_WINDOW_MS = 60_000;
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
  // an email-only account (a team with no group and no admin in Telegram) has no chat; the match is in the feed and API
  if (!viaBot.length || !(await deliveryChats(tx, userId)).length) return;
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
  const posts = byPost(items);
  const message = (lang: Language) =>
    posts.length === 1 ? matchMessage(lang, posts[0]!.trackers, posts[0]!.match, posts[0]!.ids) : groupedMessage(lang, posts);
  return (await queueToWorkspace(tx, now, { userId, topic: "tracker_notify", refId: ids[ids.length - 1]! }, message)) > 0;
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
  await queueToWorkspace(tx, now, { userId: tracker.userId, topic: "tracker_deleted", refId: m.id }, (lang) => ({
    text: [
      t(lang, "notify-deleted", { tracker: Bun.escapeHTML(tracker.name) }),
      `📣 ${sourceLine(lang, m)}`,
      "",
      highlight(m.textSnippet, m.matchedKeyword),
    ].join("\n"),
  }));
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
      const { text } = matchMessage(lang, tracker, sample);
      const params = chatMessage(lang, { text: `${t(lang, "notify-test")}\n${text}` }, null, tracker.notifyThreadId);
      await queueBotMessage(db, now, { userId, topic: "tracker_test", refId: tracker.id, chatId: tracker.notifyChatId, params });
      return;
    }
    const to = await deliveryChats(db, userId);
    if (!to.length)
      throw new FieldError("notify_via", "your account has no Telegram chat; sign in with Telegram once or notify via a webhook");
    await queueToWorkspace(
      db,
      now,
      { userId, topic: "tracker_test", refId: tracker.id },
      (l) => {
        const inL = {
          ...sample,
          sourceTitle: t(l, "notify-test-channel"),
          textSnippet: t(l, "notify-test-text", { keyword: tracker.keyword }),
        };
        const { text } = matchMessage(l, tracker, inL);
        return { text: `${t(l, "notify-test")}\n${text}` };
      },
      to,
    );
  }
}
