import { pgTable, text } from "drizzle-orm/pg-core";

export const botKv = pgTable("bot_kv", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
