import { eq } from "drizzle-orm";
import type { PgDb } from "../../db/postgres";
import { clusterSettings } from "../../db/schema-pg";
import { checkSettingKey, type SharedSettings } from "./settings";

/** Shared settings in one table: an insert that yields to an existing row, then a read of the row. */
export function createPgSettings(db: PgDb): SharedSettings {
  return {
    async getOrCreate(key, make) {
      checkSettingKey(key);
      await db.insert(clusterSettings).values({ key, value: make() }).onConflictDoNothing({ target: clusterSettings.key });
      // a separate statement: it sees the row a concurrent first writer committed
      const [row] = await db.select({ value: clusterSettings.value }).from(clusterSettings).where(eq(clusterSettings.key, key));
      return row!.value;
    },
  };
}
