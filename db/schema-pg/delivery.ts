import { pgTable, text, index } from "drizzle-orm/pg-core";
import { int, json, id, ts, createdAt, bool } from "./columns";
import { users } from "./accounts";

/**
 * The outbox. In cluster mode a claimed row is `sending` with `next_attempt_at` as its lease: when
 * the lease passes without an outcome (the node died), any node claims it again.
 */
export const outbox = pgTable("outbox", {
  id: id(),
  deliveryId: text("delivery_id").notNull().unique(),
  userId: int("user_id").references(() => users.id, { onDelete: "cascade" }),
  kind: text("kind", { enum: ["webhook", "bot"] }).notNull(),
  topic: text("topic").notNull(),
  refId: int("ref_id"),
  target: text("target").notNull(),
  method: text("method").notNull().default("POST"),
  host: text("host"),
  payload: json<Record<string, unknown>>("payload").notNull(),
  status: text("status", { enum: ["pending", "sending", "done", "failed", "cancelled"] }).notNull().default("pending"),
  attempts: int("attempts").notNull().default(0),
  nextAttemptAt: ts("next_attempt_at").notNull(),
  lastError: text("last_error"),
  failureCounted: bool("failure_counted").notNull().default(false),
  completedAt: ts("completed_at"),
  createdAt: createdAt(),
}, (t) => [index("outbox_due").on(t.status, t.nextAttemptAt), index("outbox_ref").on(t.topic, t.refId), index("outbox_host_due").on(t.status, t.host, t.nextAttemptAt), index("outbox_user").on(t.userId)]);
