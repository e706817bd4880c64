/**
 * The two databases of the async seam, for tests that run one body on each: a real SQLite file and
 * a fresh database on a real PostgreSQL server started for the test file (it fails loudly when the
 * server cannot start; it is never skipped).
 */
import { afterAll, beforeAll, describe, setDefaultTimeout } from "bun:test";
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AsyncDb, Engine, Tables } from "../../db/async";
import { createAsyncSqlite } from "../../db/async-sqlite";
import { createDb } from "../../db/client";
import { createAsyncPg } from "../../db/async-pg";
import { createPgDb } from "../../db/postgres";
import * as schema from "../../db/schema";
import * as schemaPg from "../../db/schema-pg";
import { startPostgres, type PgServer } from "./postgres";

export interface EngineDb<S extends Record<string, unknown>> {
  engine: Engine;
  db: AsyncDb<S>;
  /** SQLite: the raw connection */
  sqlite?: Database;
  /** PostgreSQL: the pool */
  sql?: SQL;
}

export interface EngineSpec<S extends Record<string, unknown>> {
  tables: { sqlite: S; postgres: Record<keyof S, unknown> };
  /** opens a SQLite file and makes its tables */
  openSqlite(path: string): { sqlite: Database; close(): void };
  /** connects to a fresh PostgreSQL database and makes its tables; `db` is a drizzle database on `sql` */
  openPostgres(url: string): Promise<{ db: object; sql: SQL; close(): Promise<void> }>;
}

/**
 * For the test file that calls it: one `[engine, open]` pair per database; each `open()` makes a
 * fresh, empty database of that engine, closed after the file's tests.
 */
export function asyncEnginesForFile<S extends Record<string, unknown>>(spec: EngineSpec<S>): [Engine, () => Promise<EngineDb<S>>][] {
  let pg: PgServer | undefined;
  const dir = mkdtempSync(join(tmpdir(), "linkbot-async-"));
  const closers: (() => unknown)[] = [];
  let n = 0;
  beforeAll(async () => void (pg = await startPostgres()));
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const openSqlite = async (): Promise<EngineDb<S>> => {
    const { sqlite, close } = spec.openSqlite(join(dir, `db-${++n}.sqlite`));
    closers.push(close);
    return { engine: "sqlite", db: createAsyncSqlite(sqlite, spec.tables.sqlite).db, sqlite };
  };
  const openPostgres = async (): Promise<EngineDb<S>> => {
    const { db, sql, close } = await spec.openPostgres(await pg!.createDatabase());
    closers.push(close);
    return { engine: "postgres", db: createAsyncPg<S>(db, spec.tables.postgres), sql };
  };
  return [
    ["sqlite", openSqlite],
    ["postgres", openPostgres],
  ];
}

/** The service's own schema on both engines, migrated as the service migrates it. */
export function appEnginesForFile(): [Engine, () => Promise<EngineDb<Tables>>][] {
  return asyncEnginesForFile<Tables>({
    tables: { sqlite: schema, postgres: schemaPg },
    openSqlite: (path) => {
      const handle = createDb(path);
      return { sqlite: handle.sqlite, close: handle.close };
    },
    openPostgres: async (url) => {
      const handle = await createPgDb(url, { max: 10 });
      return { db: handle.db, sql: handle.sql, close: handle.close };
    },
  });
}

/**
 * Runs `body` once per database in a `describe` named after it (SQLite, then a real PostgreSQL
 * started for the test file), with a test timeout that allows for starting the server.
 */
export function onBothDatabases(body: (open: () => Promise<EngineDb<Tables>>, engine: Engine) => void): void {
  // starting a real PostgreSQL server takes longer than bun's 5 s default on a busy machine
  setDefaultTimeout(60_000);
  for (const [engine, open] of appEnginesForFile()) describe(engine, () => body(open, engine));
}
