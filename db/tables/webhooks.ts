import type { Kit } from "../kit";
import type { accountTables } from "./accounts";

export function webhookTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  /** One signing secret per user for webhook signatures (HMAC-SHA256); created on first use, rotatable. */
  const webhookSecrets = k.table("webhook_secrets", {
    userId: k
      .int("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    secret: k.text("secret").notNull(),
    createdAt: k.createdAt(),
    rotatedAt: k.ts("rotated_at"),
  });
  return { webhookSecrets };
}
