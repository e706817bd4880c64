import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { join } from "node:path";
import * as schema from "./schema";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export interface DbHandle {
  db: Db;
  sqlite: Database;
  close(): void;
}

export interface DbOptions {
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
  migrate(db, { migrationsFolder: join(import.meta.dir, "migrations") });
  return { db, sqlite, close: () => sqlite.close() };
}

/** Rows changed by a `.run()` (drizzle types bun-sqlite's result as void, but it carries `changes`). */
export function changes(result: unknown): number {
  return (result as { changes: number }).changes;
}
