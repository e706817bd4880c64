import type { Deps } from "../deps";
import { settleClaim, type OutboxRow, type Settlement } from "./outbox";
import type { Outcome } from "./send-row";
import type { TopicHandler } from "./topics";
import { transaction } from "../../db/async";

/**
 * Records an attempt's outcome on a claimed row: done, cancelled, rescheduled (the next delay of
 * config.webhookRetryDelays after this attempt), or failed after the last attempt, in which case
 * the topic's final-failure hook runs in the same transaction. Nothing is written when the claim
 * had lapsed and another node took the row over (false).
 */
export async function recordOutcome(
  deps: Deps,
  topics: Readonly<Record<string, TopicHandler>>,
  row: OutboxRow,
  outcome: Outcome,
): Promise<boolean> {
  const now = deps.clock.now();
  const delays = deps.config.webhookRetryDelays;
  const attempts = row.attempts + 1;
  let values: Settlement;
  let finalFailure = false;
  if (outcome.type === "done" || outcome.type === "cancelled")
    values = {
      status: outcome.type,
      attempts: row.attempts + (outcome.type === "done" ? 1 : 0),
      completedAt: now,
      lastError: outcome.note ?? null,
    };
  else if (outcome.type === "later") values = { status: "pending", nextAttemptAt: outcome.at, lastError: outcome.error };
  else if (!outcome.permanent && attempts <= delays.length)
    values = {
      status: "pending",
      attempts,
      nextAttemptAt: new Date(now.getTime() + delays[attempts - 1]! * 1000),
      lastError: outcome.error,
    };
  else {
    values = { status: "failed", attempts, completedAt: now, lastError: outcome.error, failureCounted: true };
    // once per delivery: a redelivered one that fails again was already counted
    finalFailure = !row.failureCounted;
  }
  return transaction(deps.asyncDb, async (tx) => {
    if (!(await settleClaim(tx, row, values))) return false;
    if (finalFailure) await topics[row.topic]?.onFinalFailure?.(tx, deps, row);
    return true;
  });
}
