import { expect, test } from "bun:test";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { getTableName } from "drizzle-orm";
import * as schema from "../../../db/schema";
import { HANDLED_ELSEWHERE, OWNED_TABLES } from "../../../core/accounts/owned-tables";

test("every table with a user_id column is covered by the account merge", () => {
  const covered = new Set<string>(OWNED_TABLES.map((o) => getTableName(schema[o.key])));
  const missing: string[] = [];
  for (const value of Object.values(schema)) {
    if (!(value instanceof SQLiteTable)) continue;
    const cfg = getTableConfig(value);
    if (!cfg.columns.some((c) => c.name === "user_id")) continue;
    if (!covered.has(cfg.name) && !(cfg.name in HANDLED_ELSEWHERE)) missing.push(cfg.name);
  }
  expect(missing).toEqual([]);
  for (const o of OWNED_TABLES) expect((schema[o.key] as typeof schema.links).userId.name).toBe("user_id");
});
