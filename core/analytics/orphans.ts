import { and, count, desc, eq, gte, lt, max } from "drizzle-orm";
import type { Deps } from "../deps";
import { first } from "../../db/async";
import { parsePeriod, periodRange } from "./range";

/** Most codes one answer of orphanVisitsOf lists (the most visited first); `total` counts them all. */
export const ORPHAN_CODES_MAX = 100;

/**
 * `GET /api/orphan-visits?period=`: the caller's orphan visits of the period (default 30d) by code:
 * `{total, items: [{code, count, lastAt}]}`, most visited first, at most ORPHAN_CODES_MAX codes;
 * `total` is the number of visits. Only visits attributed to the caller are ever counted.
 */
export async function orphanVisitsOf(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, q: { period?: string }) {
  const { orphanVisits } = deps.asyncDb.tables;
  const period = parsePeriod(q.period);
  const now = deps.clock.now().getTime();
  const range = periodRange(period, now, 0);
  const where = and(eq(orphanVisits.userId, userId), gte(orphanVisits.visitedAt, new Date(range.from)), lt(orphanVisits.visitedAt, new Date(range.to)));
  const total = Number(first(await deps.asyncDb.select({ n: count() }).from(orphanVisits).where(where))!.n);
  const rows = await deps.asyncDb
    .select({ code: orphanVisits.code, count: count(), lastAt: max(orphanVisits.visitedAt) })
    .from(orphanVisits).where(where).groupBy(orphanVisits.code)
    .orderBy(desc(count()), desc(max(orphanVisits.visitedAt)), orphanVisits.code).limit(ORPHAN_CODES_MAX);
  // max() reads back through the column (a Date on both databases)
  return { total, items: rows.map((r) => ({ code: r.code, count: Number(r.count), lastAt: new Date(r.lastAt!).toISOString() })) };
}
