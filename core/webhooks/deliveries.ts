import { and, desc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { Conflict, NotFound } from "../errors";
import { first, type Tables } from "../../db/async";
import { getLinkWebhook } from "./link-webhook";

/** One webhook delivery as its owner sees it in the delivery log. */
export interface DeliveryView {
  id: string;
  topic: string;
  linkId: number | null;
  url: string;
  method: string;
  status: "pending" | "sending" | "done" | "failed" | "cancelled";
  attempts: number;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  completedAt: string | null;
}

const view = (r: Tables["outbox"]["$inferSelect"]): DeliveryView => ({
  id: r.deliveryId,
  topic: r.topic,
  linkId: r.topic === "click_webhook" ? r.refId : null,
  url: r.target,
  method: r.method,
  status: r.status,
  attempts: r.attempts,
  lastError: r.lastError,
  createdAt: r.createdAt.toISOString(),
  nextAttemptAt: r.status === "pending" ? r.nextAttemptAt.toISOString() : null,
  completedAt: r.completedAt?.toISOString() ?? null,
});

/**
 * The user's recent webhook deliveries, newest first (kept 7 days when delivered, 30 when failed);
 * only those of one link with `linkId` (404 when the link is not theirs).
 */
export async function listDeliveries(
  deps: Pick<Deps, "asyncDb">,
  userId: number,
  q: { linkId?: number; limit?: number; offset?: number },
): Promise<DeliveryView[]> {
  if (q.linkId !== undefined) await getLinkWebhook(deps, userId, q.linkId);
  const { outbox } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.userId, userId),
        eq(outbox.kind, "webhook"),
        q.linkId !== undefined ? and(eq(outbox.topic, "click_webhook"), eq(outbox.refId, q.linkId)) : undefined,
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(q.limit ?? 20)
    .offset(q.offset ?? 0);
  return rows.map(view);
}

/**
 * Queues a failed or cancelled delivery again with fresh attempts (same delivery id and body). It does
 * not take back the failure it counted. 409 when it is still queued or was delivered.
 */
export async function redeliver(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, deliveryId: string): Promise<DeliveryView> {
  const { outbox } = deps.asyncDb.tables;
  const mine = and(eq(outbox.deliveryId, deliveryId), eq(outbox.userId, userId), eq(outbox.kind, "webhook"));
  // one conditional update: two redeliveries at once queue it once, the other is told it is queued
  const updated = first(
    await deps.asyncDb
      .update(outbox)
      .set({ status: "pending", attempts: 0, nextAttemptAt: deps.clock.now(), completedAt: null })
      .where(and(mine, inArray(outbox.status, ["failed", "cancelled"])))
      .returning(),
  );
  if (updated) return view(updated);
  const row = first(await deps.asyncDb.select({ status: outbox.status }).from(outbox).where(mine));
  if (!row) throw new NotFound("Delivery");
  throw new Conflict(`The delivery is ${row.status}; only failed or cancelled deliveries can be sent again`);
}
