/**
 * The async seam on SQLite: drizzle's asynchronous SQLite builder over the service's one bun:sqlite
 * connection, with a gate that keeps transactions whole.
 *
 * SQLite has one connection per process here, and a transaction is a state of the connection, not
 * of a caller: once a transaction body awaits, other requests run between its steps, and a query
 * they send to the connection runs inside the open transaction (it sees uncommitted rows, and its
 * writes commit or roll back with that transaction). So while a transaction is open, a query runs
 * at once only if it belongs to it, that is, it was issued from the transaction's body (known
 * through AsyncLocalStorage, which follows the body's awaits); every other query and transaction
 * waits in line until the transaction ends. While no transaction is open, a query runs at once,
 * synchronously inside the builder's `then`, adding no await of its own.
 */
import type { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { createTableRelationsHelpers, extractTablesRelationalConfig, type Query } from "drizzle-orm";
import { SQLiteBunSession } from "drizzle-orm/bun-sqlite";
import { BaseSQLiteDatabase, SQLiteAsyncDialect, SQLitePreparedQuery, SQLiteSession } from "drizzle-orm/sqlite-core";
import { RUN_TRANSACTION, type AsyncDb, type AsyncTx, type Tables, type TransactionRunner } from "./async";
import { createDb, type DbHandle } from "./client";
import * as schema from "./schema";

/** One open transaction on the connection. */
interface OpenTx {
  savepoints: number;
}

type Method = "run" | "all" | "get" | "values";

/**
 * Who may use the connection now. `open` is the transaction holding it; waiters are woken when it
 * ends and check again (a transaction that started meanwhile sends them back to the line).
 */
class ConnectionGate {
  open: OpenTx | null = null;
  private waiting: (() => void)[] = [];
  readonly context = new AsyncLocalStorage<OpenTx>();

  /** True when the caller may use the connection now: nothing open, or the caller is inside what is open. */
  free(): boolean {
    return this.open === null || this.context.getStore() === this.open;
  }

  /** The open transaction, when the caller is inside it. */
  own(): OpenTx | null {
    return this.open !== null && this.context.getStore() === this.open ? this.open : null;
  }

  /** Resolves when the caller may use the connection (it may be taken again before the caller acts, so callers loop). */
  turn(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Runs `fn` now when the connection is free, else when it becomes free for the caller. */
  use<T>(fn: () => T): T | Promise<T> {
    return this.free() ? fn() : this.later(fn);
  }

  private async later<T>(fn: () => T): Promise<T> {
    do await this.turn();
    while (!this.free());
    return fn();
  }

  release(): void {
    this.open = null;
    const woken = this.waiting;
    this.waiting = [];
    for (const wake of woken) wake();
  }
}

/**
 * A query of the async builder: bun-sqlite's synchronous prepared query, run through the gate.
 * `strict` is the transaction handle's: it runs only inside its own open transaction.
 */
class GatedQuery extends SQLitePreparedQuery<{
  type: "async";
  run: unknown;
  all: unknown;
  get: unknown;
  values: unknown;
  execute: unknown;
}> {
  constructor(
    private inner: SQLitePreparedQuery<never> & Record<Method, (p?: Record<string, unknown>) => unknown>,
    private gate: ConnectionGate,
    private strict: boolean,
    query: Query,
    executeMethod: "run" | "all" | "get",
  ) {
    super("async", executeMethod, query);
  }

  private call(method: Method, placeholders?: Record<string, unknown>): Promise<unknown> {
    // select builders set the join map on the query they prepared, which is this one
    (this.inner as unknown as { joinsNotNullableMap: unknown }).joinsNotNullableMap = (
      this as unknown as { joinsNotNullableMap: unknown }
    ).joinsNotNullableMap;
    if (this.strict && !this.gate.own())
      throw new Error(
        "A transaction's handle was used outside its transaction (after it ended, or from other work): query through the database handle instead",
      );
    return this.gate.use(() => this.inner[method](placeholders)) as Promise<unknown>;
  }

  run(p?: Record<string, unknown>) {
    return this.call("run", p);
  }
  all(p?: Record<string, unknown>) {
    return this.call("all", p);
  }
  get(p?: Record<string, unknown>) {
    return this.call("get", p);
  }
  values(p?: Record<string, unknown>) {
    return this.call("values", p);
  }
  isResponseInArrayMode(): boolean {
    return (this.inner as unknown as { isResponseInArrayMode(): boolean }).isResponseInArrayMode();
  }
}

class GatedSession extends SQLiteSession<"async", unknown, Record<string, unknown>, never> {
  constructor(
    private inner: SQLiteBunSession<Record<string, unknown>, never>,
    private gate: ConnectionGate,
    private strict: boolean,
    dialect: SQLiteAsyncDialect,
  ) {
    super(dialect);
  }

  prepareQuery(
    query: Query,
    fields: unknown,
    executeMethod: "run" | "all" | "get",
    isResponseInArrayMode: boolean,
    customResultMapper?: unknown,
  ) {
    const prepare = this.inner.prepareQuery.bind(this.inner) as (...args: unknown[]) => unknown;
    const inner = prepare(query, fields, executeMethod, isResponseInArrayMode, customResultMapper) as ConstructorParameters<
      typeof GatedQuery
    >[0];
    return new GatedQuery(inner, this.gate, this.strict, query, executeMethod) as never;
  }

  transaction(): never {
    throw new Error("Open transactions with transaction(db, fn) from db/async.ts");
  }
}

export interface AsyncSqlite<S extends Record<string, unknown>> {
  db: AsyncDb<S>;
  /** true while a transaction holds the connection (for tests and diagnostics) */
  busy(): boolean;
  /**
   * Throws when a transaction of this seam holds the connection and the caller is not inside it.
   * Synchronous code on the same connection cannot wait, so it calls this before each query: it
   * fails loudly instead of joining someone else's transaction.
   */
  checkFree(): void;
}

/**
 * The async seam over an open bun:sqlite connection and the drizzle tables of its schema. Make one
 * per connection (it owns the connection's gate) and share it. Synchronous code on the same
 * connection cannot wait for the gate: give its drizzle handle `checkFree` (createDb's
 * `beforeQuery`) so it fails instead of running inside another's transaction.
 */
export function createAsyncSqlite<S extends Record<string, unknown>>(sqlite: Database, tables: S): AsyncSqlite<S> {
  const gate = new ConnectionGate();
  const dialect = new SQLiteAsyncDialect();
  const relations = extractTablesRelationalConfig(tables, createTableRelationsHelpers);
  const config = { fullSchema: tables, schema: relations.tables, tableNamesMap: relations.tableNamesMap };
  const bun = new SQLiteBunSession(sqlite, dialect as never, relations.tables as never);
  const handle = (strict: boolean) => {
    const session = new GatedSession(bun as never, gate, strict, dialect);
    const made = new BaseSQLiteDatabase("async", dialect, session as never, config as never);
    return Object.assign(made, { tables, engine: "sqlite" as const, [RUN_TRANSACTION]: run });
  };

  const exec = (sql: string) => sqlite.run(sql);

  async function savepoint<T>(open: OpenTx, fn: (tx: AsyncTx<never>) => Promise<T>): Promise<T> {
    const name = `sp${++open.savepoints}`;
    exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn(tx);
      exec(`RELEASE ${name}`);
      return result;
    } catch (e) {
      exec(`ROLLBACK TO ${name}`);
      exec(`RELEASE ${name}`);
      throw e;
    }
  }

  const run: TransactionRunner = async (fn) => {
    const mine = gate.own();
    if (mine) return savepoint(mine, fn);
    while (gate.open !== null) await gate.turn();
    const open: OpenTx = { savepoints: 0 };
    gate.open = open; // taken before any await: nothing else runs on the connection from here
    try {
      exec("BEGIN IMMEDIATE");
    } catch (e) {
      gate.release();
      throw e;
    }
    try {
      const result = await gate.context.run(open, () => fn(tx));
      exec("COMMIT");
      return result;
    } catch (e) {
      if (sqlite.inTransaction) exec("ROLLBACK");
      throw e;
    } finally {
      gate.release();
    }
  };

  const db = handle(false) as unknown as AsyncDb<S>;
  const tx = handle(true) as unknown as AsyncTx<never>;
  const checkFree = () => {
    if (!gate.free())
      throw new Error(
        "A synchronous query ran while an async transaction held the SQLite connection: it would have joined that transaction; move this query to the async seam",
      );
  };
  return { db, busy: () => gate.open !== null, checkFree };
}

/**
 * Opens the service's SQLite database (createDb) with both handles over its one connection: the
 * synchronous drizzle handle, which refuses to run inside the async seam's transactions, and the
 * async seam.
 */
export function openSqlite(path: string, options: { migrate?: boolean } = {}): { handle: DbHandle; seam: AsyncSqlite<Tables> } {
  let checkFree = () => {}; // nothing is open while migrating
  const handle = createDb(path, { beforeQuery: () => checkFree(), migrate: options.migrate });
  const seam = createAsyncSqlite(handle.sqlite, schema);
  checkFree = seam.checkFree;
  return { handle, seam };
}
