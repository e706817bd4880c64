/**
 * The workspaces migration on a copy of a large SQLite database: a file migrated up to the release
 * before workspaces is seeded with `--users N` accounts (default 1,000), `--links N` links (default
 * 100,000) and `--clicks N` clicks (default 10,000,000), copied, and the copy opened as the service
 * opens it (migrations run at start); the time of that start, and the file's size, are printed.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { createDb } from "../db/client";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const USERS = arg("users", 1_000);
const LINKS = arg("links", 100_000);
const CLICKS = arg("clicks", 10_000_000);
const FIRST_NEW = "0031_workspaces";
const MIGRATIONS = join(import.meta.dir, "..", "db", "migrations");

/** A database migrated up to (not including) `before`, as the release before it left one. */
function releaseBefore(before: string, path: string): Database {
  const folder = mkdtempSync(join(tmpdir(), "linkbot-migrations-"));
  for (const f of readdirSync(MIGRATIONS).filter((f) => f.endsWith(".sql"))) copyFileSync(join(MIGRATIONS, f), join(folder, f));
  mkdirSync(join(folder, "meta"));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === before);
  if (cut < 1) throw new Error(`no migration ${before}`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify(journal));
  const sqlite = new Database(path, { create: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  rmSync(folder, { recursive: true, force: true });
  return sqlite;
}

const dir = mkdtempSync(join(tmpdir(), "linkbot-bench-ws-"));
try {
  const seedPath = join(dir, "seed.db");
  const db = releaseBefore(FIRST_NEW, seedPath);
  let t = performance.now();
  const day = Date.parse("2026-11-01T00:00:00Z");
  db.exec("PRAGMA synchronous = OFF");
  db.transaction(() => {
    db.run(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${USERS})
       insert into users (id, username, msgr_id, created_at) select i, 'user' || i, 1000000 + i, ${day} from n`,
    );
    db.run(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${LINKS})
       insert into links (id, user_id, code, url, created_at, updated_at)
       select i, 1 + (i % ${USERS}), 'c' || i, 'https://shop.example/' || i, ${day}, ${day} from n`,
    );
    db.run(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${USERS})
       insert into api_tokens (user_id, name, scopes, token_hash, hint, created_at) select i, 'ci', '["*"]', 'hash' || i, 'lbt_sk_x', ${day} from n`,
    );
  })();
  const chunk = 1_000_000;
  for (let from = 0; from < CLICKS; from += chunk) {
    const to = Math.min(CLICKS, from + chunk);
    db.run(
      `with recursive n(i) as (select ${from + 1} union all select i + 1 from n where i < ${to})
       insert into clicks (link_id, clicked_at, country, device) select 1 + (i % ${LINKS}), ${day} + i * 250, 'DE', 'mobile' from n`,
    );
  }
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  const seeded = (performance.now() - t) / 1000;
  const size = statSync(seedPath).size / 1024 / 1024;
  // the copy, as an operator would try it before upgrading the real one
  const copyPath = join(dir, "copy.db");
  copyFileSync(seedPath, copyPath);
  t = performance.now();
  const upgraded = createDb(copyPath);
  const ms = performance.now() - t;
  const people = (upgraded.sqlite.query("select count(*) as n from users where kind = 'person'").get() as { n: number }).n;
  const clicks = (upgraded.sqlite.query("select count(*) as n from clicks").get() as { n: number }).n;
  upgraded.close();
  console.log(
    `seeded ${USERS.toLocaleString("en-US")} accounts, ${LINKS.toLocaleString("en-US")} links, ${CLICKS.toLocaleString("en-US")} clicks in ${seeded.toFixed(1)} s (${size.toFixed(0)} MB)`,
  );
  console.log(`migrations ${upgraded.migrated.join(", ")}: the service's start took ${ms.toFixed(1)} ms`);
  console.log(`after: ${people.toLocaleString("en-US")} person accounts, ${clicks.toLocaleString("en-US")} clicks kept`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
