/**
 * The PostgreSQL client of cluster mode: drizzle on Bun's built-in SQL driver. Every node applies
 * the committed migrations (db/migrations-pg) at start; a session advisory lock makes nodes that
 * start together take turns, so each migration runs once and a late node finds nothing to do.
 * Only an ordinary database owner's rights are needed.
 */
import { SQL } from "bun";
import { drizzle, type BunSQLDatabase } from "drizzle-orm/bun-sql";
import { join } from "node:path";
import * as schema from "./schema-pg";
import { createAsyncPg } from "./async-pg";
import type { AsyncDb, Tables } from "./async";
import { appliedSince } from "./migrations-state";
import { applyPgMigrations } from "./pg-migrate";

export type PgDb = BunSQLDatabase<typeof schema> & { $client: SQL };

export interface PgDbHandle {
  /** the migrations applied when it was opened, by name, oldest first (none when `migrate` was false) */
  migrated: string[];
  db: PgDb;
  /** the connection pool, for what drizzle does not cover (LISTEN, reserved connections) */
  sql: SQL;
  close(): Promise<void>;
}

export interface PgDbOptions {
  /** pool size of this node (default 10) */
  max?: number;
  /** apply the pending migrations (default true) */
  migrate?: boolean;
}

/** The application_name every connection of node `nodeName` reports, so the server can count a node's connections. */
export const applicationNameOf = (nodeName: string) => `linkbot:${nodeName}`;

/** `url` with the node's application_name, unless the URL sets one itself. */
export function nodeDatabaseUrl(url: string, nodeName: string): string {
  const u = new URL(url);
  if (!u.searchParams.has("application_name")) u.searchParams.set("application_name", applicationNameOf(nodeName));
  return u.toString();
}

/** How often a node waiting for another's migrations asks for the lock again. */
const LOCK_RETRY_MS = 100;

/** Key of the session advisory lock held while migrating (any constant shared by all nodes). */
export const MIGRATION_LOCK_KEY = 7_246_001;

export const PG_MIGRATIONS = join(import.meta.dir, "migrations-pg");

/**
 * Connects to `url` (postgres:// or postgresql://), applies pending migrations under the
 * migration lock, and returns the database. Throws when the server cannot be reached or a
 * migration fails; the pool is closed then.
 */
export async function createPgDb(url: string, options: PgDbOptions = {}): Promise<PgDbHandle> {
  const sql = new SQL(url, { max: options.max ?? 10 });
  let migrated: string[] = [];
  try {
    if (options.migrate ?? true) migrated = await migrateLocked(sql);
  } catch (e) {
    await sql.close();
    throw e;
  }
  const db = drizzle({ client: sql, schema }) as PgDb;
  return { db, sql, close: () => sql.close(), migrated };
}

/**
 * Applies the migrations on one reserved connection that holds the migration lock throughout;
 * resolves to the names of those it applied (read under the lock, so a node that waited for
 * another's run names none of them).
 */
async function migrateLocked(sql: SQL): Promise<string[]> {
  const conn = await sql.reserve();
  try {
    // asked again and again rather than waited for in one statement: a waiting statement is an open
    // transaction, which a concurrent index build of the lock holder would wait for in turn (a deadlock)
    while (!(await conn`SELECT pg_try_advisory_lock(${MIGRATION_LOCK_KEY}) AS ok`)[0]?.ok) await Bun.sleep(LOCK_RETRY_MS);
    try {
      const [known] = await conn`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS yes`;
      const [row] = known?.yes ? await conn`SELECT coalesce(max(created_at), 0) AS at FROM drizzle.__drizzle_migrations` : [{ at: 0 }];
      await applyPgMigrations(conn, PG_MIGRATIONS);
      return appliedSince("postgres", Number(row?.at ?? 0));
    } finally {
      await conn`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    conn.release();
  }
}

/** The async seam (db/async.ts) over a PostgreSQL handle, with the shared tables under their usual names. */
export function asyncPg(handle: Pick<PgDbHandle, "db">): AsyncDb<Tables> {
  return createAsyncPg<Tables>(handle.db, schema as unknown as Record<keyof Tables, unknown>);
}
