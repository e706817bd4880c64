/**
 * Which failures mean "the database is out of reach" (retried and kept; 503 at the edge), read from
 * the real errors of Bun's driver: a server that refuses connections, one stopped under an open
 * session, and a query the server refuses (which is not an outage).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { sql } from "drizzle-orm";
import { isDatabaseUnavailable } from "../../db/unavailable";
import { isTransientWriteError } from "../../core/clicks/write-failures";
import { startPostgres, type PgServer } from "../helpers/postgres";
import { freePort } from "../helpers/free-port";
import { eventually } from "../helpers/eventually";

setDefaultTimeout(60_000);
let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(async () => pg?.stop());

const failureOf = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );

test("a refused connection (drizzle's error wrapping the driver's ERR_POSTGRES_CONNECTION_REFUSED) is an outage and a transient write error", async () => {
  const client = new SQL(`postgres://nobody:x@127.0.0.1:${await freePort()}/none`, { max: 1 });
  const e = await failureOf(drizzle({ client }).execute(sql`select 1`));
  expect((e as { cause?: { code?: string } }).cause?.code).toBe("ERR_POSTGRES_CONNECTION_REFUSED");
  expect([isDatabaseUnavailable(e), isTransientWriteError(e)]).toEqual([true, true]);
  await client.close();
});

test("the server shut down under an open session, then gone: both failures are outages; a refused query is not", async () => {
  const client = new SQL(pg.url, { max: 1 });
  const db = drizzle({ client });
  const refused = await failureOf(db.execute(sql`select * from no_such_table`));
  expect([isDatabaseUnavailable(refused), isTransientWriteError(refused)]).toEqual([false, false]);
  const tx = failureOf(
    db.transaction(async (t) => {
      await t.execute(sql`select 1`);
      await t.execute(sql`select pg_sleep(30)`);
    }),
  );
  await eventually(
    async () =>
      (await pg.admin("select count(*) from pg_stat_activity where query like '%pg_sleep(30)%' and pid <> pg_backend_pid()")).trim() ===
      "1",
    "the transaction to be under way",
  );
  await pg.halt();
  const ended = await tx;
  const gone = await failureOf(db.execute(sql`select 1`));
  expect([isDatabaseUnavailable(ended), isDatabaseUnavailable(gone), isTransientWriteError(gone)]).toEqual([true, true, true]);
  await pg.resume();
  expect(await db.execute(sql`select 1 as one`)).toEqual([{ one: 1 }]);
  await client.close();
});
