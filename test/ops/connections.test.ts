/**
 * The connection budget of a node, as PostgreSQL counts it: every connection of a node names it
 * (application_name `linkbot:<NODE_NAME>`), so the server's own view is the measure. Under load a
 * node holds at most PG_POOL_SIZE for its requests, 1 for its click writer thread, 1 for LISTEN, and one per lease
 * (each job, the MTProto source, its NODE_NAME; bot polling adds one with a bot) — the figure
 * docs/cluster.md states — and /metrics reports the same count.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { postgresForFile } from "../helpers/postgres";
import { parsePrometheus, sampleOf } from "../helpers/prometheus";
import { JOBS } from "../../jobs";

setDefaultTimeout(120_000);
const server = postgresForFile();

/**
 * The budget docs/cluster.md states, without a bot: the pool, the click writer thread's 1, the listener,
 * the leases (the jobs, the placements' views job, which has a lease of its own without MTProto, the
 * MTProto source and the NODE_NAME).
 */
const budget = (pool: number) => pool + 1 + 1 + JOBS.length + 1 + 2;

for (const pool of [4, 10]) {
  test(`PG_POOL_SIZE=${pool}: a node under load holds at most ${budget(pool)} connections`, async () => {
    const url = await server.pg.createDatabase();
    const db = new URL(url).pathname.slice(1);
    const dataDir = server.tmp("linkbot-conns-");
    const name = `conns-${pool}`;
    const node = spawnService(
      [join(ROOT, "main.ts")],
      cleanEnv({
        PORT: "0",
        HOST: "127.0.0.1",
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        NODE_NAME: name,
        DRAIN_SECONDS: "0",
        PG_POOL_SIZE: String(pool),
      }),
    );
    try {
      const base = `http://127.0.0.1:${Number((await node.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1])}`;
      await server.pg.admin(
        `insert into users (username, created_at) values ('u', now()); insert into links (user_id, code, url, created_at, updated_at) select id, 'busy', 'https://ok.example/', now(), now() from users`,
        db,
      );
      const count = async () =>
        Number((await server.pg.admin(`select count(*) from pg_stat_activity where application_name = 'linkbot:${name}'`, db)).trim());
      // requests that each query the database (rate-limit counters), many at once, and clicks to write;
      // the server's count sampled after each round: the pool opens connections as they are wanted
      let peak = 0;
      for (let round = 0; round < 8; round++) {
        await Promise.all([
          ...Array.from({ length: 3 * pool }, () => fetch(`${base}/api/links`).then((r) => r.arrayBuffer())),
          ...Array.from({ length: 20 }, (_, i) =>
            fetch(`${base}/busy`, { redirect: "manual", headers: { "user-agent": `m${round}-${i}` } }).then((r) => r.arrayBuffer()),
          ),
        ]);
        peak = Math.max(peak, await count());
      }
      // never past the budget; and the whole request pool was in use besides the listener and every lease
      expect(peak).toBeLessThanOrEqual(budget(pool));
      expect(peak).toBeGreaterThanOrEqual(pool + 1 + JOBS.length + 2);
      const scraped = parsePrometheus(await (await fetch(`${base}/metrics`)).text());
      expect(sampleOf(scraped, "linkbot_db_connections")).toBeLessThanOrEqual(budget(pool));
      expect(sampleOf(scraped, "linkbot_db_connections")).toBeGreaterThanOrEqual(pool + 1 + JOBS.length + 2);
      console.log(`PG_POOL_SIZE=${pool}: peak ${peak} connections, budget ${budget(pool)}`);
    } finally {
      node.proc.kill("SIGTERM");
      expect(await node.exit()).toBe(0);
    }
  });
}
