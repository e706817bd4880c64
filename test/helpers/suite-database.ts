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

/** How many databases are made ahead of the apps that will take them. */
const AHEAD = 6;
/** Databases copied from the template and not yet taken: an app takes one without waiting for the copy. */
const ready: string[] = [];
/** Databases of closed apps, to drop (a run makes about a thousand, 10 MB each). */
const closed: string[] = [];
let tending = false;

/** A database name unique across the run's worker processes and the files each of them loads afresh. */
const newName = () => `app_${process.pid}_${randomBytes(6).toString("hex")}`;

/** psql as the superuser over the socket, running `statements` one by one (each its own transaction). */
function psqlArgs(suite: SuiteDatabase, statements: string[]): string[] {
  const { socketDir, port, psql } = suite;
  return [...psql, "-h", socketDir, "-p", String(port), "-U", "postgres", "-d", "postgres", ...statements.flatMap((s) => ["-c", s])];
}

const createStatement = (suite: SuiteDatabase, name: string) => `CREATE DATABASE ${name} TEMPLATE ${suite.template} OWNER ${APP_ROLE}`;

/**
 * In the background, while the current test runs (the work is the server's, on the core the test
 * leaves), with one psql for the lot: drops the closed apps' databases and copies the template into
 * the databases the next apps will take.
 */
function tend(suite: SuiteDatabase) {
  if (tending || (ready.length >= AHEAD && !closed.length)) return;
  tending = true;
  const drops = closed.splice(0);
  const names = Array.from({ length: AHEAD - ready.length }, newName);
  const proc = Bun.spawn(
    psqlArgs(suite, [...drops.map((n) => `DROP DATABASE IF EXISTS ${n} WITH (FORCE)`), ...names.map((n) => createStatement(suite, n))]),
    { stdout: "ignore", stderr: "pipe" },
  );
  proc.unref();
  void proc.exited.then(async (code) => {
    tending = false;
    if (code === 0) ready.push(...names);
    // what was made before a failure stays unused (the run's server goes at its end); the next app
    // copies its own, and fails with psql's words if that fails too
    else console.error(`dropping and copying test databases failed (${code}): ${await new Response(proc.stderr).text()}`);
  });
}

/**
 * A fresh database copied from the migrated template, and the service's handle on it; `close` ends
 * the pool and has the database dropped. It is one made ahead when one is ready; otherwise it is
 * copied here, synchronously, so test apps stay synchronous to build.
 */
export function freshPgDatabase(suite: SuiteDatabase): { url: string; asyncDb: AsyncDb; close(): void } {
  let name = ready.shift();
  if (!name) {
    name = newName();
    const [command, ...args] = psqlArgs(suite, [createStatement(suite, name)]);
    execFileSync(command!, args, { stdio: "pipe" });
  }
  tend(suite);
  const url = suite.url.replace(/\/[^/?]+(\?|$)/, `/${name}$1`);
  const sql = new SQL(url, { max: 4 });
  const db = drizzle({ client: sql, schema: schemaPg });
  const close = () => {
    void sql.close();
    closed.push(name);
  };
  return { url, asyncDb: createAsyncPg<Tables>(db, schemaPg as unknown as Record<keyof Tables, unknown>), close };
}

if (process.env.TEST_DATABASE === "postgres" && !suiteDatabase()) {
  const handed = process.env[SUITE_VARIABLE];
  if (handed) (globalThis as Holder)[KEY] = JSON.parse(handed) as SuiteDatabase;
  else {
    const { suite, server } = await startSuiteDatabase();
    (globalThis as Holder)[KEY] = suite;
    process.on("exit", () => server.stopSync());
  }
  // the first apps' databases, copied while the first file loads
  tend(suiteDatabase()!);
}
