/**
 * The suite on PostgreSQL (`bun run test:postgres`, which sets TEST_DATABASE=postgres): preloaded
 * before the test files, this starts one real PostgreSQL server for the run and migrates a template
 * database once; `createTestApp` then gives each app a fresh copy of it (CREATE DATABASE …
 * TEMPLATE, made synchronously through psql, so test apps stay synchronous to build). Without
 * TEST_DATABASE=postgres it does nothing and the suite runs on SQLite.
 *
 * A server that cannot start fails the run loudly; it is never skipped.
 */
import { execFileSync } from "node:child_process";
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { createPgDb } from "../../db/postgres";
import { createAsyncPg } from "../../db/async-pg";
import * as schemaPg from "../../db/schema-pg";
import type { AsyncDb, Tables } from "../../db/async";
import { APP_ROLE, startPostgres, type PgServer } from "./postgres";

export interface SuiteDatabase {
  server: PgServer;
  template: string;
}

const KEY = Symbol.for("linkbot.suiteDatabase");
type Holder = { [KEY]?: SuiteDatabase };

/** The run's PostgreSQL server and migrated template, when the suite runs on PostgreSQL. */
export function suiteDatabase(): SuiteDatabase | undefined {
  return (globalThis as Holder)[KEY];
}

let made = 0;

/**
 * A fresh database copied from the migrated template, and the service's handle on it; `close` ends
 * the pool (the database goes with the server at the end of the run).
 */
export function freshPgDatabase(suite: SuiteDatabase): { url: string; asyncDb: AsyncDb; close(): void } {
  const name = `app_${process.pid}_${++made}`;
  const { socketDir, port, psql } = suite.server.adminCommand();
  execFileSync(
    psql[0]!,
    [
      ...psql.slice(1),
      "-h",
      socketDir,
      "-p",
      String(port),
      "-U",
      "postgres",
      "-d",
      "postgres",
      "-c",
      `CREATE DATABASE ${name} TEMPLATE ${suite.template} OWNER ${APP_ROLE}`,
    ],
    { stdio: "pipe" },
  );
  const url = suite.server.url.replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
  const sql = new SQL(url, { max: 4 });
  const db = drizzle({ client: sql, schema: schemaPg });
  return { url, asyncDb: createAsyncPg<Tables>(db, schemaPg as unknown as Record<keyof Tables, unknown>), close: () => void sql.close() };
}

if (process.env.TEST_DATABASE === "postgres" && !suiteDatabase()) {
  const server = await startPostgres();
  // the template: a database migrated as the service migrates it, then closed (a template must have no connections)
  const handle = await createPgDb(server.url, { max: 1 });
  await handle.close();
  const template = new URL(server.url).pathname.slice(1);
  (globalThis as Holder)[KEY] = { server, template };
  process.on("exit", () => server.stopSync());
}
