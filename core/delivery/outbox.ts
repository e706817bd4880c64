import { and, asc, eq, inArray, lte, notInArray, or, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Deps } from "../deps";
import type { outbox } from "../../db/schema";
import { transaction, type AsyncDbOrTx } from "../../db/async";

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
 * Queues a webhook delivery, on SQLite as on PostgreSQL (a click listener returns `webhookRow`s for
 * the click writer instead). Call it inside the transaction that records its cause.
 */
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

/** Queues a Bot API call (a notification to a user), on either engine. Call it inside the transaction that causes it. */
export async function queueBotMessage(db: AsyncDbOrTx, now: Date, job: BotMessageJob): Promise<string> {
  const row = botMessageRow(now, job);
  await db.insert(db.tables.outbox).values(row);
  return row.deliveryId;
}

export type OutboxRow = typeof outbox.$inferSelect;

/** The concurrency key of Bot API rows. */
export const BOT_HOST = "bot";

/** The concurrency key of a webhook URL: its host:port ("" when the URL does not parse; such rows fail at send). */
function hostKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
}

/** A Bot API call of the delivery worker gives up after this long. */
export const BOT_TIMEOUT_MS = 30_000;

/**
 * How long a claim holds: a node that claimed a row and died leaves it `sending` until then, and
 * any node takes it again afterwards. Longer than any attempt (a Bot API call gives up after 30 s,
 * a webhook after WEBHOOK_TIMEOUT_MS) by 15 s, so a live node's claim never lapses while it is still
 * sending: 45 s with the default settings.
 */
export function claimLeaseMs(config: Pick<Deps["config"], "webhookTimeoutMs">): number {
  return Math.max(BOT_TIMEOUT_MS, config.webhookTimeoutMs) + 15_000;
}

/**
 * Claims due rows, oldest first: pending rows whose time has come, and `sending` rows whose claim
 * lapsed (their node died). A claimed row is `sending` with `next_attempt_at` set to the claim's
 * end, which is also its token (settleClaim). Only rows of `host` when given (an index lookup);
 * rows whose host is in `excludeHosts` are not looked at; `take` may refuse a row (e.g. its host is
 * at its concurrency limit). On PostgreSQL the rows are read `FOR UPDATE SKIP LOCKED`, so nodes
 * claiming at the same moment take different rows; on SQLite the write transaction runs alone.
 */
export async function claimDue(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  limit: number,
  opts: { host?: string; excludeHosts?: string[]; take?: (row: OutboxRow) => boolean } = {},
): Promise<OutboxRow[]> {
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + claimLeaseMs(deps.config));
  return transaction(deps.asyncDb, async (tx) => {
    const { outbox } = tx.tables;
    const host = sql`coalesce(${outbox.host}, '')`;
    const query = tx
      .select()
      .from(outbox)
      .where(
        and(
          inArray(outbox.status, ["pending", "sending"]),
          lte(outbox.nextAttemptAt, now),
          opts.host !== undefined ? eq(outbox.host, opts.host) : undefined,
          opts.excludeHosts?.length ? notInArray(host, opts.excludeHosts) : undefined,
        ),
      )
      .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
      .limit(limit);
    const rows: OutboxRow[] =
      tx.engine === "postgres"
        ? await (query as unknown as { for(s: "update", o: { skipLocked: true }): Promise<OutboxRow[]> }).for("update", {
            skipLocked: true,
          })
        : await query;
    const taken = opts.take ? rows.filter(opts.take) : rows;
    if (taken.length)
      await tx
        .update(outbox)
        .set({ status: "sending", nextAttemptAt: leaseUntil })
        .where(
          inArray(
            outbox.id,
            taken.map((r) => r.id),
          ),
        );
    return taken.map((r) => ({ ...r, status: "sending" as const, nextAttemptAt: leaseUntil }));
  });
}

/** What an attempt's outcome writes on its row (core/delivery/record.ts). */
export type Settlement = Partial<Pick<OutboxRow, "status" | "attempts" | "nextAttemptAt" | "lastError" | "completedAt" | "failureCounted">>;

/**
 * Writes an outcome on a claimed row, inside `tx`: only while the claim holds (the row is still
 * `sending` with this claim's end), so a node whose claim lapsed and was taken over cannot overwrite
 * the new holder's outcome. False when the claim had lapsed and nothing was written.
 */
export async function settleClaim(tx: AsyncDbOrTx, row: OutboxRow, values: Settlement): Promise<boolean> {
  const { outbox } = tx.tables;
  const done = await tx
    .update(outbox)
    .set(values)
    .where(and(eq(outbox.id, row.id), eq(outbox.status, "sending"), eq(outbox.nextAttemptAt, row.nextAttemptAt)))
    .returning({ id: outbox.id });
  return done.length === 1;
}

/**
 * After a crash of the only node (SQLite), rows it left `sending` go back to pending at once rather
 * than when their claims lapse (receivers de-duplicate by delivery id). In cluster mode a starting
 * node cannot tell its own old claims from another node's live ones: there the lapse does it.
 */
export async function requeueInterrupted(deps: Pick<Deps, "asyncDb" | "clock">): Promise<number> {
  if (deps.asyncDb.engine === "postgres") return 0;
  const { outbox } = deps.asyncDb.tables;
  return (
    await deps.asyncDb
      .update(outbox)
      .set({ status: "pending", nextAttemptAt: deps.clock.now() })
      .where(eq(outbox.status, "sending"))
      .returning({ id: outbox.id })
  ).length;
}

/** Deletes finished rows: delivered or cancelled after `keepDoneDays`, failed after `keepFailedDays`. */
export async function pruneOutbox(deps: Pick<Deps, "asyncDb" | "clock">, keepDoneDays = 7, keepFailedDays = 30): Promise<number> {
  const day = 86_400_000;
  const now = deps.clock.now().getTime();
  const { outbox } = deps.asyncDb.tables;
  const gone = await deps.asyncDb
    .delete(outbox)
    .where(
      or(
        and(inArray(outbox.status, ["done", "cancelled"]), lte(outbox.completedAt, new Date(now - keepDoneDays * day))),
        and(eq(outbox.status, "failed"), lte(outbox.completedAt, new Date(now - keepFailedDays * day))),
      ),
    )
    .returning({ id: outbox.id });
  return gone.length;
}
