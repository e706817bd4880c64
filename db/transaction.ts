import type { Db } from "./client";

/**
 * The handle a transaction's callback receives. Functions that may run inside a caller's
 * transaction or on their own take a DbOrTx; nothing casts one to the other.
 */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Runs `fn` in a write transaction that takes SQLite's write lock at BEGIN (BEGIN IMMEDIATE). A
 * deferred transaction that reads and then writes has to upgrade its lock, and SQLite answers
 * SQLITE_BUSY at once (without the busy timeout) when another connection, such as the click
 * writer thread, wrote meanwhile; taking the lock first lets the busy timeout wait for it instead.
 * Every transaction of the service that writes goes through here (inside one, `tx.transaction`
 * makes a savepoint).
 */
export function writeTransaction<T>(db: DbOrTx, fn: (tx: Tx) => T): T {
  return db.transaction(fn, { behavior: "immediate" });
}
