/**
 * The asynchronous database seam: one handle type that core code queries the same way on SQLite
 * (the embedded default) and on PostgreSQL (cluster mode).
 *
 * A handle is drizzle's query builder plus the tables of its dialect (`db.tables`). Core code takes
 * its tables from the handle it queries, never from an import of `db/schema`, so the same function
 * builds SQLite SQL on SQLite and PostgreSQL SQL on PostgreSQL. Queries are awaited builders:
 * `await db.select().from(t).where(…)`, `await db.insert(t).values(v).returning()`. The builder is
 * typed as SQLite's asynchronous one (the row types of both schemas are held equal by a test), so
 * the few SQLite-only calls (`.all()`, `.get()`, `.run()`, `.values()`, `.prepare()`) type-check
 * but fail on PostgreSQL: code on this seam never uses them (`first` replaces `.get()`; a
 * `.returning()` list replaces the `changes` count of `.run()`).
 *
 * Transactions go through `transaction(db, async (tx) => …)`: on SQLite the one connection is taken
 * exclusively (BEGIN IMMEDIATE) and every query from outside the transaction waits until it ends; on
 * PostgreSQL the transaction runs on a connection of the pool. Inside, query through `tx`.
 */
import { sql, type SQL } from "drizzle-orm";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type * as schema from "./schema";

/** The application's tables, as core code sees them (SQLite's declarations; PostgreSQL's match). */
export type Tables = typeof schema;

export type Engine = "sqlite" | "postgres";

type Builder<S extends Record<string, unknown>> = Omit<BaseSQLiteDatabase<"async", unknown, S>, "transaction" | "batch" | "$client">;

declare const txBrand: unique symbol;

/** A database handle of the async seam (see the module comment). */
export type AsyncDb<S extends Record<string, unknown> = Tables> = Builder<S> & {
  /** the tables of this handle's dialect, to build its queries from */
  readonly tables: S;
  readonly engine: Engine;
};

/** The handle a transaction's callback receives; valid only until that callback's promise settles. */
export type AsyncTx<S extends Record<string, unknown> = Tables> = AsyncDb<S> & { readonly [txBrand]: true };

/** What a function takes when it may run inside a caller's transaction or on its own. */
export type AsyncDbOrTx<S extends Record<string, unknown> = Tables> = AsyncDb<S> | AsyncTx<S>;

/** How each engine's handle runs a transaction; the handles carry it under this key. */
export const RUN_TRANSACTION = Symbol("runTransaction");

export type TransactionRunner = <T>(fn: (tx: AsyncTx<never>) => Promise<T>) => Promise<T>;

/**
 * Runs `fn` in a transaction: committed when its promise resolves, rolled back when it rejects
 * (the rejection is passed on). Called with a transaction's `tx`, it runs `fn` in a savepoint of
 * that transaction instead. On SQLite the transaction holds the one connection until it ends, so
 * the body awaits nothing but its own queries (no network, no timers).
 */
export function transaction<S extends Record<string, unknown>, T>(db: AsyncDbOrTx<S>, fn: (tx: AsyncTx<S>) => Promise<T>): Promise<T> {
  const run = (db as unknown as { [RUN_TRANSACTION]: TransactionRunner })[RUN_TRANSACTION];
  return run(fn as (tx: AsyncTx<never>) => Promise<T>);
}

/** The first row of a result, or undefined (what `.get()` was on the synchronous driver). */
/**
 * The number of rows a query matches before its LIMIT and OFFSET, computed in the same statement as
 * the page (`count(*) over ()`), so the page and its total always agree, even while rows are being
 * written. Rows of an empty page carry no total: ask with count() then.
 */
export const totalRows = () => sql<number>`count(*) over ()`.mapWith(Number);

export function first<R>(rows: readonly R[]): R | undefined {
  return rows[0];
}

/**
 * True when `e` is a unique or primary-key violation, as each driver reports it: bun:sqlite's
 * `SQLITE_CONSTRAINT_UNIQUE` / `_PRIMARYKEY`, or PostgreSQL's SQLSTATE 23505 inside drizzle's
 * query error. What a module maps to a 409 it recognizes through here.
 */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
  const cause = (e as { cause?: { errno?: unknown } } | null)?.cause;
  return cause?.errno === "23505";
}

/**
 * Makes a check-then-write exact across nodes: inside a transaction, waits until no other
 * transaction holds `key`, then holds it until this transaction ends. On PostgreSQL a transaction
 * advisory lock on the key's hash (`pg_advisory_xact_lock`); on SQLite nothing is needed, since a
 * write transaction (BEGIN IMMEDIATE) already runs alone. Use a key that names what is checked,
 * e.g. `links-of:42` for a plan limit counted over a user's links.
 */
export async function serializeOn<S extends Record<string, unknown>>(tx: AsyncTx<S>, key: string): Promise<void> {
  if (tx.engine !== "postgres") return;
  await (tx as unknown as { execute(q: SQL): Promise<unknown> }).execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * The rows of one SQL statement built with drizzle's `sql` (for what the query builder cannot say,
 * e.g. a `union all` of aggregates): drizzle's `all` on SQLite, its `execute` on PostgreSQL.
 */
export async function rowsOf<R = Record<string, unknown>, S extends Record<string, unknown> = Tables>(
  db: AsyncDbOrTx<S>,
  q: SQL,
): Promise<R[]> {
  if (db.engine === "postgres") {
    const res = (await (db as unknown as { execute(q: SQL): Promise<unknown> }).execute(q)) as R[] | { rows: R[] };
    return Array.isArray(res) ? res : res.rows;
  }
  return (db as unknown as { all(q: SQL): Promise<R[]> }).all(q);
}

/**
 * Streams `text` (rows in COPY's text format) into `COPY … FROM STDIN` on a PostgreSQL transaction's
 * own connection (Bun's SQL driver: `query.writable()`), and resolves once the server has stored the
 * rows: they are part of the transaction and commit or roll back with it. PostgreSQL only.
 */
export async function copyIn<S extends Record<string, unknown>>(tx: AsyncTx<S>, statement: string, text: string): Promise<void> {
  if (tx.engine !== "postgres") throw new Error("copyIn: PostgreSQL only");
  // drizzle's Bun SQL transaction keeps Bun's transaction handle (the reserved connection) on its session
  const client = (tx as unknown as { session?: { client?: { unsafe(q: string): { writable(): WritableStream<string> } } } }).session
    ?.client;
  if (!client) throw new Error("copyIn: not a PostgreSQL transaction");
  const query = client.unsafe(statement);
  const writer = query.writable().getWriter();
  // the query settles with the COPY (its row count, or the server's error, which close() also reports)
  const done = Promise.resolve(query);
  done.catch(() => {});
  try {
    await writer.write(text);
    await writer.close();
  } catch (e) {
    await writer.abort(e).catch(() => {});
    throw e;
  }
  await done;
}
