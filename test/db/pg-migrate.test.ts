/**
 * PostgreSQL migrations (db/pg-migrate.ts) on a real server: an index built by a migration of
 * CONCURRENTLY statements does not hold up writes, a migration mixing them with other statements is
 * refused before anything runs, an invalid index a cut-off build left is built again, and the
 * bookkeeping is drizzle's own.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPgMigrations, isConcurrent } from "../../db/pg-migrate";
import { createPgDb } from "../../db/postgres";
import { startPostgres, type PgServer } from "../helpers/postgres";

setDefaultTimeout(60_000);

let pg: PgServer;
const dirs: string[] = [];
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A migrations folder with these migrations (tag → statements), in drizzle's layout. */
function folderOf(migrations: [string, string[]][]): string {
  const dir = mkdtempSync(join(tmpdir(), "linkbot-pgmig-"));
  dirs.push(dir);
  mkdirSync(join(dir, "meta"));
  const entries = migrations.map(([tag], i) => ({ idx: i, version: "7", when: 1_700_000_000_000 + i, tag, breakpoints: true }));
  writeFileSync(join(dir, "meta/_journal.json"), JSON.stringify({ version: "7", dialect: "postgresql", entries }));
  for (const [tag, statements] of migrations) writeFileSync(join(dir, `${tag}.sql`), statements.join("--> statement-breakpoint\n"));
  return dir;
}

test("the service's own migrations apply on a fresh database, the concurrent index builds among them", async () => {
  const handle = await createPgDb(await pg.createDatabase(), { max: 2 });
  try {
    expect(handle.migrated).toContain("0013_watch_links_indexes");
    const valid =
      await handle.sql`SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname IN ('tracker_matches_link', 'tracker_matches_invite') ORDER BY 1`;
    expect(valid.map((r: { relname: string; indisvalid: boolean }) => [r.relname, r.indisvalid])).toEqual([
      ["tracker_matches_invite", true],
      ["tracker_matches_link", true],
    ]);
  } finally {
    await handle.close();
  }
});

test("a concurrent index build waits for a writer that began before it, while a later writer goes on", async () => {
  const url = await pg.createDatabase();
  const a = new SQL(url, { max: 3 });
  try {
    const first = await a.reserve();
    await applyPgMigrations(first, folderOf([["0000_table", ["CREATE TABLE t (id serial PRIMARY KEY, v int)"]]]));
    first.release(); // the pool has three connections: the early writer, the runner and one to read with
    const early = await a.reserve();
    await early`BEGIN`;
    await early`INSERT INTO t (v) VALUES (1)`; // a writer in the middle of its transaction
    const runner = await a.reserve();
    let built = false;
    const migrating = applyPgMigrations(
      runner,
      folderOf([
        ["0000_table", ["CREATE TABLE t (id serial PRIMARY KEY, v int)"]],
        ["0001_index", ['CREATE INDEX CONCURRENTLY IF NOT EXISTS "t_v" ON "t" ("v")']],
      ]),
    ).then(() => (built = true));
    // a plain CREATE INDEX would queue its lock behind the open writer and every later insert behind it
    const later = new SQL(url, { max: 1 });
    await later`INSERT INTO t (v) VALUES (2)`;
    await later.close();
    expect(built).toBe(false); // the build is still waiting for the early writer
    await early`COMMIT`;
    early.release();
    await migrating;
    const [idx] = await a`SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 't_v'`;
    expect(idx).toEqual({ indisvalid: true });
    expect((await a`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)[0].n).toBe(2);
    runner.release();
  } finally {
    await a.close();
  }
});

test("an index a cut-off concurrent build left invalid is dropped and built again", async () => {
  const url = await pg.createDatabase();
  const a = new SQL(url, { max: 2 });
  try {
    await a`CREATE TABLE u (v int)`;
    await a`INSERT INTO u VALUES (1), (1)`;
    // a unique build over duplicates fails half way and leaves the index behind, invalid
    await expect(a.unsafe('CREATE UNIQUE INDEX CONCURRENTLY "u_v" ON "u" ("v")')).rejects.toThrow();
    expect((await a`SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'u_v'`)[0]).toEqual({
      indisvalid: false,
    });
    await a`DELETE FROM u WHERE ctid IN (SELECT ctid FROM u LIMIT 1)`;
    const conn = await a.reserve();
    await applyPgMigrations(conn, folderOf([["0000_unique", ['CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "u_v" ON "u" ("v")']]]));
    conn.release();
    expect((await a`SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'u_v'`)[0]).toEqual({
      indisvalid: true,
    });
  } finally {
    await a.close();
  }
});

test("a migration mixing CONCURRENTLY with other statements is refused before any migration runs", async () => {
  expect(isConcurrent("x", ['CREATE INDEX CONCURRENTLY "a" ON t (v)', 'DROP INDEX CONCURRENTLY IF EXISTS "b"'])).toBe(true);
  expect(isConcurrent("x", ["ALTER TABLE t ADD COLUMN w int"])).toBe(false);
  const url = await pg.createDatabase();
  const a = new SQL(url, { max: 1 });
  try {
    const conn = await a.reserve();
    const folder = folderOf([
      ["0000_table", ["CREATE TABLE w (v int)"]],
      ["0001_mixed", ["ALTER TABLE w ADD COLUMN x int", 'CREATE INDEX CONCURRENTLY "w_v" ON "w" ("v")']],
    ]);
    await expect(applyPgMigrations(conn, folder)).rejects.toThrow("migration 0001_mixed mixes CONCURRENTLY index statements with others");
    conn.release();
    expect((await a`SELECT to_regclass('w') IS NULL AS none`)[0]).toEqual({ none: true });
  } finally {
    await a.close();
  }
});
