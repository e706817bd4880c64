import { expect, test } from "bun:test";
import { getTableName, is, Table } from "drizzle-orm";
import * as lite from "../../db/schema";
import * as pg from "../../db/schema-pg";

/** Compile-time equality: `true` only when A and B are the same type (checked by tsc in the suite). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Rows<S> = { [K in keyof S]: S[K] extends { $inferSelect: infer R } ? R : never };
type Inserts<S> = { [K in keyof S]: S[K] extends { $inferInsert: infer R } ? R : never };
type Shared = keyof typeof lite & keyof typeof pg;
type LiteTables = { [K in keyof typeof lite as (typeof lite)[K] extends Table ? K : never]: (typeof lite)[K] };

// every SQLite table has a PostgreSQL twin under the same export name…
const twins: Same<Exclude<keyof LiteTables, keyof typeof pg>, never> = true;
// …whose rows (read and insert) have exactly the same TypeScript type, so ported code type-checks unchanged
const rows: Same<Pick<Rows<typeof lite>, Shared & keyof LiteTables>, Pick<Rows<typeof pg>, Shared & keyof LiteTables>> = true;
// (SQLite lets an integer primary key be left out of an insert, as the rowid; PostgreSQL needs
// webhook_secrets.user_id, which every insert gives anyway: there the PostgreSQL type is the stricter)
type Strict = "webhookSecrets";
const inserts: Same<
  Omit<Pick<Inserts<typeof lite>, Shared & keyof LiteTables>, Strict>,
  Omit<Pick<Inserts<typeof pg>, Shared & keyof LiteTables>, Strict>
> = true;
const stricter: Inserts<typeof pg>[Strict] extends Inserts<typeof lite>[Strict] ? true : false = true;

test("each SQLite table has a PostgreSQL twin with the same export name, table name and row types", () => {
  expect([twins, rows, inserts, stricter]).toEqual([true, true, true, true]);
  const liteTables = Object.entries(lite).filter(([, v]) => is(v, Table)) as [string, Table][];
  expect(liteTables.length).toBeGreaterThanOrEqual(20);
  for (const [name, table] of liteTables) {
    const twin = (pg as Record<string, unknown>)[name];
    expect({ name, twin: is(twin, Table) ? getTableName(twin as Table) : null }).toEqual({ name, twin: getTableName(table) });
  }
});
