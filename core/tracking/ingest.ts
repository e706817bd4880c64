import { and, eq, inArray, lte, sql, notInArray } from "drizzle-orm";
import type { Deps } from "../deps";
import type { IndexedTracker } from "./index-cache";
import { detectLanguage } from "./language";
import { excerpt } from "./matcher";
import { nfkcToRaw, normalise } from "./normalise";
import { notifyDeleted, notifyMatches } from "./notify";
import { postUrl, refMatches, sourceForPost, type ChatInfo, type SourceRow } from "./sources";
import type { MatchRow } from "./matches";
import { transaction, type AsyncDbOrTx } from "../../db/async";
import { privateChatOwners } from "../channels/ownership";
import { findOwnLinks, type CarriedUrl } from "./link-watch";
import { placementPostSeen } from "../placements/views";
import type { MatchExcerpt } from "./matcher";
import { noticeOverBudget } from "./over-budget";

/** A message or channel post from any source (the bot, MTProto), as the matcher takes it. */
export interface IncomingPost {
  chat: ChatInfo;
  messageId: number;
  /** the text, or the caption of a media message */
  text: string;
  /** forwarded from elsewhere (the Bot API's `forward_origin`): trackers with skip_reposts pass it by */
  forwarded?: boolean;
  /** URLs the post carries outside its visible text: behind text links (`text_link` entities) and on buttons */
  carriedUrls?: CarriedUrl[];
  /** an edit of a post seen before: its matches that no longer hold are marked, with the new text */
  edited?: boolean;
}

/** How much of an edited post that no longer matches its match keeps (code points). */
const EDITED_SNIPPET = 200;

/**
 * An edited post's matches of trackers it no longer matches (`still` are those it does): marked, and
 * their snippet shows the edited text, so a feed never shows words the post no longer has.
 */
async function markNoLongerMatching(db: AsyncDbOrTx, chatId: string, messageId: number, text: string, still: number[]): Promise<void> {
  const { trackerMatches } = db.tables;
  const chars = Array.from(text);
  const snippet = chars.length > EDITED_SNIPPET ? `${chars.slice(0, EDITED_SNIPPET - 1).join("")}…` : text;
  await db
    .update(trackerMatches)
    .set({ noLongerMatches: true, textSnippet: snippet, matchedKeyword: null })
    .where(
      and(
        eq(trackerMatches.sourceChatId, chatId),
        eq(trackerMatches.sourceMessageId, messageId),
        still.length ? notInArray(trackerMatches.trackerId, still) : undefined,
      ),
    );
}

/** A tracker's reason to match a post: its keyword (positions in the NFKC text) or, for watch_links, one of its owner's links. */
interface Hit {
  tracker: IndexedTracker;
  start: number;
  end: number;
  link?: { linkId: number | null; inviteId: number | null; shown: MatchExcerpt };
}

/** The keyword hits, and for watch_links trackers the first of their owner's links the post carries (which wins over a keyword hit, so the placement is recorded). */
async function withLinkHits(
  deps: Pick<Deps, "asyncDb" | "config">,
  watchers: IndexedTracker[],
  post: IncomingPost,
  hits: Hit[],
): Promise<Hit[]> {
  if (!watchers.length) return hits;
  const found = await findOwnLinks(deps, new Set(watchers.map((t) => t.userId)), post.text, post.carriedUrls);
  if (!found.length) return hits;
  const linkHits = new Map<number, Hit>();
  for (const t of watchers) {
    const first = found.find((f) => f.userId === t.userId);
    if (first)
      linkHits.set(t.id, { tracker: t, start: 0, end: 0, link: { linkId: first.linkId, inviteId: first.inviteId, shown: first.shown } });
  }
  return [...hits.filter((h) => !linkHits.has(h.tracker.id)), ...linkHits.values()];
}

/** Texts that differ only in what normalisation ignores (case, ё, invisible characters, spacing) are one text. */
const textKey = (text: string) => new Bun.CryptoHasher("sha256").update(normalise(text).trim()).digest("base64");
/** A skip_reposts tracker does not match a copy of a text it matched less than this long ago. */
const COPY_WINDOW_MS = 24 * 3600_000;

