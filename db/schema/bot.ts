import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Key-value store behind grammY sessions and conversations, so a restart keeps them. */
export const botKv = sqliteTable("bot_kv", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
