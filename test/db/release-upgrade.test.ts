/**
 * Databases made by a deployed release, migrated forward by this build. test/fixtures/release-55f27d3
 * holds a SQLite file and a PostgreSQL dump (plain SQL) that the release of commit 55f27d3 (before this
 * round's schema changes: the user's app language, the referrer roll-ups) wrote, with one row in every
 * table a user owns, for two users. Each is opened as a node would open it: every row is still there
 * (the referrer roll-ups of their clicks added), and the schema is the one a fresh database gets.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { copyFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createDb } from "../../db/client";
import * as sqliteSchema from "../../db/schema";
import { createPgDb } from "../../db/postgres";
import { PG_ONLY_TABLES } from "../../db/schema-pg";
import { postgresForFile } from "../helpers/postgres";
import { pgModel, sqliteModel } from "../helpers/schema-model";

setDefaultTimeout(120_000);
const FIXTURE = join(import.meta.dir, "..", "fixtures", "release-55f27d3");
const server = postgresForFile();

/** Tables a migration since the release fills from what is stored: they may only gain rows. */
const FILLED_BY_MIGRATIONS = new Set(["link_stats_dim"]);

/** What the release's ad-post rewrite left for user 1: tags named after the placements, [id, name]. */
const AD_TAGS = [
  [40, "@bigchannel 25.11"],
  [41, "@second 26.11"],
  [42, "@third 27.11"],
] as const;
/** Their links, [id, url, title, tag]: each titled by its tag, one in another case. */
const AD_LINKS = [
  [40, "https://shop.example/a", "@bigchannel 25.11", 40],
  [41, "https://t.me/+AbCdEf", "@BigChannel 25.11", 40],
  [42, "https://t.me/+ann", "@second 26.11", 41],
  [43, "https://t.me/+ann", "@third 27.11", 42],
] as const;
/** The placements the upgrade makes of them, their bound links and invites ([id, placement]). */
const PLACEMENTS = [
  { id: 40, name: "@bigchannel 25.11", venue_kind: "telegram", venue: "bigchannel" },
  { id: 41, name: "@second 26.11", venue_kind: "telegram", venue: "second" },
  { id: 42, name: "@third 27.11", venue_kind: "telegram", venue: "third" },
];
const BOUND_LINKS = [
  [40, 40],
  [41, 40],
  [42, 41],
  [43, 42],
];
/** the owner's invite behind link 41; +ann is wrapped by two placements, so it counts for neither */
const BOUND_INVITES = [[40, 40]];

function sqliteCounts(db: Database): Record<string, number> {
  const tables = (
    db
      .query(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name",
      )
      .all() as { name: string }[]
  ).map((t) => t.name);
  return Object.fromEntries(tables.map((t) => [t, (db.query(`select count(*) as n from "${t}"`).get() as { n: number }).n]));
}

