import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Deps } from "../deps";
import { outbox } from "../../db/schema";
import { changes } from "../../db/client";

type Tx = Pick<Deps["db"], "insert">;

export interface WebhookJob {
  userId: number | null;
  topic: string;
  refId?: number | null;
  url: string;
  method?: "GET" | "POST";
  /** the JSON body (POST) or the query parameters (GET) */
  data: Record<string, unknown>;
}

/** Queues a webhook delivery. Call it inside the transaction that records its cause. */
export function enqueueWebhook(tx: Tx, now: Date, job: WebhookJob): string {
  const deliveryId = randomUUID();
  tx.insert(outbox)
    .values({
      deliveryId,
      userId: job.userId,
      kind: "webhook",
      topic: job.topic,
      refId: job.refId ?? null,
      target: job.url,
      method: job.method ?? "POST",
      payload: job.data,
      nextAttemptAt: now,
      createdAt: now,
    })
    .run();
  return deliveryId;
}

export interface BotMessageJob {
  userId: number | null;
  topic: string;
  refId?: number | null;
  chatId: number | string;
  /** Bot API method, e.g. sendMessage */
  method?: string;
  /** Bot API parameters without chat_id */
  params: Record<string, unknown>;
}

/** Queues a Bot API call (a notification to a user). Call it inside the transaction that causes it. */
export function enqueueBotMessage(tx: Tx, now: Date, job: BotMessageJob): string {
  const deliveryId = randomUUID();
  tx.insert(outbox)
    .values({
      deliveryId,
      userId: job.userId,
      kind: "bot",
      topic: job.topic,
      refId: job.refId ?? null,
      target: String(job.chatId),
      method: job.method ?? "sendMessage",
      payload: job.params,
      nextAttemptAt: now,
      createdAt: now,
    })
    .run();
  return deliveryId;
}

export type OutboxRow = typeof outbox.$inferSelect;

/** Due rows, oldest first, claimed (status → sending) so no other tick takes them. */
export function claimDue(deps: Pick<Deps, "db" | "clock">, limit: number): OutboxRow[] {
  return deps.db.transaction((tx) => {
    const rows = tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, deps.clock.now())))
      .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
      .limit(limit)
      .all();
    if (rows.length) tx.update(outbox).set({ status: "sending" }).where(inArray(outbox.id, rows.map((r) => r.id))).run();
    return rows;
  });
}

/** After a crash, rows left in `sending` go back to pending (receivers de-duplicate by delivery id). */
export function requeueInterrupted(deps: Pick<Deps, "db">): number {
  return changes(deps.db.update(outbox).set({ status: "pending" }).where(eq(outbox.status, "sending")).run());
}
