import { and, eq, lt, lte } from "drizzle-orm";
import type { Clock } from "../clock";
import type { PgDb } from "../../db/postgres";
import { clusterUpdates } from "../../db/schema-pg";
import type { UpdateLedger, UpdateLedgerOptions } from "./update-ledger";

/**
 * The update ledger shared by the nodes: taking an update is one upsert that succeeds for the
 * first node, or for a later one once the lease of an unfinished update has passed.
 */
export function createPgUpdateLedger(deps: { db: PgDb; clock: Clock }, options: UpdateLedgerOptions = {}): UpdateLedger {
  const leaseMs = options.leaseMs ?? 60_000;
  const { db } = deps;
  return {
    async take(updateId) {
      const now = deps.clock.now();
      const leaseUntil = new Date(now.getTime() + leaseMs);
      const taken = await db
        .insert(clusterUpdates)
        .values({ updateId, leaseUntil, createdAt: now })
        .onConflictDoUpdate({
          target: clusterUpdates.updateId,
          set: { leaseUntil },
          setWhere: and(eq(clusterUpdates.done, false), lte(clusterUpdates.leaseUntil, now)),
        })
        .returning({ updateId: clusterUpdates.updateId });
      if (taken.length) return "handle";
      const [row] = await db.select({ done: clusterUpdates.done }).from(clusterUpdates).where(eq(clusterUpdates.updateId, updateId));
      return row?.done ? "done" : "busy";
    },
    async done(updateId) {
      await db.update(clusterUpdates).set({ done: true }).where(eq(clusterUpdates.updateId, updateId));
    },
    async release(updateId) {
      await db
        .update(clusterUpdates)
        .set({ leaseUntil: new Date(0) })
        .where(and(eq(clusterUpdates.updateId, updateId), eq(clusterUpdates.done, false)));
    },
    async sweep(before) {
      const gone = await db
        .delete(clusterUpdates)
        .where(lt(clusterUpdates.createdAt, before))
        .returning({ updateId: clusterUpdates.updateId });
      return gone.length;
    },
  };
}
