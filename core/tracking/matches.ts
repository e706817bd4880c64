import { and, between, count, desc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, totalRows, type Tables } from "../../db/async";
import { NotFound } from "../errors";

export type MatchRow = Tables["trackerMatches"]["$inferSelect"];
type MatchDeps = Pick<Deps, "asyncDb">;

/** 404 unless tracker `id` is the user's (as getTracker answers). */
async function ownTracker(deps: MatchDeps, userId: number, id: number): Promise<void> {
  const { trackers } = deps.asyncDb.tables;
  if (
    !first(
      await deps.asyncDb
        .select({ id: trackers.id })
        .from(trackers)
        .where(and(eq(trackers.id, id), eq(trackers.userId, userId))),
    )
  )
    throw new NotFound("Tracker");
}

/** KeywordMatchResponse */
export function matchResponse(m: MatchRow) {
  return {
    id: m.id,
    tracker_id: m.trackerId,
    source_title: m.sourceTitle,
    source_username: m.sourceUsername,
    source_message_id: m.sourceMessageId,
    text_snippet: m.textSnippet,
    matched_keyword: m.matchedKeyword,
    post_url: m.postUrl,
    is_deleted: m.isDeleted,
    no_longer_matches: m.noLongerMatches,
    is_read: m.isRead,
    detected_at: m.detectedAt.toISOString(),
  };
}

/** A page of a tracker's matches, newest first, with the total. */
export async function listMatches(deps: MatchDeps, userId: number, trackerId: number, limit = 20, offset = 0) {
  await ownTracker(deps, userId, trackerId);
  const { trackerMatches } = deps.asyncDb.tables;
  const where = eq(trackerMatches.trackerId, trackerId);
  const rows = await deps.asyncDb
    .select({ match: trackerMatches, total: totalRows() })
    .from(trackerMatches)
    .where(where)
    .orderBy(desc(trackerMatches.id))
    .limit(limit)
    .offset(offset);
  const total =
    rows[0]?.total ?? (offset ? Number(first(await deps.asyncDb.select({ n: count() }).from(trackerMatches).where(where))!.n) : 0);
  return { items: rows.map((r) => matchResponse(r.match)), total };
}

export async function unreadCount(deps: MatchDeps, userId: number, trackerId: number): Promise<number> {
  await ownTracker(deps, userId, trackerId);
  const { trackerMatches } = deps.asyncDb.tables;
  return Number(
    first(
      await deps.asyncDb
        .select({ n: count() })
        .from(trackerMatches)
        .where(and(eq(trackerMatches.trackerId, trackerId), eq(trackerMatches.isRead, false))),
    )!.n,
  );
}

/** Marks every match of the tracker read; a read match is no longer waiting to be notified (grouped or digest). */
export async function markAllRead(deps: MatchDeps, userId: number, trackerId: number): Promise<void> {
  await ownTracker(deps, userId, trackerId);
  const { trackerMatches } = deps.asyncDb.tables;
  await deps.asyncDb
    .update(trackerMatches)
    .set({ isRead: true, notifyPending: false })
    .where(and(eq(trackerMatches.trackerId, trackerId), eq(trackerMatches.isRead, false)));
}

/** Marks matches read by id (the notification's button); only the user's own. Returns how many. */
export async function markMatchesRead(deps: MatchDeps, userId: number, matchIds: number[]): Promise<number> {
  if (!matchIds.length) return 0;
  const { trackerMatches, trackers } = deps.asyncDb.tables;
  const own = (
    await deps.asyncDb
      .select({ id: trackerMatches.id })
      .from(trackerMatches)
      .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
      .where(and(inArray(trackerMatches.id, matchIds), eq(trackers.userId, userId)))
  ).map((r) => r.id);
  if (!own.length) throw new NotFound("Match");
  await deps.asyncDb.update(trackerMatches).set({ isRead: true, notifyPending: false }).where(inArray(trackerMatches.id, own));
  return own.length;
}

/**
 * Marks the user's matches with ids from `from` to `to` read (a grouped notification's button). Only
 * matches of bot-notified trackers: a webhook tracker's matches in that range were never in the message.
 */
export async function markMatchRangeRead(deps: MatchDeps, userId: number, from: number, to: number): Promise<number> {
  const { trackerMatches, trackers } = deps.asyncDb.tables;
  const ids = (
    await deps.asyncDb
      .select({ id: trackerMatches.id })
      .from(trackerMatches)
      .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
      .where(and(between(trackerMatches.id, from, to), eq(trackers.userId, userId), eq(trackers.notifyVia, "bot")))
  ).map((r) => r.id);
  return ids.length ? markMatchesRead(deps, userId, ids) : 0;
}
