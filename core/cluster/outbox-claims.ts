import { and, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { changes } from "../../db/client";
import { outbox } from "../../db/schema";
import { claimDue, type OutboxRow } from "../delivery/outbox";

/** A row this node claimed, and until when the claim holds. */
export interface OutboxClaim {
  row: OutboxRow;
  leaseUntil: Date;
}

/** What an attempt's outcome writes on the row (see core/delivery/record.ts). */
export type OutboxSettlement = Partial<Pick<OutboxRow, "status" | "attempts" | "nextAttemptAt" | "lastError" | "completedAt" | "failureCounted">>;

/**
 * Claiming outbox rows for delivery. A claimed row is `sending` and belongs to the claimer until
 * it settles the row or, in a cluster, until its lease passes (its node died): then any node
 * claims it again. Receivers de-duplicate by delivery id, so a lease that passes while its slow
 * holder is still sending costs at most a duplicate, never a loss.
 */
export interface OutboxClaims {
  /** Claims up to `limit` due rows, oldest first; rows other nodes are claiming right now are skipped. */
  claim(limit: number): Promise<OutboxClaim[]>;
  /** Writes the outcome of a claimed row; false when the claim had lapsed and the row was not touched. */
  settle(claim: OutboxClaim, values: OutboxSettlement): Promise<boolean>;
}

/**
 * One node on SQLite: claims through the delivery worker's own query. Nothing else can hold a
 * claim, so there is no lease: rows a crash left `sending` are re-queued at the next start.
 */
export function createLocalOutboxClaims(deps: Pick<Deps, "db" | "clock">): OutboxClaims {
  return {
    async claim(limit) {
      return claimDue(deps, limit).map((row) => ({ row, leaseUntil: row.nextAttemptAt }));
    },
    async settle(claim, values) {
      return changes(deps.db.update(outbox).set(values).where(and(eq(outbox.id, claim.row.id), eq(outbox.status, "sending"))).run()) === 1;
    },
  };
}