/** Whether a tracker's source and filter settings admit a post from `source`. Unknown metadata never matches. */
function admits(t: IndexedTracker, source: SourceRow, language: () => string | null): boolean {
  if (source.type === "channel" ? !t.searchChannels : !t.searchChats) return false;
  if (t.include && !t.include.some((r) => refMatches(r, source))) return false;
  if (t.exclude?.some((r) => refMatches(r, source))) return false;
  if (t.filterMinSubscribers !== null && (source.memberCount ?? -1) < t.filterMinSubscribers) return false;
  if (t.filterGeo !== null && source.geo !== t.filterGeo) return false;
  if (t.filterCategory !== null && source.category !== t.filterCategory) return false;
  if (t.filterLanguage !== null && language() !== t.filterLanguage) return false;
  return true;
}

/**
 * Matches a post (new or edited) against every enabled tracker, once. For each tracker that matches
 * and admits the source: a new match is recorded (total_matches + 1) and its owner notified, in one
 * transaction; a match that already exists for that message (an edit) gets the new snippet.
 * Returns the matches created or updated.
 */
export async function ingestPost(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "log" | "trackerIndex" | "telegram" | "chatStandings">,
  post: IncomingPost,
): Promise<MatchRow[]> {
  const source = await sourceForPost(deps, post.chat); // also records chats the bot joined before it tracked them
  // in the matcher's thread: however costly the text, this thread goes on answering meanwhile
  const matched = await deps.trackerIndex.match(post.text);
  const text = matched.text;
  const hits = await withLinkHits(deps, matched.watchers, post, matched.hits);
  deps.trackerIndex.recent.add({
    chatId: source.chatId,
    messageId: post.messageId,
    title: source.title,
    username: source.username,
    text: post.text,
    forwarded: post.forwarded === true,
  });
  if (!hits.length && !matched.over.length) {
    if (post.edited) await markNoLongerMatching(deps.asyncDb, source.chatId, post.messageId, post.text, []);
    return [];
  }
  let lang: string | null | undefined;
  const language = () => (lang === undefined ? (lang = detectLanguage(text)) : lang);
  // a chat without a public username feeds only the accounts that own it as a channel
  const owners = source.username ? null : await privateChatOwners(deps, source.chatId);
  const sees = (t: IndexedTracker) =>
    (!owners || owners.has(t.userId)) && !(post.forwarded && t.skipReposts) && admits(t, source, language);
  // trackers that would have cost more than their budget on this post are skipped, their owners told once;
  // an edit leaves their matches as they were (whether the edit still matches is not known)
  await noticeOverBudget(deps, matched.over.filter(sees));
  const skipped = matched.over.map((t) => t.id);
  // by owner: the transaction holds each owner's notification state in one order on every node
  const admitted = hits.filter((h) => sees(h.tracker)).sort((a, b) => a.tracker.userId - b.tracker.userId || a.tracker.id - b.tracker.id);
  if (!admitted.length) {
    if (post.edited) await markNoLongerMatching(deps.asyncDb, source.chatId, post.messageId, post.text, skipped);
    return [];
  }
  const now = deps.clock.now();
  const url = postUrl(source, post.messageId);
  // a placement's links or invites in a public post: that post is the ad (its views are read from
  // then on); a forwarded copy is someone passing the ad on, not the ad
  if (url && !post.forwarded)
    await placementPostSeen(
      deps,
      admitted.flatMap((h) => (h.link ? [h.link] : [])),
      url,
    );
  // snippets show the text as written; the hits' positions are in its NFKC form
  const toRaw = nfkcToRaw(post.text, text);
  const shown = (hit: Hit) =>
    hit.link?.shown ?? (toRaw ? excerpt(post.text, ...toRaw(hit.start, hit.end)) : excerpt(text, hit.start, hit.end));
  const { trackers, trackerMatches, trackerSeenTexts } = deps.asyncDb.tables;
  let key: string | undefined;
  return transaction(deps.asyncDb, async (tx) => {
    const out: MatchRow[] = [];
    // new matches by owner (in owner order), each owner notified once: one message per post
    const created = new Map<number, { tracker: typeof trackers.$inferSelect; match: MatchRow }[]>();
    for (const hit of admitted) {
      const [tracker] = await tx.select().from(trackers).where(eq(trackers.id, hit.tracker.id)).limit(1);
      if (!tracker?.isEnabled) continue;
      const { matchedKeyword, snippet } = shown(hit);
      const fields = {
        sourceTitle: source.title,
        sourceUsername: source.username,
        textSnippet: snippet,
        matchedKeyword,
        postUrl: url,
        ...(hit.link ? { linkId: hit.link.linkId, inviteId: hit.link.inviteId } : {}),
      };
      const [existing] = await tx
        .select({ id: trackerMatches.id })
        .from(trackerMatches)
        .where(
          and(
            eq(trackerMatches.trackerId, tracker.id),
            eq(trackerMatches.sourceChatId, source.chatId),
            eq(trackerMatches.sourceMessageId, post.messageId),
          ),
        )
        .limit(1);
      if (existing) {
        const [updated] = await tx
          .update(trackerMatches)
          .set({ ...fields, noLongerMatches: false })
          .where(eq(trackerMatches.id, existing.id))
          .returning();
        out.push(updated!);
        continue;
      }
      if (tracker.skipReposts) {
        // one statement on both databases: a text first seen, or last matched over 24 h ago, is (re)claimed; a copy is not
        const claimed = await tx
          .insert(trackerSeenTexts)
          .values({ trackerId: tracker.id, textHash: (key ??= textKey(text)), seenAt: now })
          .onConflictDoUpdate({
            target: [trackerSeenTexts.trackerId, trackerSeenTexts.textHash],
            set: { seenAt: now },
            setWhere: lte(trackerSeenTexts.seenAt, new Date(now.getTime() - COPY_WINDOW_MS)),
          })
          .returning({ trackerId: trackerSeenTexts.trackerId });
        if (!claimed.length) continue;
      }
      const [match] = await tx
        .insert(trackerMatches)
        .values({ trackerId: tracker.id, sourceChatId: source.chatId, sourceMessageId: post.messageId, detectedAt: now, ...fields })
        .returning();
      const [counted] = await tx
        .update(trackers)
        .set({ totalMatches: sql`${trackers.totalMatches} + 1` })
        .where(eq(trackers.id, tracker.id))
        .returning();
      const mine = created.get(tracker.userId) ?? [];
      created.set(tracker.userId, [...mine, { tracker: counted!, match: match! }]);
      out.push(match!);
    }
    for (const [userId, items] of created) await notifyMatches(tx, now, userId, items);
    if (post.edited)
      await markNoLongerMatching(tx, source.chatId, post.messageId, post.text, [...admitted.map((h) => h.tracker.id), ...skipped]);
    return out;
  });
}

