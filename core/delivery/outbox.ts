import { and, asc, eq, inArray, lte, notInArray, or, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Deps } from "../deps";
import { outbox } from "../../db/schema";
import { changes } from "../../db/client";
import { writeTransaction, type DbOrTx } from "../../db/transaction";
import type { AsyncDbOrTx } from "../../db/async";

type Tx = Pick<DbOrTx, "insert">;

export interface WebhookJob {
  userId: number | null;
  topic: string;
  refId?: number | null;
  url: string;
  method?: "GET" | "POST";
  /** the JSON body (POST) or the query parameters (GET) */
  data: Record<string, unknown>;
}

/** The outbox row of a webhook delivery (a fresh delivery id). */
export function webhookRow(now: Date, job: WebhookJob) {
  return {
    deliveryId: randomUUID(),
    userId: job.userId,
    kind: "webhook" as const,
    topic: job.topic,
    refId: job.refId ?? null,
    target: job.url,
    method: job.method ?? "POST",
    host: hostKey(job.url),
    payload: job.data,
    nextAttemptAt: now,
    createdAt: now,
  };
}

/**
 * Queues a webhook delivery on a synchronous SQLite handle (the click writer's own connection).
 * Call it inside the transaction that records its cause.
 */
export function enqueueWebhook(tx: Tx, now: Date, job: WebhookJob): string {
  const row = webhookRow(now, job);
  tx.insert(outbox).values(row).run();
  return row.deliveryId;
}

/** Queues a webhook delivery through the async seam. Call it inside the transaction that records its cause. */
export async function queueWebhook(db: AsyncDbOrTx, now: Date, job: WebhookJob): Promise<string> {
  const row = webhookRow(now, job);
  await db.insert(db.tables.outbox).values(row);
  return row.deliveryId;
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

/** The outbox row of a Bot API call (a fresh delivery id). */
export function botMessageRow(now: Date, job: BotMessageJob) {
  return {
    deliveryId: randomUUID(),
    userId: job.userId,
    kind: "bot" as const,
    topic: job.topic,
    refId: job.refId ?? null,
    target: String(job.chatId),
    method: job.method ?? "sendMessage",
    host: BOT_HOST,
    payload: job.params,
    nextAttemptAt: now,
    createdAt: now,
  };
}

/** Queues a Bot API call (a notification to a user) on a synchronous SQLite handle. Call it inside the transaction that causes it. */
export function enqueueBotMessage(tx: Tx, now: Date, job: BotMessageJob): string {
  const row = botMessageRow(now, job);
  tx.insert(outbox).values(row).run();
  return row.deliveryId;
}

/** Queues a Bot API call through the async seam. Call it inside the transaction that causes it. */
export async function queueBotMessage(db: AsyncDbOrTx, now: Date, job: BotMessageJob): Promise<string> {
  const row = botMessageRow(now, job);
  await db.insert(db.tables.outbox).values(row);
  return row.deliveryId;
}

export type OutboxRow = typeof outbox.$inferSelect;

/** The concurrency key of Bot API rows. */
export const BOT_HOST = "bot";

/** The concurrency key of a webhook URL: its host:port ("" when the URL does not parse; such rows fail at send). */
export function hostKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
}

/**
 * Claims due rows, oldest first (status → sending, so no other tick takes them). Only rows of `host`
 * when given (an index lookup); rows whose host is in `excludeHosts` are not looked at; `take` may
 * refuse a row (e.g. its host is at its concurrency limit).
 */
export function claimDue(
  deps: Pick<Deps, "db" | "clock">,
  limit: number,
  opts: { host?: string; excludeHosts?: string[]; take?: (row: OutboxRow) => boolean } = {},
): OutboxRow[] {
  return writeTransaction(deps.db, (tx) => {
    const host = sql`coalesce(${outbox.host}, '')`;
    const rows = tx
      .select()
      .from(outbox)
      .where(and(
        eq(outbox.status, "pending"),
        lte(outbox.nextAttemptAt, deps.clock.now()),
        opts.host !== undefined ? eq(outbox.host, opts.host) : undefined,
        opts.excludeHosts?.length ? notInArray(host, opts.excludeHosts) : undefined,
      ))
      .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
      .limit(limit)
      .all();
    const taken = opts.take ? rows.filter(opts.take) : rows;
    if (taken.length) tx.update(outbox).set({ status: "sending" }).where(inArray(outbox.id, taken.map((r) => r.id))).run();
    return taken.map((r) => ({ ...r, status: "sending" as const }));
  });
}

/** After a crash, rows left in `sending` go back to pending (receivers de-duplicate by delivery id). */
export function requeueInterrupted(deps: Pick<Deps, "db">): number {
  return changes(deps.db.update(outbox).set({ status: "pending" }).where(eq(outbox.status, "sending")).run());
}

/** Deletes finished rows: delivered or cancelled after `keepDoneDays`, failed after `keepFailedDays`. */
export function pruneOutbox(deps: Pick<Deps, "db" | "clock">, keepDoneDays = 7, keepFailedDays = 30): number {
  const day = 86_400_000;
  const now = deps.clock.now().getTime();
  return changes(
    deps.db
      .delete(outbox)
      .where(or(
        and(inArray(outbox.status, ["done", "cancelled"]), lte(outbox.completedAt, new Date(now - keepDoneDays * day))),
        and(eq(outbox.status, "failed"), lte(outbox.completedAt, new Date(now - keepFailedDays * day))),
      ))
      .run(),
  );
}
