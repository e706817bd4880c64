/**
 * The caches every node keeps, kept true across nodes through the change bus. A write updates its
 * own node's cache at once and announces the change on the cache's topic, tagged with this node's
 * id (`Cluster.nodeId`); every other node applies it when the message arrives, and drops every
 * cache when the bus reports a gap (messages may have been missed while its connection was down).
 * Which caches follow which topic is listed in the composition root (app/cache-followers.ts), so
 * this module imports no feature.
 */
import type { Deps } from "../deps";

/** The bus topic per cache. */
export const CACHE_TOPICS = {
  links: "link_cache",
  revokedSessions: "revoked_sessions",
  trackers: "tracker_index",
  chatStandings: "chat_standings",
} as const;

/** How a node applies a change announced by another (`detail`: what the announcer passed), and drops the cache on a gap. */
export interface CacheFollower {
  topic: string;
  apply(deps: Deps, detail: string): void;
  drop(deps: Deps): void;
}

/** Tells every other node that `topic`'s cache changed (after the write committed); failures are logged, not thrown. */
export function announce(deps: Pick<Deps, "cluster" | "log">, topic: string, detail = ""): void {
  deps.cluster.bus
    .publish(topic, `${deps.cluster.nodeId} ${detail}`)
    .catch((e) => deps.log.error(`change bus: could not announce ${topic}`, e));
}

/**
 * Call after any write that changes how a link answers (edit, toggle, delete, pixel removal, domain
 * changes): this node's link cache is dropped at once, and every other node's when the change bus
 * delivers the announcement.
 */
export function invalidateLinkCache(deps: Pick<Deps, "linkCache" | "cluster" | "log">): void {
  deps.linkCache.invalidate();
  announce(deps, CACHE_TOPICS.links);
}

/** Subscribes this node's caches to their topics; resolves with a function that unsubscribes. */
export async function followCaches(deps: Deps, followers: readonly CacheFollower[]): Promise<() => Promise<void>> {
  const dropAll = () => {
    deps.log.info("change bus: messages may have been missed; dropping every cache");
    for (const f of followers) f.drop(deps);
  };
  const stops: (() => Promise<void>)[] = [];
  for (const f of followers) {
    const onMessage = (payload: string) => {
      const space = payload.indexOf(" ");
      if (payload.slice(0, space) === deps.cluster.nodeId) return; // announced here: applied already
      try {
        f.apply(deps, payload.slice(space + 1));
      } catch (e) {
        deps.log.error(`change bus: could not apply a ${f.topic} change; dropping that cache`, e);
        f.drop(deps);
      }
    };
    stops.push(await deps.cluster.bus.subscribe(f.topic, { onMessage, onGap: dropAll }));
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
