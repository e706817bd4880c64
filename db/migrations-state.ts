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

/** The migrations this build ships for a dialect, oldest first: drizzle-kit's name (`0003_tags`) and journal time. */
export function shippedMigrations(engine: "sqlite" | "postgres"): { tag: string; when: number }[] {
  const folder = engine === "sqlite" ? "migrations" : "migrations-pg";
  const journal = JSON.parse(readFileSync(join(import.meta.dir, folder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when })).sort((a, b) => a.when - b.when);
}

/**
 * The names of the shipped migrations a migrator run applied, from the newest journal time the
 * database held before it (0 for a new database): drizzle applies, in order, exactly those newer.
 */
export function appliedSince(engine: "sqlite" | "postgres", newestBefore: number): string[] {
  return shippedMigrations(engine)
    .filter((m) => m.when > newestBefore)
    .map((m) => m.tag);
}

const newestShipped = (engine: "sqlite" | "postgres") => Math.max(0, ...shippedMigrations(engine).map((m) => m.when));
const SHIPPED = { sqlite: newestShipped("sqlite"), postgres: newestShipped("postgres") };

/** The shipped migrations the database lacks, by name (all of them for a new database); rejects when it does not answer. */
export async function pendingMigrations<S extends Record<string, unknown>>(db: AsyncDb<S>): Promise<string[]> {
  let newest = 0;
  try {
    const q =
      db.engine === "postgres"
        ? sql`select max(created_at) as at from drizzle.__drizzle_migrations`
        : sql`select max(created_at) as at from __drizzle_migrations`;
    const rows =
      db.engine === "postgres"
        ? await (db as unknown as { execute(q: SQL): Promise<{ at: unknown }[]> }).execute(q)
        : await (db as unknown as { all(q: SQL): Promise<{ at: unknown }[]> }).all(q);
    newest = Number(rows[0]?.at ?? 0);
  } catch (e) {
    // no table of migrations yet: a new database, nothing applied (any other failure is the database's)
    if (!/no such table|does not exist/.test(String((e as { cause?: unknown }).cause ?? e))) throw e;
  }
  return appliedSince(db.engine, newest);
}

/** Resolves to whether every shipped migration is applied; rejects when the database does not answer. */
export async function migrationsApplied<S extends Record<string, unknown>>(db: AsyncDb<S>): Promise<boolean> {
  let rows: { at: unknown }[];
  if (db.engine === "postgres")
    rows = await (db as unknown as { execute(q: SQL): Promise<{ at: unknown }[]> }).execute(
      sql`select max(created_at) as at from drizzle.__drizzle_migrations`,
    );
  else
    rows = await (db as unknown as { all(q: SQL): Promise<{ at: unknown }[]> }).all(
      sql`select max(created_at) as at from __drizzle_migrations`,
    );
  return Number(rows[0]?.at ?? 0) >= SHIPPED[db.engine];
}
