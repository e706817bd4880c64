/**
 * The async seam on PostgreSQL: drizzle on Bun's SQL pool (db/postgres.ts) with the PostgreSQL
 * tables. Each query outside a transaction takes any connection of the pool; each transaction
 * reserves one connection from BEGIN to COMMIT, so transactions of concurrent requests run side by
 * side and PostgreSQL's own locking keeps them apart (a conditional `UPDATE … WHERE used < cap`
 * waits for a concurrent one's row lock and re-checks its condition on the committed row).
 */
import { RUN_TRANSACTION, type AsyncDb, type AsyncTx, type TransactionRunner } from "./async";

/** What drizzle's PostgreSQL database and transaction objects have in common here. */
interface PgRunner {
  transaction<T>(fn: (tx: PgRunner) => Promise<T>): Promise<T>;
}

/**
 * The async seam over a drizzle PostgreSQL database and the PostgreSQL twins of the tables core
 * code names, under the same keys (db/schema-pg for db/schema).
 */
export function createAsyncPg<S extends Record<string, unknown>>(pg: object, tables: Record<keyof S, unknown>): AsyncDb<S> {
  return adopt(pg as PgRunner, tables) as unknown as AsyncDb<S>;
}

function adopt(handle: PgRunner, tables: unknown): PgRunner {
  // drizzle's own method opens the transaction (on the pool) or the savepoint (in a transaction);
  // the handle it passes is adopted the same way, so nested calls keep the tables
  const open = handle.transaction.bind(handle);
  const run: TransactionRunner = (fn) => open((inner) => fn(adopt(inner, tables) as unknown as AsyncTx<never>));
  // a view of the handle (its builder methods through the prototype), so the handle itself is left as it was
  return Object.assign(Object.create(handle) as PgRunner, { tables, engine: "postgres" as const, [RUN_TRANSACTION]: run });
}
