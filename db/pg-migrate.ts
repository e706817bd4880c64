/**
 * Applies PostgreSQL migrations as drizzle's migrator does (the same bookkeeping table, so either can
 * follow the other), one transaction per migration, with one addition: a migration made only of
 * `CREATE INDEX CONCURRENTLY` / `DROP INDEX CONCURRENTLY` statements runs outside a transaction,
 * so an index on a large table (clicks, roll-ups, matches) is built while writes go on. A migration
 * that mixes such a statement with others is refused before anything runs (it could not be undone
 * half way). An index a crashed concurrent build left invalid is dropped and built again.
 */
import type { ReservedSQL, SQL } from "bun";
import { readMigrationFiles } from "drizzle-orm/migrator";

const CONCURRENT = /^\s*(CREATE\s+(UNIQUE\s+)?INDEX|DROP\s+INDEX)\s+CONCURRENTLY\b/i;
const INDEX_NAME = /INDEX\s+CONCURRENTLY\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?"?([\w$]+)"?/i;

const statementsOf = (m: { sql: string[] }) => m.sql.map((s) => s.trim()).filter(Boolean);

/** True when the migration builds or drops indexes concurrently (and only that). Throws when it mixes. */
export function isConcurrent(tag: string, statements: string[]): boolean {
  const concurrent = statements.filter((s) => CONCURRENT.test(s)).length;
  if (concurrent && concurrent !== statements.length)
    throw new Error(`migration ${tag} mixes CONCURRENTLY index statements with others: put the index builds in a migration of their own`);
  return concurrent > 0;
}

/** Applies the pending migrations of `folder` on `conn` (which holds the migration lock). */
export async function applyPgMigrations(conn: ReservedSQL, folder: string): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const tags = (await Bun.file(`${folder}/meta/_journal.json`).json()).entries.map((e: { tag: string }) => e.tag) as string[];
  // every migration is checked before any runs
  const concurrent = migrations.map((m, i) => isConcurrent(tags[i]!, statementsOf(m)));
  await conn.unsafe("CREATE SCHEMA IF NOT EXISTS drizzle");
  await conn.unsafe(
    "CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)",
  );
  const [last] = await conn`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`;
  const after = last ? Number(last.created_at) : -Infinity;
  for (const [i, m] of migrations.entries()) {
    if (m.folderMillis <= after) continue;
    const record = (q: SQL) => q`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${m.hash}, ${m.folderMillis})`;
    if (!concurrent[i]) {
      await conn.begin(async (tx) => {
        for (const statement of statementsOf(m)) await tx.unsafe(statement);
        await record(tx);
      });
      continue;
    }
    for (const statement of statementsOf(m)) {
      const name = INDEX_NAME.exec(statement)?.[1];
      // a concurrent build that was cut off leaves an invalid index behind, which IF NOT EXISTS would keep
      if (name && /^\s*CREATE/i.test(statement)) {
        const [invalid] =
          await conn`SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ${name} AND NOT i.indisvalid`;
        if (invalid) await conn.unsafe(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
      }
      await conn.unsafe(statement);
    }
    await record(conn);
  }
}
