import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { join } from "node:path";
import * as schema from "./schema";
import { appliedSince } from "./migrations-state";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export interface DbHandle {
  db: Db;
  sqlite: Database;
  close(): void;
  /** the migrations applied when it was opened, by name, oldest first (none when `migrate` was false) */
  migrated: string[];
}

export interface DbOptions {
  /** apply the pending migrations (default true; MIGRATE=skip leaves them to `bun run cli migrate`) */
  migrate?: boolean;
  /** called before each query of the drizzle handle (the async seam's check that no transaction of its own is open) */
  beforeQuery?: () => void;
}

/**
 * Opens (or creates) the SQLite database at `path` (":memory:" for tests), applies the pragmas
 * the service relies on and runs the committed migrations.
 */
export function createDb(path: string, options: DbOptions = {}): DbHandle {
  const sqlite = new Database(path, { create: true, strict: true });
  // the busy timeout first: the pragmas after it read the file, and a lock another process holds
  // for a moment (its last connection checkpointing as it closes, a CLI command's write) is then
  // waited out instead of failing the start with "database is locked"
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const before = options.beforeQuery;
  const db = drizzle(sqlite, { schema, logger: before && { logQuery: () => before() } }) as Db;
  let migrated: string[] = [];
  if (options.migrate ?? true) {
    const fresh = !sqlite.query("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get();
    const newestBefore = fresh
      ? 0
      : ((sqlite.query("select max(created_at) as at from __drizzle_migrations").get() as { at: number | null } | null)?.at ?? 0);
    migrate(db, { migrationsFolder: join(import.meta.dir, "migrations") });
    migrated = appliedSince("sqlite", Number(newestBefore));
  }
  return { db, sqlite, close: () => sqlite.close(), migrated };
}
