import { and, count, desc, eq, gte, isNull, lt, max, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { changes } from "../../db/client";
import { domains, linkTombstones, orphanVisits, type LinkRow } from "../../db/schema";
import { parsePeriod, periodRange } from "../analytics/range";

/** Most codes one answer of orphanVisitsOf lists (the most visited first); `total` counts them all. */
export const ORPHAN_CODES_MAX = 100;

/**
 * Records visits to SHORT_URL/<code> that found no active link, one row each, written at once (a
 * 404 is rare next to redirects, and the row is small). Who may see a visit is decided here: the
 * owner of the disabled link (`disabled`), else of the deleted link that had the code, else of the
 * custom domain the request came in on; nobody (null) for an unknown code on the service's own host.
 * Nothing about the visitor is stored. A failure to write is logged and never changes the 404.
 */
export function createOrphanRecorder(deps: Pick<Deps, "db" | "clock" | "log">) {
  const tombstone = deps.db.select({ userId: linkTombstones.userId }).from(linkTombstones).where(eq(linkTombstones.code, sql.placeholder("code"))).prepare();
  const domainOwner = deps.db.select({ userId: domains.userId }).from(domains).where(eq(domains.hostname, sql.placeholder("host"))).prepare();
  const insert = deps.db.insert(orphanVisits).values({
    userId: sql.placeholder("userId"), code: sql.placeholder("code"), host: sql.placeholder("host"), visitedAt: sql.placeholder("at"),
  }).prepare();
  return (code: string, host: string | null, disabled: LinkRow | null): void => {
    try {
      const userId = disabled?.userId ?? tombstone.get({ code })?.userId ?? (host ? domainOwner.get({ host })?.userId : undefined) ?? null;
      insert.run({ userId, code: code.slice(0, 64), host: host?.slice(0, 253) ?? null, at: deps.clock.now() });
    } catch (e) {
      deps.log.error("orphan visit not recorded", e);
    }
  };
}

/**
 * `GET /api/orphan-visits?period=`: the caller's orphan visits of the period (default 30d) by code:
 * `{total, items: [{code, count, lastAt}]}`, most visited first, at most ORPHAN_CODES_MAX codes;
 * `total` is the number of visits. Only visits attributed to the caller are ever counted.
 */
export function orphanVisitsOf(deps: Pick<Deps, "db" | "clock">, userId: number, q: { period?: string }) {
  const period = parsePeriod(q.period);
  const now = deps.clock.now().getTime();
  const range = periodRange(period, now, 0);
  const where = and(eq(orphanVisits.userId, userId), gte(orphanVisits.visitedAt, new Date(range.from)), lt(orphanVisits.visitedAt, new Date(range.to)));
  const total = deps.db.select({ n: count() }).from(orphanVisits).where(where).get()!.n;
  const rows = deps.db
    .select({ code: orphanVisits.code, count: count(), lastAt: max(orphanVisits.visitedAt) })
    .from(orphanVisits).where(where).groupBy(orphanVisits.code)
    .orderBy(desc(count()), desc(max(orphanVisits.visitedAt)), orphanVisits.code).limit(ORPHAN_CODES_MAX).all();
  return { total, items: rows.map((r) => ({ code: r.code, count: r.count, lastAt: new Date(Number(r.lastAt)).toISOString() })) };
}

/** How long visits that belong to no account (unknown codes on the service's own host) are kept. */
export const UNOWNED_ORPHAN_DAYS = 30;

/**
 * Deletes orphan visits that belong to nobody and are older than UNOWNED_ORPHAN_DAYS: no user can
 * see them, and a scan of random codes would otherwise grow the table without end. Visits that
 * belong to a user are kept like clicks. Returns how many went.
 */
export function pruneUnownedOrphanVisits(deps: Pick<Deps, "db" | "clock">): number {
  const before = new Date(deps.clock.now().getTime() - UNOWNED_ORPHAN_DAYS * 86_400_000);
  return changes(deps.db.delete(orphanVisits).where(and(isNull(orphanVisits.userId), lt(orphanVisits.visitedAt, before))).run());
}
