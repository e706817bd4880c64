/**
 * The engine-specific half of the composition root, in one place: how the database is opened (a
 * SQLite file under DATA_DIR, or the PostgreSQL database at DATABASE_URL), which cluster primitives
 * go with it, and which click writer writes to it. Everything else is assembled alike for both
 * (app/index.ts). The click writer thread opens an engine too, with a pool of its own size, and
 * uses only its database and its click writer.
 */
import { join } from "node:path";
import type { SQL } from "bun";
import type { Config } from "../config";
import type { Db, DbHandle } from "../db/client";
import type { AsyncDb } from "../db/async";
import { openSqlite } from "../db/async-sqlite";
import { applicationNameOf, asyncPg, createPgDb, nodeDatabaseUrl } from "../db/postgres";
import { pendingMigrations } from "../db/migrations-state";
import type { Clock } from "../core/clock";
import { createLocalCluster, createPgCluster, type Cluster } from "../core/cluster";
import { createPrivateFile, lockDownDataDir } from "../core/data-dir";
import type { ClickListener } from "../core/clicks/listeners";
import type { ClickWriterDeps } from "../core/clicks/writer";
import { createClickWriter, type ClickWriter } from "../core/clicks/writer";
import { createPgClickWriter } from "../core/clicks/writer-pg";

/** An open database and what goes with its kind. */
export interface Engine {
  kind: "sqlite" | "postgres";
  /** the async seam (db/async.ts) every core function queries through */
  asyncDb: AsyncDb;
  /** SQLite only: the synchronous handle of the one connection (the click writer's statements run on it) */
  db?: Db;
  /** the migrations applied when it was opened, and what closes it */
  handle: { close(): void | Promise<void>; migrated: string[] };
  /** PostgreSQL only: the pool (file storage in the database) and the name every connection reports (the connection gauges) */
  pg?: { sql: SQL; applicationName: string };
  /** The cluster primitives on this engine: in-process on SQLite, the database's in cluster mode. */
  cluster(clock: Clock): Cluster;
  /** The click writer on this engine's connection, feeding `listeners` and keeping the mark of journal `journal`. */
  /** `holder`: the id of the journal directory of a node that took its name (cluster mode), for the writer's fencing */
  clickWriter(deps: ClickWriterDeps, listeners: readonly ClickListener[], journal: string, holder?: string): ClickWriter;
}

export interface OpenOptions {
  /** apply pending migrations (the service: MIGRATE=auto; the writer thread never does) */
  migrate: boolean;
  /** SQLite: the database file (default DATA_DIR/app.db; `:memory:` in some tests) */
  dbPath?: string;
  /** PostgreSQL: the pool's size (default PG_POOL_SIZE) */
  pool?: number;
}

/** SQLite: the database file under DATA_DIR, on one connection, made readable by the service's user only. */
export function openSqliteEngine(config: Config, opts: OpenOptions): Engine & { db: Db; handle: DbHandle } {
  lockDownDataDir(config.dataDir);
  const dbPath = opts.dbPath ?? join(config.dataDir, "app.db");
  if (dbPath !== ":memory:") createPrivateFile(dbPath);
  const { handle, seam } = openSqlite(dbPath, { migrate: opts.migrate });
  // -wal and -shm of an existing database may have been made before its mode was tightened
  lockDownDataDir(config.dataDir);
  const db = handle.db;
  return {
    kind: "sqlite",
    asyncDb: seam.db,
    db,
    handle,
    cluster: (clock) => createLocalCluster({ dataDir: config.dataDir, clock }),
    clickWriter: ({ asyncDb, clock, geo }, listeners, journal) => createClickWriter({ asyncDb, clock, geo, db }, listeners, { journal }),
  };
}

/**
 * Cluster mode: the PostgreSQL database at `url` (migrated first when asked, under the migration
 * lock), through a pool whose every connection names the node (application_name), so the server
 * can count a node's connections.
 */
async function openPostgresEngine(config: Config, url: string, opts: OpenOptions): Promise<Engine> {
  lockDownDataDir(config.dataDir);
  const named = nodeDatabaseUrl(url, config.nodeName);
  const handle = await createPgDb(named, { max: opts.pool ?? config.pgPoolSize, migrate: opts.migrate });
  return {
    kind: "postgres",
    asyncDb: asyncPg(handle),
    handle: { close: () => handle.close(), migrated: handle.migrated },
    pg: { sql: handle.sql, applicationName: applicationNameOf(config.nodeName) },
    cluster: (clock) => createPgCluster({ url: named, handle, clock }),
    clickWriter: (deps, listeners, journal, holder) => createPgClickWriter(deps, listeners, { journal, holder }),
  };
}

/** The engine the configuration names: PostgreSQL when DATABASE_URL is set, else SQLite. */
export async function openEngine(config: Config, opts: OpenOptions): Promise<Engine> {
  return config.databaseUrl === null ? openSqliteEngine(config, opts) : openPostgresEngine(config, config.databaseUrl, opts);
}

/**
 * With MIGRATE=skip a node does not run on a database older than its code: the engine is closed
 * and the error names the migrations it lacks.
 */
export async function refuseOutdated(engine: Engine): Promise<void> {
  let pending: string[];
  try {
    pending = await pendingMigrations(engine.asyncDb);
  } catch (e) {
    await engine.handle.close();
    throw e;
  }
  if (!pending.length) return;
  await engine.handle.close();
  throw new Error(
    `it lacks ${pending.length} migration(s) this build ships (${pending.join(", ")}); run "bun run cli migrate" first, or start with MIGRATE=auto`,
  );
}
