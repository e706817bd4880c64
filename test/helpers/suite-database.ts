/**
 * The suite on PostgreSQL (`bun run test:postgres`, which sets TEST_DATABASE=postgres): preloaded
 * before every test file, this finds the run's one PostgreSQL server and its migrated template
 * database; `createTestApp` then gives each app a fresh copy of it (CREATE DATABASE … TEMPLATE, made
 * synchronously through psql, so test apps stay synchronous to build). Without
 * TEST_DATABASE=postgres it does nothing and the suite runs on SQLite.
 *
 * The run's script starts the server and migrates the template once, before the test files, and
 * hands them both in TEST_POSTGRES_SUITE: the files run in several worker processes at once, and
 * each file is loaded afresh, so a server started here would be one per file. A file run by hand
 * with TEST_DATABASE=postgres alone starts a server of its own here.
 *
 * A server that cannot start fails the run loudly; it is never skipped.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { createPgDb } from "../../db/postgres";
import { createAsyncPg } from "../../db/async-pg";
import * as schemaPg from "../../db/schema-pg";
import type { AsyncDb, Tables } from "../../db/async";
import { APP_ROLE, startPostgres, type PgServer } from "./postgres";

/** The run's server, as the test files reach it: its URL, the superuser's psql over its socket, and the migrated template. */
export interface SuiteDatabase {
  url: string;
  template: string;
  psql: string[];
  socketDir: string;
  port: number;
}

/** The environment variable through which the run's script hands its server to the test files. */
export const SUITE_VARIABLE = "TEST_POSTGRES_SUITE";

/** Starts a server and migrates its template: once per run, by the run's script (or here for a file run alone). */
export async function startSuiteDatabase(): Promise<{ suite: SuiteDatabase; server: PgServer }> {
  const server = await startPostgres();
  // the template: a database migrated as the service migrates it, then closed (a template must have no connections)
  const handle = await createPgDb(server.url, { max: 1 });
  await handle.close();
  const template = new URL(server.url).pathname.slice(1);
  return { suite: { url: server.url, template, ...server.adminCommand() }, server };
}

const KEY = Symbol.for("linkbot.suiteDatabase");
type Holder = { [KEY]?: SuiteDatabase };

/** The run's PostgreSQL server and migrated template, when the suite runs on PostgreSQL. */
export function suiteDatabase(): SuiteDatabase | undefined {
  return (globalThis as Holder)[KEY];
}

/**
 * A fresh database copied from the migrated template, and the service's handle on it; `close` ends
 * the pool (the database goes with the server at the end of the run).
 */
export function freshPgDatabase(suite: SuiteDatabase): { url: string; asyncDb: AsyncDb; close(): void } {
  // unique across the run's worker processes and the files each of them loads afresh
  const name = `app_${process.pid}_${randomBytes(6).toString("hex")}`;
  const { socketDir, port, psql } = suite;
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
  const url = suite.url.replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
  const sql = new SQL(url, { max: 4 });
  const db = drizzle({ client: sql, schema: schemaPg });
  return { url, asyncDb: createAsyncPg<Tables>(db, schemaPg as unknown as Record<keyof Tables, unknown>), close: () => void sql.close() };
}

if (process.env.TEST_DATABASE === "postgres" && !suiteDatabase()) {
  const handed = process.env[SUITE_VARIABLE];
  if (handed) (globalThis as Holder)[KEY] = JSON.parse(handed) as SuiteDatabase;
  else {
    const { suite, server } = await startSuiteDatabase();
    (globalThis as Holder)[KEY] = suite;
    process.on("exit", () => server.stopSync());
  }
}
