import type { Kit } from "../kit";

export function botTables(k: Kit) {
  /** Key-value store behind grammY sessions and conversations, so a restart keeps them. */
  const botKv = k.table("bot_kv", {
    key: k.text("key").primaryKey(),
    value: k.text("value").notNull(),
  });
  return { botKv };
}
