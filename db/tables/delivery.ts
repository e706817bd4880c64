import type { Kit } from "../kit";
import type { accountTables } from "./accounts";

export function deliveryTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  /**
   * The durable outbox for every side effect that leaves the process: webhooks and bot messages.
   * A row is written in the same transaction as the change that causes it, and a worker sends it.
   */
  const outbox = k.table(
    "outbox",
    {
      id: k.id(),
      /** unique id sent to receivers so they can drop duplicates */
      deliveryId: k.text("delivery_id").notNull().unique(),
      userId: k.int("user_id").references(() => users.id, { onDelete: "cascade" }),
      kind: k.text("kind", { enum: ["webhook", "bot"] }).notNull(),
      /** what caused it, e.g. "click_webhook", "tracker_webhook", "tracker_notify", "notice" */
      topic: k.text("topic").notNull(),
      /** e.g. the link id for click webhooks, used to count failures */
      refId: k.int("ref_id"),
      /** webhook: URL; bot: chat id */
      target: k.text("target").notNull(),
      method: k.text("method").notNull().default("POST"),
      /** concurrency key: the webhook URL's host:port, or "bot" for Bot API calls */
      host: k.text("host"),
      /** webhook: request body or query (JSON); bot: Bot API method + payload (JSON) */
      payload: k.json<Record<string, unknown>>("payload").notNull(),
      status: k
        .text("status", { enum: ["pending", "sending", "done", "failed", "cancelled"] })
        .notNull()
        .default("pending"),
      attempts: k.int("attempts").notNull().default(0),
      nextAttemptAt: k.ts("next_attempt_at").notNull(),
      lastError: k.text("last_error"),
      /** the topic's final-failure hook already ran for this delivery (a redelivery that fails again does not count twice) */
      failureCounted: k.bool("failure_counted").notNull().default(false),
      completedAt: k.ts("completed_at"),
      createdAt: k.createdAt(),
    },
    (t) => [
      k.index("outbox_due").on(t.status, t.nextAttemptAt),
      k.index("outbox_ref").on(t.topic, t.refId),
      k.index("outbox_host_due").on(t.status, t.host, t.nextAttemptAt),
      k.index("outbox_user").on(t.userId),
    ],
  );
  return { outbox };
}
