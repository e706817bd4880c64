import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { APP_ROLE, startPostgres, type PgServer } from "../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

test("the test server gives an ordinary role that owns its own fresh database", async () => {
  const sql = new SQL(pg.url);
  try {
    const [me] =
      await sql`SELECT current_user AS who, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser, current_database() AS db`;
    expect(me).toEqual({ who: APP_ROLE, superuser: false, db: new URL(pg.url).pathname.slice(1) });
    await sql`CREATE TABLE t (id integer PRIMARY KEY)`;
    await sql`INSERT INTO t VALUES (1), (2)`;
    expect(await sql`SELECT count(*)::int AS n FROM t`).toEqual([{ n: 2 }]);
  } finally {
    await sql.close();
  }
});

test("each extra database is fresh and separate", async () => {
  const other = await pg.createDatabase();
  expect(other).not.toBe(pg.url);
  const sql = new SQL(other);
  try {
    expect(await sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`).toEqual([{ n: 0 }]);
  } finally {
    await sql.close();
  }
  expect((await pg.admin("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).trim()).toBe("t");
});
