import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { ts, createdAt } from "./columns";
import { users } from "./accounts";

/**
 * The durable outbox for every side effect that leaves the process: webhooks and bot messages.
 * A row is written in the same transaction as the change that causes it, and a worker sends it.
 */
export const outbox = sqliteTable("outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** unique id sent to receivers so they can drop duplicates */
  deliveryId: text("delivery_id").notNull().unique(),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  kind: text("kind", { enum: ["webhook", "bot"] }).notNull(),
  /** what caused it, e.g. "click_webhook", "tracker_webhook", "tracker_notify", "notice" */
  topic: text("topic").notNull(),
  /** e.g. the link id for click webhooks, used to count failures */
  refId: integer("ref_id"),
  /** webhook: URL; bot: chat id */
  target: text("target").notNull(),
  method: text("method").notNull().default("POST"),
  /** concurrency key: the webhook URL's host:port, or "bot" for Bot API calls */
  host: text("host"),
  /** webhook: request body or query (JSON); bot: Bot API method + payload (JSON) */
  payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  status: text("status", { enum: ["pending", "sending", "done", "failed", "cancelled"] }).notNull().default("pending"),
  attempts: integer("attempts").notNull().default(0),
  nextAttemptAt: ts("next_attempt_at").notNull(),
  lastError: text("last_error"),
  /** the topic's final-failure hook already ran for this delivery (a redelivery that fails again does not count twice) */
  failureCounted: integer("failure_counted", { mode: "boolean" }).notNull().default(false),
  completedAt: ts("completed_at"),
  createdAt: createdAt(),
}, (t) => [index("outbox_due").on(t.status, t.nextAttemptAt), index("outbox_ref").on(t.topic, t.refId), index("outbox_host_due").on(t.status, t.host, t.nextAttemptAt), index("outbox_user").on(t.userId)]);
