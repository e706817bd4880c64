import { and, desc, eq, gte, lt, max, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { first } from "../../db/async";
import { parsePeriod, periodRange } from "./range";

/** Most codes one answer of orphanVisitsOf lists (the most visited first); `total` counts them all. */
const ORPHAN_CODES_MAX = 100;

/**
 * `GET /api/orphan-visits?period=`: the caller's orphan visits of the period (default 30d) by code:
 * `{total, items: [{code, count, lastAt}]}`, most visited first, at most ORPHAN_CODES_MAX codes;
 * `total` is the number of visits. Visits are counted per UTC day, so a period covers the whole days
 * it touches. Only visits attributed to the caller are ever counted.
 */
export async function orphanVisitsOf(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, q: { period?: string }) {
  const { orphanVisitDays: days } = deps.asyncDb.tables;
  const period = parsePeriod(q.period);
  const now = deps.clock.now().getTime();
  const range = periodRange(period, now, 0);
  const fromDay = Math.floor(range.from / 86_400_000) * 86_400_000;
  const where = and(eq(days.userId, userId), gte(days.day, new Date(fromDay)), lt(days.day, new Date(range.to)));
  const visits = sql<number>`sum(${days.visits})`;
  const total = Number(first(await deps.asyncDb.select({ n: visits }).from(days).where(where))!.n ?? 0);
  const rows = await deps.asyncDb
    .select({ code: days.code, count: visits, lastAt: max(days.lastAt) })
    .from(days)
    .where(where)
    .groupBy(days.code)
    .orderBy(desc(visits), desc(max(days.lastAt)), days.code)
    .limit(ORPHAN_CODES_MAX);
  // max() reads back through the column (a Date on both databases)
  return { total, items: rows.map((r) => ({ code: r.code, count: Number(r.count), lastAt: new Date(r.lastAt!).toISOString() })) };
}
