import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb } from "../../db/client";
import * as sqliteSchema from "../../db/schema";
import { createPgDb } from "../../db/postgres";
import { PG_ONLY_TABLES } from "../../db/schema-pg";
import { startPostgres, type PgServer } from "../helpers/postgres";
import { pgModel, sqliteModel, type SchemaModel } from "../helpers/schema-model";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
let dir: string;
let sqlite: SchemaModel;
let postgres: SchemaModel;

beforeAll(async () => {
  pg = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), "linkbot-drift-"));
  const lite = createDb(join(dir, "drift.db"));
  sqlite = sqliteModel(lite.sqlite, sqliteSchema);
  lite.close();
  const pgdb = await createPgDb(pg.url);
  postgres = await pgModel(pgdb.sql, PG_ONLY_TABLES);
  await pgdb.close();
});
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("both migrated databases have the same tables", () => {
  expect(Object.keys(postgres).sort()).toEqual(Object.keys(sqlite).sort());
  expect(Object.keys(sqlite).length).toBeGreaterThanOrEqual(20);
});

test("every table has the same columns, types, nullability and defaults", () => {
  for (const table of Object.keys(sqlite))
    expect({ table, columns: postgres[table]?.columns }).toEqual({ table, columns: sqlite[table]!.columns });
});

test("every table has the same primary key, indexes and foreign keys", () => {
  for (const table of Object.keys(sqlite)) {
    const { columns: _p, ...pgRest } = postgres[table] ?? ({} as never);
    const { columns: _s, ...liteRest } = sqlite[table]!;
    expect({ table, ...pgRest }).toEqual({ table, ...liteRest });
  }
});

test("the cluster's own tables exist only on PostgreSQL and are the only ones", async () => {
  const pgdb = await createPgDb(pg.url);
  try {
    const all = Object.keys(await pgModel(pgdb.sql)).sort();
    expect(all.filter((t) => !(t in sqlite))).toEqual([...PG_ONLY_TABLES].sort());
  } finally {
    await pgdb.close();
  }
});
