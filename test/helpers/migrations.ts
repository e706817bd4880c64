/** Databases as an older deployed version left them, for tests of what a migration does to existing rows. */
import { expect } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";

const MIGRATIONS = join(import.meta.dir, "../../db/migrations");

/** A database migrated up to (not including) the migration tagged `before`, as a deployed older version left it. */
export function databaseBefore(before: string, path: string) {
  const folder = mkdtempSync(join(tmpdir(), "linkbot-migrations-"));
  for (const f of readdirSync(MIGRATIONS).filter((f) => f.endsWith(".sql"))) copyFileSync(join(MIGRATIONS, f), join(folder, f));
  mkdirSync(join(folder, "meta"));
  const journalPath = join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === before);
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  const sqlite = new Database(path, { create: true });
  sqlite.exec("PRAGMA foreign_keys = ON");
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  rmSync(folder, { recursive: true, force: true });
  return sqlite;
}