/**
 * Deletes the texts skip_reposts trackers claimed more than 24 hours ago (COPY_WINDOW_MS): a copy of
 * such a text matches again anyway, so the rows only take room. One delete; two nodes running it at
 * once only find less to delete. Returns how many rows went.
 */
export async function pruneSeenTexts(deps: Pick<Deps, "asyncDb" | "clock">): Promise<number> {
  const { trackerSeenTexts } = deps.asyncDb.tables;
  const before = new Date(deps.clock.now().getTime() - COPY_WINDOW_MS);
  return (
    await deps.asyncDb
      .delete(trackerSeenTexts)
      .where(lte(trackerSeenTexts.seenAt, before))
      .returning({ trackerId: trackerSeenTexts.trackerId })
  ).length;
}

/**
 * Marks the matches of deleted posts `is_deleted` and sends post_deleted notifications for trackers
 * with notify_on_delete (once per match). Returns how many matches changed.
 */
export async function markPostsDeleted(deps: Pick<Deps, "asyncDb" | "clock">, chatId: string, messageIds: number[]): Promise<number> {
  if (!messageIds.length) return 0;
  const now = deps.clock.now();
  const { trackers, trackerMatches } = deps.asyncDb.tables;
  return transaction(deps.asyncDb, async (tx) => {
    // marked by one conditional update: of two nodes seeing the same deletion, one notifies
    const rows = await tx
      .update(trackerMatches)
      .set({ isDeleted: true })
      .where(
        and(
          eq(trackerMatches.sourceChatId, chatId),
          inArray(trackerMatches.sourceMessageId, messageIds),
          eq(trackerMatches.isDeleted, false),
        ),
      )
      .returning();
    rows.sort((a, b) => a.id - b.id);
    for (const m of rows) {
      const [tracker] = await tx.select().from(trackers).where(eq(trackers.id, m.trackerId)).limit(1);
      if (tracker) await notifyDeleted(tx, now, tracker, m);
    }
    return rows.length;
  });
}
