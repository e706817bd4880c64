import type { StorageAdapter } from "grammy";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { botKv } from "../db/schema";

/** A grammY storage adapter on the bot_kv table; `prefix` keeps sessions and conversations apart. */
export function sqliteStorage<T>(db: Db, prefix: string): StorageAdapter<T> {
  return {
    read(key) {
      const row = db.select().from(botKv).where(eq(botKv.key, prefix + key)).get();
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    write(key, value) {
      const v = JSON.stringify(value);
      db.insert(botKv).values({ key: prefix + key, value: v }).onConflictDoUpdate({ target: botKv.key, set: { value: v } }).run();
    },
    delete(key) {
      db.delete(botKv).where(eq(botKv.key, prefix + key)).run();
    },
  };
}
