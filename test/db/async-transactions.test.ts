/**
 * Transactions on SQLite's one connection once transaction bodies await.
 */
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { asc } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { leakProbe } from "../helpers/leak-probe";

const rows = sqliteTable("probe", { id: integer("id").primaryKey(), name: text("name").notNull() });

test("without the gate, a mutex between transactions alone lets other work join the open transaction", async () => {
  // what the gate prevents, shown on the synchronous driver: transactions take turns through a
  // mutex, queries outside any transaction go straight to the one connection
  const sqlite = new Database(":memory:", { strict: true });
  sqlite.exec("CREATE TABLE probe (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
  const plain = drizzleSqlite(sqlite);
  let turn = Promise.resolve();
  const steps = {
    insert: async (name: string) => void (await plain.insert(rows).values({ name })),
    names: async () => (await plain.select().from(rows).orderBy(asc(rows.name))).map((r) => r.name),
  };
  const seen = await leakProbe({
    ...steps,
    transaction: (body) => {
      const mine = turn.then(async () => {
        sqlite.run("BEGIN IMMEDIATE");
        try {
          await body(steps);
          sqlite.run("COMMIT");
        } catch (e) {
          sqlite.run("ROLLBACK");
          throw e;
        }
      });
      turn = mine.catch(() => {});
      return mine;
    },
  });
  expect(seen.outsideRead).toContain("uncommitted"); // read a row that was then rolled back
  expect(await steps.names()).toEqual([]); // "outside" was written inside the transaction and rolled back with it
  sqlite.close();
});
