/**
 * The caches each node keeps and how a change announced by another node reaches them (the change
 * bus, core/cluster/caches.ts), listed where the app is wired: the redirect's link cache and the
 * ended sign-ins are dropped and read again; the keyword index takes the changed trackers into its
 * overlay, or is rebuilt when the change named none; a person's standing in a chat is asked of
 * Telegram again.
 */
import { CACHE_TOPICS, type CacheFollower } from "../core/cluster/caches";
import { applyTrackerChange } from "../core/tracking/index-cache";

export const CACHE_FOLLOWERS: readonly CacheFollower[] = [
  { topic: CACHE_TOPICS.links, apply: (deps) => deps.linkCache.invalidate(), drop: (deps) => deps.linkCache.invalidate() },
  // the ended sign-ins' ids come with the message: they join the set without a read of the table
  {
    topic: CACHE_TOPICS.revokedSessions,
    apply: (deps, detail) => (detail ? deps.revokedSessions.remember(detail.split(",")) : deps.revokedSessions.invalidate()),
    drop: (deps) => deps.revokedSessions.invalidate(),
  },
  {
    topic: CACHE_TOPICS.trackers,
    apply: (deps, detail) => applyTrackerChange(deps, detail ? detail.split(",").map(Number) : undefined),
    drop: (deps) => deps.trackerIndex.drop(),
  },
  // a person's standing in a chat changed (a chat_member update on another node): ask Telegram again
  {
    topic: CACHE_TOPICS.chatStandings,
    apply: (deps, detail) => (detail ? deps.chatStandings.forget(detail) : deps.chatStandings.drop()),
    drop: (deps) => deps.chatStandings.drop(),
  },
];
