import { pgTable, text } from "drizzle-orm/pg-core";
import { int, ts, createdAt } from "./columns";
import { users } from "./accounts";

export const webhookSecrets = pgTable("webhook_secrets", {
  userId: int("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  createdAt: createdAt(),
  rotatedAt: ts("rotated_at"),
});
