import { eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { outbox } from "../../db/schema";
import type { OutboxRow } from "./outbox";
import type { Outcome } from "./send-row";
import type { TopicHandler } from "./topics";
import { writeTransaction } from "../../db/transaction";

/**
 * Records an attempt's outcome on a claimed row: done, cancelled, rescheduled (the next delay of
 * config.webhookRetryDelays after this attempt), or failed after the last attempt, in which case
 * the topic's final-failure hook runs in the same transaction.
 */
export function recordOutcome(deps: Deps, topics: Readonly<Record<string, TopicHandler>>, row: OutboxRow, outcome: Outcome): void {
  const now = deps.clock.now();
  const delays = deps.config.webhookRetryDelays;
  writeTransaction(deps.db, (tx) => {
    const set = (values: Partial<typeof outbox.$inferInsert>) => tx.update(outbox).set(values).where(eq(outbox.id, row.id)).run();
    if (outcome.type === "done" || outcome.type === "cancelled") {
      set({ status: outcome.type, attempts: row.attempts + (outcome.type === "done" ? 1 : 0), completedAt: now, lastError: outcome.note ?? null });
      return;
    }
    if (outcome.type === "later") {
      set({ status: "pending", nextAttemptAt: outcome.at, lastError: outcome.error });
      return;
    }
    const attempts = row.attempts + 1;
    if (!outcome.permanent && attempts <= delays.length) {
      set({ status: "pending", attempts, nextAttemptAt: new Date(now.getTime() + delays[attempts - 1]! * 1000), lastError: outcome.error });
      return;
    }
    set({ status: "failed", attempts, completedAt: now, lastError: outcome.error, failureCounted: true });
    // once per delivery: a redelivered one that fails again was already counted
    if (!row.failureCounted) topics[row.topic]?.onFinalFailure?.(tx, deps, row);
  });
}
