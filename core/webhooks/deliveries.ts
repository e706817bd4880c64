import { and, desc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { Conflict, NotFound } from "../errors";
import { outbox } from "../../db/schema";
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

const view = (r: typeof outbox.$inferSelect): DeliveryView => ({
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
export function listDeliveries(deps: Pick<Deps, "db">, userId: number, q: { linkId?: number; limit?: number; offset?: number }): DeliveryView[] {
  if (q.linkId !== undefined) getLinkWebhook(deps, userId, q.linkId);
  return deps.db
    .select()
    .from(outbox)
    .where(and(
      eq(outbox.userId, userId),
      eq(outbox.kind, "webhook"),
      q.linkId !== undefined ? and(eq(outbox.topic, "click_webhook"), eq(outbox.refId, q.linkId)) : undefined,
    ))
    .orderBy(desc(outbox.id))
    .limit(q.limit ?? 20)
    .offset(q.offset ?? 0)
    .all()
    .map(view);
}

/**
 * Queues a failed or cancelled delivery again with fresh attempts (same delivery id and body). It does
 * not take back the failure it counted. 409 when it is still queued or was delivered.
 */
export function redeliver(deps: Pick<Deps, "db" | "clock">, userId: number, deliveryId: string): DeliveryView {
  const row = deps.db.select().from(outbox).where(and(eq(outbox.deliveryId, deliveryId), eq(outbox.userId, userId), eq(outbox.kind, "webhook"))).get();
  if (!row) throw new NotFound("Delivery");
  if (row.status !== "failed" && row.status !== "cancelled") throw new Conflict(`The delivery is ${row.status}; only failed or cancelled deliveries can be sent again`);
  const updated = deps.db
    .update(outbox)
    .set({ status: "pending", attempts: 0, nextAttemptAt: deps.clock.now(), completedAt: null })
    .where(eq(outbox.id, row.id))
    .returning()
    .get();
  return view(updated);
}
