import { and, between, count, desc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { trackerMatches, trackers } from "../../db/schema";
import { NotFound } from "../errors";
import { getTracker } from "./trackers";

export type MatchRow = typeof trackerMatches.$inferSelect;

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
    is_read: m.isRead,
    detected_at: m.detectedAt.toISOString(),
  };
}

/** A page of a tracker's matches, newest first, with the total. */
export function listMatches(deps: Pick<Deps, "db">, userId: number, trackerId: number, limit = 20, offset = 0) {
  getTracker(deps, userId, trackerId);
  const where = eq(trackerMatches.trackerId, trackerId);
  const items = deps.db.select().from(trackerMatches).where(where).orderBy(desc(trackerMatches.id)).limit(limit).offset(offset).all();
  const total = deps.db.select({ n: count() }).from(trackerMatches).where(where).get()!.n;
  return { items: items.map(matchResponse), total };
}

export function unreadCount(deps: Pick<Deps, "db">, userId: number, trackerId: number): number {
  getTracker(deps, userId, trackerId);
  return deps.db.select({ n: count() }).from(trackerMatches).where(and(eq(trackerMatches.trackerId, trackerId), eq(trackerMatches.isRead, false))).get()!.n;
}

/** Marks every match of the tracker read. */
export function markAllRead(deps: Pick<Deps, "db">, userId: number, trackerId: number): void {
  getTracker(deps, userId, trackerId);
  deps.db.update(trackerMatches).set({ isRead: true }).where(and(eq(trackerMatches.trackerId, trackerId), eq(trackerMatches.isRead, false))).run();
}

/** Marks matches read by id (the notification's button); only the user's own. Returns how many. */
export function markMatchesRead(deps: Pick<Deps, "db">, userId: number, matchIds: number[]): number {
  if (!matchIds.length) return 0;
  const own = deps.db
    .select({ id: trackerMatches.id })
    .from(trackerMatches)
    .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
    .where(and(inArray(trackerMatches.id, matchIds), eq(trackers.userId, userId)))
    .all()
    .map((r) => r.id);
  if (!own.length) throw new NotFound("Match");
  deps.db.update(trackerMatches).set({ isRead: true }).where(inArray(trackerMatches.id, own)).run();
  return own.length;
}

/**
 * Marks the user's matches with ids from `from` to `to` read (a grouped notification's button). Only
 * matches of bot-notified trackers: a webhook tracker's matches in that range were never in the message.
 */
export function markMatchRangeRead(deps: Pick<Deps, "db">, userId: number, from: number, to: number): number {
  const ids = deps.db
    .select({ id: trackerMatches.id })
    .from(trackerMatches)
    .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
    .where(and(between(trackerMatches.id, from, to), eq(trackers.userId, userId), eq(trackers.notifyVia, "bot")))
    .all()
    .map((r) => r.id);
  return ids.length ? markMatchesRead(deps, userId, ids) : 0;
}
