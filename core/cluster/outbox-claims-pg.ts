import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Clock } from "../clock";
import type { PgDb } from "../../db/postgres";
import { outbox } from "../../db/schema-pg";
import type { OutboxClaims } from "./outbox-claims";

export interface PgOutboxOptions {
  /** how long a claim holds before another node may take the row (default 30 s) */
  leaseMs?: number;
}

/**
 * Outbox claims shared by the nodes. A claim moves due rows to `sending` with `next_attempt_at` set
 * to the lease's end, in one statement whose row lock skips rows another node is claiming at that
 * moment (`FOR UPDATE SKIP LOCKED`). A `sending` row whose lease has passed is due again. The lease
 * end doubles as the claim's token: settling checks it, so a node whose claim lapsed and was taken
 * over cannot overwrite the new holder's outcome.
 */
export function createPgOutboxClaims(deps: { db: PgDb; clock: Clock }, options: PgOutboxOptions = {}): OutboxClaims {
  const leaseMs = options.leaseMs ?? 30_000;
  return {
    async claim(limit) {
      const now = deps.clock.now();
      const leaseUntil = new Date(now.getTime() + leaseMs);
      const due = deps.db
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(inArray(outbox.status, ["pending", "sending"]), lte(outbox.nextAttemptAt, now)))
        .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
        .limit(limit)
        .for("update", { skipLocked: true });
      const rows = await deps.db
        .update(outbox)
        .set({ status: "sending", nextAttemptAt: leaseUntil })
        .where(inArray(outbox.id, due))
        .returning();
      rows.sort((a, b) => a.id - b.id);
      return rows.map((row) => ({ row, leaseUntil }));
    },
    async settle(claim, values) {
      const done = await deps.db
        .update(outbox)
        .set(values)
        .where(and(eq(outbox.id, claim.row.id), eq(outbox.status, "sending"), eq(outbox.nextAttemptAt, claim.leaseUntil)))
        .returning({ id: outbox.id });
      return done.length === 1;
    },
  };
}

