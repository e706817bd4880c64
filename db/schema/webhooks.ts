import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";
import { ts, createdAt } from "./columns";
import { users } from "./accounts";

/** One signing secret per user for webhook signatures (HMAC-SHA256); created on first use, rotatable. */
export const webhookSecrets = sqliteTable("webhook_secrets", {
  userId: integer("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  createdAt: createdAt(),
  rotatedAt: ts("rotated_at"),
});
