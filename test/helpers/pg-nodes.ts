import { afterAll, beforeAll } from "bun:test";
import { createPgDb, type PgDbHandle } from "../../db/postgres";
import { startPostgres, type PgServer } from "./postgres";

/**
 * For the test file that calls it: a PostgreSQL server started before its tests and `count` nodes
 * (each its own pool of `max` connections, as separate processes would have) on one database,
 * all closed after them. Read `pg` and `nodes` inside tests.
 */
export function pgNodesForFile(count: number, max = 4): { pg: PgServer; nodes: PgDbHandle[] } {
  const cluster = { pg: undefined as unknown as PgServer, nodes: [] as PgDbHandle[] };
  beforeAll(async () => {
    cluster.pg = await startPostgres();
    for (let i = 0; i < count; i++) cluster.nodes.push(await createPgDb(cluster.pg.url, { max }));
  });
  afterAll(async () => {
    await Promise.all(cluster.nodes.map((n) => n.close()));
    await cluster.pg?.stop();
  });
  return cluster;
}
