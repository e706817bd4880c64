/**
 * Whether the database holds every migration this build ships: drizzle's migrator records each
 * applied migration with its journal time (`created_at`), and applies those newer than the last it
 * recorded, so the database is up to date when its newest record is at least the build's newest.
 * For readiness: a node whose database was rolled back, or not yet migrated, takes no traffic.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql, type SQL } from "drizzle-orm";
import type { AsyncDb } from "./async";

const newestShipped = (folder: string) => {
  const journal = JSON.parse(readFileSync(join(import.meta.dir, folder, "meta/_journal.json"), "utf8")) as { entries: { when: number }[] };
  return Math.max(0, ...journal.entries.map((e) => e.when));
};
const SHIPPED = { sqlite: newestShipped("migrations"), postgres: newestShipped("migrations-pg") };

/** Resolves to whether every shipped migration is applied; rejects when the database does not answer. */
export async function migrationsApplied<S extends Record<string, unknown>>(db: AsyncDb<S>): Promise<boolean> {
  let rows: { at: unknown }[];
  if (db.engine === "postgres") rows = (await (db as unknown as { execute(q: SQL): Promise<{ at: unknown }[]> }).execute(sql`select max(created_at) as at from drizzle.__drizzle_migrations`));
  else rows = await (db as unknown as { all(q: SQL): Promise<{ at: unknown }[]> }).all(sql`select max(created_at) as at from __drizzle_migrations`);
  return Number(rows[0]?.at ?? 0) >= SHIPPED[db.engine];
}
