import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { asyncPg, createPgDb, MIGRATION_LOCK_KEY, PG_MIGRATIONS } from "../../db/postgres";
import { passkeys, users } from "../../db/schema-pg";
import { eventually } from "../helpers/eventually";
import { startPostgres, type PgServer } from "../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

const journal = JSON.parse(readFileSync(join(PG_MIGRATIONS, "meta/_journal.json"), "utf8")) as { entries: unknown[] };

test("several nodes starting at once on a fresh database apply each migration once and all come up", async () => {
  const url = await pg.createDatabase();
  const nodes = await Promise.all(Array.from({ length: 5 }, () => createPgDb(url, { max: 2 })));
  try {
    const [{ n }] = await nodes[0]!.sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    expect(n).toBe(journal.entries.length);
    // each node reads what another wrote
    const [made] = await asyncPg(nodes[1]!)
      .insert(users)
      .values({ username: "ada", msgrId: 2 ** 40 })
      .returning();
    const seen = await asyncPg(nodes[4]!).select().from(users).where(eq(users.id, made!.id));
    expect(seen).toEqual([made!]);
    expect(seen[0]!.msgrId).toBe(2 ** 40);
  } finally {
    await Promise.all(nodes.map((n) => n.close()));
  }
});

test("a starter waits for the node holding the migration lock", async () => {
  const url = await pg.createDatabase();
  const holder = new SQL(url, { max: 1 });
  await holder`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
  let started = false;
  const starting = createPgDb(url).then((h) => ((started = true), h));
  // the starter's session has asked for the lock (it asks again until it gets it), and has migrated nothing
  await eventually(
    async () =>
      (await holder`SELECT 1 FROM pg_stat_activity WHERE query LIKE '%pg_try_advisory_lock%' AND pid <> pg_backend_pid()`).length === 1,
    "the starter to ask for the lock",
  );
  expect(started).toBe(false);
  expect(await holder`SELECT 1 FROM pg_namespace WHERE nspname = 'drizzle'`).toHaveLength(0);
  await holder`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  const node = await starting;
  try {
    expect(await node.sql`SELECT to_regclass('public.links')::text AS t`).toEqual([{ t: "links" }]);
  } finally {
    await node.close();
    await holder.close();
  }
});

test("values keep their types: JSON as jsonb, bytes as bytea, times to the millisecond", async () => {
  const node = await createPgDb(pg.url);
  try {
    const [u] = await asyncPg(node)
      .insert(users)
      .values({ username: "b", planExpiresAt: new Date("2026-03-01T10:20:30.456Z") })
      .returning();
    expect(u!.planExpiresAt!.toISOString()).toBe("2026-03-01T10:20:30.456Z");
    const [p] = await asyncPg(node)
      .insert(passkeys)
      .values({ userId: u!.id, credentialId: "cred", publicKey: Buffer.from([0, 1, 255]), transports: ["usb", "nfc"] })
      .returning();
    expect(Buffer.isBuffer(p!.publicKey) && [...p!.publicKey]).toEqual([0, 1, 255]);
    expect(p!.transports).toEqual(["usb", "nfc"]);
    expect(await node.sql`SELECT jsonb_typeof(transports) AS t, octet_length(public_key) AS n FROM passkeys WHERE id = ${p!.id}`).toEqual([
      { t: "array", n: 3 },
    ]);
  } finally {
    await node.close();
  }
});

test("a database that cannot be reached stops the start with the driver's error", async () => {
  const url = new URL(pg.url);
  url.password = "wrong";
  await expect(createPgDb(url.toString())).rejects.toThrow(/password/i);
});
