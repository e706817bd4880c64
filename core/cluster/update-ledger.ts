import type { Clock } from "../clock";

/**
 * Telegram updates in webhook mode: Telegram sends an update again when it did not get a 200 in
 * time, and with several nodes the second delivery may reach another node. The ledger makes each
 * update handled once: a node takes it with a lease, handles it, marks it done.
 *
 * - `handle`: this node handles it now, then calls `done` (or `release` when handling failed);
 * - `done`: already handled: answer 200 and do nothing;
 * - `busy`: another node is handling it right now: answer 503 so Telegram sends it again later
 *   (if that node dies, its lease passes and the next delivery is handled).
 */
type UpdateTurn = "handle" | "done" | "busy";

export interface UpdateLedger {
  take(updateId: number): Promise<UpdateTurn>;
  done(updateId: number): Promise<void>;
  /** Handling failed: the next delivery of the update is handled again. */
  release(updateId: number): Promise<void>;
  /** Forgets updates first seen before `before` (Telegram stops resending after 24 hours). */
  sweep(before: Date): Promise<number>;
}

export interface UpdateLedgerOptions {
  /** how long a node may take to handle an update before another may (default 60 s) */
  leaseMs?: number;
}

/** One node: the ledger in process memory (a resend can arrive while the first is being handled). */
export function createLocalUpdateLedger(clock: Clock, options: UpdateLedgerOptions = {}): UpdateLedger {
  const leaseMs = options.leaseMs ?? 60_000;
  const seen = new Map<number, { leaseUntil: number; done: boolean; firstSeen: number }>();
  return {
    async take(id) {
      const now = clock.now().getTime();
      const row = seen.get(id);
      if (row?.done) return "done";
      if (row && row.leaseUntil > now) return "busy";
      seen.set(id, { leaseUntil: now + leaseMs, done: false, firstSeen: row?.firstSeen ?? now });
      return "handle";
    },
    async done(id) {
      const row = seen.get(id);
      if (row) row.done = true;
    },
    async release(id) {
      const row = seen.get(id);
      if (row && !row.done) row.leaseUntil = 0;
    },
    async sweep(before) {
      let n = 0;
      for (const [id, row] of seen) if (row.firstSeen < before.getTime()) n += Number(seen.delete(id));
      return n;
    },
  };
}
