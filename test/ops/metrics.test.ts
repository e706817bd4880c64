/**
 * GET /metrics: Prometheus text (read by a strict parser), who may read it, and the click journal's
 * backlog as an operator watches it: a node on PostgreSQL whose click writes are held up (a session
 * holds a lock on `clicks`) answers a bounded load of visits; the backlog and the age of its oldest
 * click rise, and fall to 0 once the writer gets through, every click stored.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { postgresForFile } from "../helpers/postgres";
import { parsePrometheus, sampleOf } from "../helpers/prometheus";
import { eventually } from "../helpers/eventually";
import { createTestApp } from "../helpers/app";

setDefaultTimeout(60_000);
const server = postgresForFile();

const scrape = async (base: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}/metrics`, { headers, signal: AbortSignal.timeout(5000) });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/plain");
  return parsePrometheus(await res.text());
};

test("a node's backlog rises while its click writes are held up and falls to 0 after, every click stored", async () => {
  const url = await server.pg.createDatabase();
  const dataDir = server.tmp("linkbot-metrics-");
  const node = spawnService(
    [join(ROOT, "main.ts")],
    cleanEnv({ PORT: "0", HOST: "127.0.0.1", DATABASE_URL: url, DATA_DIR: dataDir, NODE_NAME: "m1", DRAIN_SECONDS: "0" }),
  );
  const port = Number((await node.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1]);
  const base = `http://127.0.0.1:${port}`;
  const db = new URL(url).pathname.slice(1);
  const holder = new SQL(url, { max: 1 });
  let release = () => {};
  try {
    await server.pg.admin(
      `insert into users (username, created_at) values ('u', now()); insert into links (user_id, code, url, created_at, updated_at) select id, 'watched', 'https://ok.example/', now(), now() from users`,
      db,
    );
    const visit = async (i: number) =>
      (await fetch(`${base}/watched`, { redirect: "manual", headers: { "user-agent": `Mozilla/5.0 m${i}` } })).status;
    expect(await visit(0)).toBe(302);
    await eventually(async () => sampleOf(await scrape(base), "linkbot_clicks_written_total") === 1, "the first click written");
    let m = await scrape(base);
    expect(sampleOf(m, "linkbot_click_journal_backlog")).toBe(0);
    expect(sampleOf(m, "linkbot_click_journal_oldest_age_seconds")).toBe(0);

    // another session holds `clicks` so that no insert can go through: the writer waits on it
    const held = new Promise<void>((r) => (release = r));
    const locked = holder.begin(async (tx) => {
      await tx`LOCK TABLE clicks IN EXCLUSIVE MODE`;
      await held;
    });
    await eventually(
      async () =>
        Number(
          (
            await server.pg.admin(
              `select count(*) from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'clicks' and l.mode = 'ExclusiveLock' and l.granted`,
              db,
            )
          ).trim(),
        ) === 1,
      "the lock taken",
    );
    // a bounded load: 300 visits, 10 at a time, every one answered at once from the node's cache
    for (let i = 0; i < 300; i += 10)
      expect(await Promise.all(Array.from({ length: 10 }, (_, j) => visit(1 + i + j)))).toEqual(Array(10).fill(302));
    m = await eventually(async () => {
      const s = await scrape(base);
      return (sampleOf(s, "linkbot_click_journal_oldest_age_seconds") ?? 0) > 0.2 && s;
    }, "the oldest click to age");
    expect(sampleOf(m, "linkbot_click_journal_backlog")).toBe(300);
    expect(sampleOf(m, "linkbot_clicks_written_total")).toBe(1);
    expect(sampleOf(m, "linkbot_redirects_total")).toBe(301);
    expect(sampleOf(m, "linkbot_http_requests_total", { class: "visitor", status: "302" })).toBe(301);
    expect(sampleOf(m, "linkbot_http_request_duration_seconds_count", { class: "visitor" })).toBe(301);
    // the writer thread's transaction waits on the lock, on a connection of the node's (between two
    // tries it may be idle for a moment: the gauge is sampled until it sees the wait)
    await eventually(
      async () => (sampleOf(await scrape(base), "linkbot_db_pool_in_use") ?? 0) >= 1,
      "the writer's transaction counted as in use",
    );
    release();
    await locked;
    m = await eventually(
      async () => {
        const s = await scrape(base);
        return sampleOf(s, "linkbot_click_journal_backlog") === 0 && s;
      },
      "the backlog written",
      30_000,
    );
    expect(sampleOf(m, "linkbot_click_journal_oldest_age_seconds")).toBe(0);
    expect(sampleOf(m, "linkbot_clicks_written_total")).toBe(301);
    expect(sampleOf(m, "linkbot_clicks_dropped_total")).toBe(0);
    expect((await server.pg.admin(`select count(*) from clicks`, db)).trim()).toBe("301");
    // the rest an operator watches is there too
    expect(sampleOf(m, "linkbot_outbox_depth", { status: "pending" })).toBe(0);
    expect(sampleOf(m, "linkbot_lease_held", { lease: "job-cleanup-expired" })).toBe(1);
    expect(sampleOf(m, "linkbot_db_connections")).toBeGreaterThan(0);
    expect(sampleOf(m, "linkbot_click_journal_memory_limit_clicks")).toBe(200_000);
    expect(sampleOf(m, "linkbot_process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sampleOf(m, "linkbot_bot_api_calls_total")).toBeUndefined(); // no bot configured: no calls
  } finally {
    release();
    await holder.close();
    node.proc.kill("SIGTERM");
    expect(await node.exit()).toBe(0);
  }
});

test("/metrics answers loopback only, never what came through a proxy, unless METRICS_TOKEN is set", async () => {
  const open = createTestApp({ listen: true });
  try {
    expect((await open.request("GET", "/metrics")).status).toBe(200);
    const proxied = await open.request("GET", "/metrics", { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(proxied.status).toBe(403);
    expect(proxied.json).toMatchObject({ error: "forbidden" });
  } finally {
    open.close();
  }
  const token = "a-scrape-token-of-32-characters!";
  const guarded = createTestApp({ listen: true, env: { METRICS_TOKEN: token } });
  try {
    const none = await guarded.request("GET", "/metrics");
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ error: "unauthorized" });
    expect((await guarded.request("GET", "/metrics", { token: "wrong" })).status).toBe(401);
    const ok = await guarded.request("GET", "/metrics", { token, headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(ok.status).toBe(200);
    expect(parsePrometheus(ok.text).some((s) => s.name === "linkbot_click_journal_backlog")).toBe(true);
  } finally {
    guarded.close();
  }
});
