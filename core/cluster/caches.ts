/**
 * The caches every node keeps, kept true across nodes through the change bus. A write invalidates
 * its own node's cache at once and publishes on the cache's topic; every node (on one node: the same
 * one) drops that cache when the message arrives, and drops all of them when the bus reports a gap
 * (messages may have been missed while its connection was down).
 */
import type { Deps } from "../deps";

/** The bus topic per cache. */
export const CACHE_TOPICS = { links: "link_cache", revokedSessions: "revoked_sessions" } as const;

type CacheDeps = Pick<Deps, "cluster" | "log" | "linkCache" | "revokedSessions">;

/** Tells every node that `topic`'s cache is stale (after the write committed); failures are logged, not thrown. */
export function announce(deps: Pick<Deps, "cluster" | "log">, topic: string, payload = ""): void {
  deps.cluster.bus.publish(topic, payload).catch((e) => deps.log.error(`change bus: could not announce ${topic}`, e));
}

/** Subscribes this node's caches to their topics; resolves with a function that unsubscribes. */
export async function followCaches(deps: CacheDeps): Promise<() => Promise<void>> {
  const drop = {
    [CACHE_TOPICS.links]: () => deps.linkCache.invalidate(),
    [CACHE_TOPICS.revokedSessions]: () => deps.revokedSessions.invalidate(),
  };
  const dropAll = () => {
    deps.log.info("change bus: messages may have been missed; dropping every cache");
    for (const f of Object.values(drop)) f();
  };
  const stops: (() => Promise<void>)[] = [];
  for (const [topic, f] of Object.entries(drop)) stops.push(await deps.cluster.bus.subscribe(topic, { onMessage: f, onGap: dropAll }));
  return async () => {
    for (const stop of stops) await stop();
  };
}
