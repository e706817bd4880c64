import { and, eq, lte, sql } from "drizzle-orm";
import type { PgDb } from "../../db/postgres";
import { clusterCounters } from "../../db/schema-pg";
import { windowStart, type WindowCounters } from "./counters";

/**
 * Window counters shared by every node: one row per key and window, bumped with an atomic
 * upsert that returns the new count, so N nodes together allow exactly the limit.
 */
export function createPgWindowCounters(db: PgDb): WindowCounters {
  const where = (key: string, start: number) => and(eq(clusterCounters.key, key), eq(clusterCounters.windowStart, start));
  return {
    async hit(key, windowMs, now) {
      const start = windowStart(windowMs, now);
      const resetAt = new Date(start + windowMs);
      const [row] = await db
        .insert(clusterCounters)
        .values({ key, windowStart: start, count: 1, expiresAt: resetAt })
        .onConflictDoUpdate({
          target: [clusterCounters.key, clusterCounters.windowStart],
          set: { count: sql`${clusterCounters.count} + 1` },
        })
        .returning({ count: clusterCounters.count });
      return { count: row!.count, resetAt };
    },
    async count(key, windowMs, now) {
      const [row] = await db
        .select({ count: clusterCounters.count })
        .from(clusterCounters)
        .where(where(key, windowStart(windowMs, now)));
      return row?.count ?? 0;
    },
    async reset(key, windowMs, now) {
      await db.delete(clusterCounters).where(where(key, windowStart(windowMs, now)));
    },
    async sweep(now) {
      const gone = await db.delete(clusterCounters).where(lte(clusterCounters.expiresAt, now)).returning({ key: clusterCounters.key });
      return gone.length;
    },
  };
}
