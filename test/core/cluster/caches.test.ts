/**
 * Caches across nodes (core/cluster/caches.ts, app/cache-followers.ts): an edit on one node drops
 * the link cache, the ended-sign-in set and a person's standing in a chat on every node within a second, through LISTEN/NOTIFY on a
 * real PostgreSQL.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { announce, CACHE_TOPICS, followCaches, invalidateLinkCache } from "../../../core/cluster/caches";
import { CACHE_FOLLOWERS } from "../../../app/cache-followers";
import type { Deps } from "../../../core/deps";
import type { MatchHost } from "../../../core/tracking/match-host";
import { createPgChangeBus } from "../../../core/cluster/change-bus-pg";
import type { Cluster } from "../../../core/cluster";
import { systemClock } from "../../../core/clock";
import { LinkCache, type CachedLink } from "../../../core/redirect/link-cache";
import type { RevokedSessions } from "../../../core/auth/revoked-sessions";
import { createLogger } from "../../../core/log";
import { StandingCache } from "../../../core/channels/standing";
import { eventually } from "../../helpers/eventually";
import { startPostgres, type PgServer } from "../../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
const pools: SQL[] = [];
beforeAll(async () => void (pg = await startPostgres()));
afterAll(async () => {
  for (const p of pools) await p.close();
  await pg?.stop();
});

/** A node: its own pool, bus, link cache and a count of ended-sign-in reloads. */
function node() {
  const sql = new SQL(pg.url, { max: 2 });
  pools.push(sql);
  let reloads = 0;
  let rebuilds = 0;
  const revokedSessions = { invalidate: () => void reloads++ } as unknown as RevokedSessions;
  // the keyword index is not built on these nodes: a change naming trackers has nothing to update, one naming none drops it
  const trackerIndex = { apply: async () => {}, drop: () => void rebuilds++ } as unknown as MatchHost;
  const deps = {
    cluster: { nodeId: crypto.randomUUID(), bus: createPgChangeBus(sql) } as unknown as Cluster,
    log: createLogger("error", () => {}),
    linkCache: new LinkCache(systemClock),
    revokedSessions,
    trackerIndex,
  } as unknown as Deps;
  // a standing Telegram reported on this node is announced, so the others ask Telegram again
  deps.chatStandings = new StandingCache(systemClock, (key) => announce(deps, CACHE_TOPICS.chatStandings, key));
  return {
    deps,
    reloads: () => reloads,
    rebuilds: () => rebuilds,
    cache: (code: string) => deps.linkCache.load(code, async () => ({}) as CachedLink),
  };
}

test("a link edit on one node empties every node's link cache within a second; an ended sign-in reloads every node's set", async () => {
  const [a, b, c] = [node(), node(), node()];
  const unfollow = await Promise.all([a, b, c].map((n) => followCaches(n.deps, CACHE_FOLLOWERS)));
  try {
    for (const n of [a, b, c]) await n.cache("spring");
    expect([a, b, c].map((n) => n.deps.linkCache.size)).toEqual([1, 1, 1]);
    const started = Date.now();
    invalidateLinkCache(a.deps);
    expect(a.deps.linkCache.size).toBe(0); // its own node at once
    await eventually(() => b.deps.linkCache.size === 0 && c.deps.linkCache.size === 0, "the other nodes to drop the link");
    expect(Date.now() - started).toBeLessThan(1000);

    // the announcing node applied its change itself; the others apply it from the bus
    announce(b.deps, CACHE_TOPICS.revokedSessions);
    await eventually(() => a.reloads() === 1 && c.reloads() === 1, "the other nodes to reload their ended sign-ins");
    expect(b.reloads()).toBe(0);

    // a chat_member update on one node: the others forget what Telegram said before and ask again
    for (const n of [a, b, c]) n.deps.chatStandings.remember("-100", 42, { holds: true });
    c.deps.chatStandings.learn("-100", 42, { holds: false, reason: "left" });
    await eventually(() => !a.deps.chatStandings.get("-100", 42) && !b.deps.chatStandings.get("-100", 42), "the other nodes to forget");
    expect(c.deps.chatStandings.get("-100", 42)).toEqual({ holds: false, reason: "left" });
  } finally {
    for (const u of unfollow) await u();
  }
});

test("a node that lost its listening connection drops every cache when it is back (it may have missed messages)", async () => {
  const n = node();
  const unfollow = await followCaches(n.deps, CACHE_FOLLOWERS);
  try {
    await n.cache("spring");
    expect(n.deps.linkCache.size).toBe(1);
    await pg.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%'");
    n.deps.chatStandings.remember("-100", 42, { holds: true });
    await eventually(
      () => n.deps.linkCache.size === 0 && n.reloads() > 0 && n.rebuilds() > 0 && !n.deps.chatStandings.get("-100", 42),
      "the gap to drop the caches",
      20_000,
    );
  } finally {
    await unfollow();
  }
});