async function pgCounts(sql: SQL): Promise<Record<string, number>> {
  const tables =
    (await sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`) as {
      name: string;
    }[];
  const out: Record<string, number> = {};
  for (const { name } of tables) out[name] = Number(((await sql.unsafe(`select count(*) as n from "${name}"`)) as { n: string }[])[0]!.n);
  return out;
}

/** The rows a release left are all there after the upgrade; only tables migrations fill may have more. */
function expectKept(before: Record<string, number>, after: Record<string, number>) {
  expect(Object.values(before).reduce((a, b) => a + b, 0)).toBeGreaterThan(40);
  for (const [table, n] of Object.entries(before)) {
    if (FILLED_BY_MIGRATIONS.has(table)) expect({ table, kept: (after[table] ?? 0) >= n }).toEqual({ table, kept: true });
    else expect({ table, rows: after[table] }).toEqual({ table, rows: n });
  }
}

test("a SQLite database file of the release: every row kept, the schema a fresh database gets", () => {
  const dir = server.tmp("linkbot-upgrade-");
  const path = join(dir, "app.db");
  copyFileSync(join(FIXTURE, "app.db"), path);
  const old = new Database(path);
  // what the release's ad-post rewrite left: a tag named after the placement on links titled the same
  const made = Date.parse("2026-11-25T10:00:00Z");
  // (a title in another case: the rewrite reused a tag whatever its case); the owner's own invite
  // behind link 41, and one invite (+ann) wrapped by two placements, which stays unbound
  for (const [id, name] of AD_TAGS) old.run("insert into tags (id, user_id, name, created_at) values (?, 1, ?, ?)", [id, name, made]);
  for (const [id, url, title, tag] of AD_LINKS) {
    old.run("insert into links (id, user_id, code, url, title, created_at, updated_at) values (?, 1, ?, ?, ?, ?, ?)", [
      id,
      `ad${id}`,
      url,
      title,
      made,
      made,
    ]);
    old.run("insert into link_tags (link_id, tag_id) values (?, ?)", [id, tag]);
  }
  old.run(
    "insert into channel_invites (id, user_id, channel_id, chat_id, name, invite_link, created_at) values (40, 1, 1, '@chan-ann', 'Old ad', 'https://t.me/+AbCdEf', ?)",
    [made],
  );
  const before = sqliteCounts(old);
  const links = old.query("select id, code, url, user_id from links order by id").all();
  // the newest click deleted (as a deleted link's clicks are): its id must not be given again after the
  // clicks table is rebuilt (0026)
  const newest = (old.query("select max(id) as id from clicks").get() as { id: number }).id;
  old.run("delete from clicks where id = ?", [newest]);
  before.clicks!--;
  old.close();

  const upgraded = createDb(path);
  const fresh = createDb(join(dir, "fresh.db"));
  try {
    expect(upgraded.migrated.length).toBeGreaterThan(0);
    expectKept(before, sqliteCounts(upgraded.sqlite));
    expect(upgraded.sqlite.query("select id, code, url, user_id from links order by id").all()).toEqual(links);
    // every account is a person, its rows in its personal workspace; tokens made before have no maker
    // (they act as the account they belong to) and no team or member exists yet
    expect(upgraded.sqlite.query("select distinct kind from users").all()).toEqual([{ kind: "person" }]);
    expect((upgraded.sqlite.query("select count(*) as n from api_tokens where made_by is null").get() as { n: number }).n).toBe(
      before.api_tokens!,
    );
    expect((upgraded.sqlite.query("select count(*) as n from workspace_members").get() as { n: number }).n).toBe(0);
    // the referrer roll-ups of the clicks the release stored
    expect(
      (upgraded.sqlite.query("select count(*) as n from link_stats_dim where dim = 'referrer'").get() as { n: number }).n,
    ).toBeGreaterThan(0);
    expect(upgraded.sqlite.query("pragma foreign_key_check").all()).toEqual([]);
    // the rewrite's tag became a placement with its links bound; the release's other tags did not
    expect(upgraded.sqlite.query("select id, user_id, name, venue_kind, venue, created_at from placements order by id").all()).toEqual(
      PLACEMENTS.map((p) => ({ ...p, user_id: 1, created_at: made })),
    );
    expect(
      (upgraded.sqlite.query("select link_id, placement_id from placement_links order by link_id").all() as Record<string, number>[]).map(
        (r) => [r.link_id, r.placement_id],
      ),
    ).toEqual(BOUND_LINKS);
    // the owner's invite the rewrite wrapped counts for its placement (its joins are the placement's)
    expect(
      (upgraded.sqlite.query("select invite_id, placement_id from placement_invites").all() as Record<string, number>[]).map((r) => [
        r.invite_id,
        r.placement_id,
      ]),
    ).toEqual(BOUND_INVITES);
    expect((upgraded.sqlite.query("select count(*) as n from tags").get() as { n: number }).n).toBe(before.tags!);
    const [link] = links as { id: number }[];
    const added = upgraded.sqlite
      .query("insert into clicks (link_id, clicked_at) values (?, ?) returning id")
      .get(link!.id, Date.now()) as { id: number };
    expect(added.id).toBe(newest + 1);
    expect(sqliteModel(upgraded.sqlite, sqliteSchema)).toEqual(sqliteModel(fresh.sqlite, sqliteSchema));
  } finally {
    upgraded.close();
    fresh.close();
  }
});

/** psql of the newest installed PostgreSQL. */
function psqlBin(): string {
  const root = "/usr/lib/postgresql";
  const major = Math.max(
    ...readdirSync(root)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, "bin", "psql")))
      .map(Number),
  );
  return join(root, String(major), "bin", "psql");
}

test("a PostgreSQL dump of the release, restored as the service's role: every row kept, the schema a fresh database gets", async () => {
  const url = await server.pg.createDatabase();
  const restore = Bun.spawnSync([psqlBin(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", join(FIXTURE, "postgres.sql"), url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  expect({ code: restore.exitCode, err: restore.stderr.toString() }).toEqual({ code: 0, err: "" });
  const raw = new SQL(url, { max: 1 });
  // what the release's ad-post rewrite left: a tag named after the placement on links titled the same
  const made = new Date("2026-11-25T10:00:00Z");
  for (const [id, name] of AD_TAGS) await raw`insert into tags (id, user_id, name, created_at) values (${id}, 1, ${name}, ${made})`;
  for (const [id, target, title, tag] of AD_LINKS) {
    await raw`insert into links (id, user_id, code, url, title, created_at, updated_at) values (${id}, 1, ${`ad${id}`}, ${target}, ${title}, ${made}, ${made})`;
    await raw`insert into link_tags (link_id, tag_id) values (${id}, ${tag})`;
  }
  await raw`insert into channel_invites (id, user_id, channel_id, chat_id, name, invite_link, created_at) values (40, 1, 1, '@chan-ann', 'Old ad', 'https://t.me/+AbCdEf', ${made})`;
  const before = await pgCounts(raw);
  const links = await raw`select id, code, url, user_id from links order by id`;
  await raw.close();

  const upgraded = await createPgDb(url);
  const fresh = await createPgDb(await server.pg.createDatabase());
  try {
    expect(upgraded.migrated.length).toBeGreaterThan(0);
    expectKept(before, await pgCounts(upgraded.sql));
    expect(await upgraded.sql`select id, code, url, user_id from links order by id`).toEqual(links);
    expect(await upgraded.sql`select distinct kind from users`).toEqual([{ kind: "person" }]);
    expect(Number((await upgraded.sql`select count(*) as n from api_tokens where made_by is null`)[0].n)).toBe(before.api_tokens!);
    expect(Number((await upgraded.sql`select count(*) as n from workspace_members`)[0].n)).toBe(0);
    expect(Number((await upgraded.sql`select count(*) as n from link_stats_dim where dim = 'referrer'`)[0].n)).toBeGreaterThan(0);
    // the rewrite's tag became a placement with its links bound; a new placement takes the next id
    expect(
      (await upgraded.sql`select id, user_id, name, venue_kind, venue, created_at from placements order by id`).map(
        (r: Record<string, unknown>) => ({
          ...r,
          id: Number(r.id),
          user_id: Number(r.user_id),
        }),
      ),
    ).toEqual(PLACEMENTS.map((p) => ({ ...p, user_id: 1, created_at: made })));
    expect(
      (await upgraded.sql`select link_id, placement_id from placement_links order by link_id`).map((r: Record<string, unknown>) => [
        Number(r.link_id),
        Number(r.placement_id),
      ]),
    ).toEqual(BOUND_LINKS);
    expect(
      (await upgraded.sql`select invite_id, placement_id from placement_invites`).map((r: Record<string, unknown>) => [
        Number(r.invite_id),
        Number(r.placement_id),
      ]),
    ).toEqual(BOUND_INVITES);
    const [next] =
      await upgraded.sql`insert into placements (user_id, name, venue_kind, venue, created_at) values (1, 'x', 'other', 'x', now()) returning id`;
    expect(Number(next.id)).toBe(43);
    expect(await pgModel(upgraded.sql, PG_ONLY_TABLES)).toEqual(await pgModel(fresh.sql, PG_ONLY_TABLES));
  } finally {
    await upgraded.close();
    await fresh.close();
  }
});
