import type { StorageAdapter } from "grammy";
import { eq } from "drizzle-orm";
import { first, type AsyncDb } from "../db/async";

/**
 * A grammY storage adapter on the bot_kv table, on the async seam (SQLite or PostgreSQL); `prefix`
 * keeps sessions and conversations apart. A write is one upsert, so nodes answering updates of the
 * same chat one after the other read each other's state.
 */
export function dbStorage<T>(db: AsyncDb, prefix: string): StorageAdapter<T> {
  const { botKv } = db.tables;
  return {
    async read(key) {
      const row = first(
        await db
          .select()
          .from(botKv)
          .where(eq(botKv.key, prefix + key)),
      );
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    async write(key, value) {
      const v = JSON.stringify(value);
      await db
        .insert(botKv)
        .values({ key: prefix + key, value: v })
        .onConflictDoUpdate({ target: botKv.key, set: { value: v } });
    },
    async delete(key) {
      await db.delete(botKv).where(eq(botKv.key, prefix + key));
    },
  };
}
