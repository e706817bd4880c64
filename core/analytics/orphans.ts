import { and, count, desc, eq, gte, lt, max } from "drizzle-orm";
import type { Deps } from "../deps";
import { orphanVisits } from "../../db/schema";
import { parsePeriod, periodRange } from "./range";

/** Most codes one answer of orphanVisitsOf lists (the most visited first); `total` counts them all. */
export const ORPHAN_CODES_MAX = 100;

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
