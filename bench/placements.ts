/**
 * `bun run bench placements [placements] [--clicks N] [--joins N] [--accounts N] [--postgres] [--runs N]`:
 * 10,000 placements (default) spread over 100 accounts, each with a tracking link and an invite link
 * of the account's channel bound to it; 1,000,000 clicks (default) and 1,000,000 joins (default, 40 %
 * of them left again) spread over them and the year before now. Prints p50/p99 of the Ads table of one
 * account (`GET /api/placements`, for 30 days and for all time, sorted by cost per subscriber who
 * stayed) and of one placement's figures (`GET /api/placements/:id`), in-process HTTP. `--postgres`
 * runs it on a real PostgreSQL started as the test suite starts it (cluster mode).
 *
 * Seeding is set-based SQL (a recursive CTE on SQLite, generate_series on PostgreSQL). Clicks are
 * seeded as the links' counters, which the click writer keeps with every batch and the placement
 * figures read; the click rows themselves are never read by these figures, so none are written.
 * Prints figures; never fails on speed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { openDeps } from "../app";
import { ManualClock } from "../core/clock";
import { createApi } from "../api/app";
import { signAccessToken } from "../core/tokens/jwt";
import { startPostgres, type PgServer } from "../test/helpers/postgres";
import { rawSql } from "../test/helpers/app";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]!.replaceAll("_", "")) : fallback;
};
const positional = args.find((a, i) => /^\d[\d_]*$/.test(a) && !args[i - 1]?.startsWith("--"));
const PLACEMENTS = Number((positional ?? "10000").replaceAll("_", ""));
const CLICKS = option("--clicks", 1_000_000);
const JOINS = option("--joins", 1_000_000);
const ACCOUNTS = option("--accounts", 100);
const RUNS = option("--runs", 60);
const POSTGRES = args.includes("--postgres");
const NOW = Date.parse("2026-06-30T12:00:00Z");
const DAY = 86_400_000;
const YEAR = 365 * DAY;

const dataDir = mkdtempSync(join(tmpdir(), "bench-placements-"));
let pg: PgServer | undefined;
if (POSTGRES) pg = await startPostgres({});
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: "error",
  RATE_LIMIT_API: "1000000",
  ...(pg ? { DATABASE_URL: pg.url, NODE_NAME: "bench" } : {}),
});
const deps = await openDeps(config, { clock: new ManualClock(NOW), journalDir: null });
const app = createApi(deps);
const db = deps.asyncDb;
const pgEngine = db.engine === "postgres";

/** `n` running from 1 to `count` as a row source, and a time in ms as a column value, in each engine's SQL. */
const series = (count: number) =>
  pgEngine
    ? `generate_series(1::bigint, ${count}) AS s(n)`
    : `(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${count}) SELECT n FROM s) AS s`;
const time = (ms: string) => (pgEngine ? `to_timestamp((${ms}) / 1000.0)` : `(${ms})`);
const bool = (v: boolean) => (pgEngine ? String(v) : v ? "1" : "0");

const t0 = performance.now();
const perLink = Math.floor(CLICKS / PLACEMENTS);
const statements = [
  `INSERT INTO users (id, username, plan, created_at) SELECT n, 'bench' || n, 'business', ${time(String(NOW - YEAR))} FROM ${series(ACCOUNTS)}`,
  `INSERT INTO channels (id, user_id, chat_id, type, title, can_invite, bot_is_admin, created_at)
     SELECT n, n, '-100900000' || n, 'channel', 'Channel ' || n, ${bool(true)}, ${bool(true)}, ${time(String(NOW - YEAR))} FROM ${series(ACCOUNTS)}`,
  // placement i belongs to account 1 + i % ACCOUNTS, dated over the year, priced 1,000–10,000 RUB, with views
  `INSERT INTO placements (id, user_id, name, venue_kind, venue, publish_at, cost, views, views_at, created_at)
     SELECT n, 1 + n % ${ACCOUNTS}, 'Ad ' || n, 'telegram', 'channel' || n, ${time(`${NOW} - (n * 7919 % 365) * ${DAY}`)},
       ${pgEngine ? `jsonb_build_object('amount', 1000 + n % 10 * 1000, 'currency', 'RUB')` : `json_object('amount', 1000 + n % 10 * 1000, 'currency', 'RUB')`},
       5000 + n % 50000, ${time(String(NOW))}, ${time(`${NOW} - (n * 7919 % 365) * ${DAY}`)} FROM ${series(PLACEMENTS)}`,
  `INSERT INTO links (id, user_id, code, url, title, total_clicks, unique_clicks, bot_clicks, created_at, updated_at)
     SELECT n, 1 + n % ${ACCOUNTS}, 'bp' || n, 'https://shop.example/' || n, 'Ad ' || n || ' · shop.example', ${perLink}, ${Math.floor(perLink * 0.8)}, ${Math.floor(perLink * 0.05)},
       ${time(String(NOW - YEAR))}, ${time(String(NOW - YEAR))} FROM ${series(PLACEMENTS)}`,
  `INSERT INTO placement_links (link_id, placement_id) SELECT n, n FROM ${series(PLACEMENTS)}`,
  `INSERT INTO channel_invites (id, user_id, channel_id, chat_id, name, invite_link, join_request, created_at)
     SELECT n, 1 + n % ${ACCOUNTS}, 1 + n % ${ACCOUNTS}, '-100900000' || (1 + n % ${ACCOUNTS}), 'Ad ' || n, 'https://t.me/+bench' || n, ${bool(true)},
       ${time(String(NOW - YEAR))} FROM ${series(PLACEMENTS)}`,
  `INSERT INTO placement_invites (invite_id, placement_id) SELECT n, n FROM ${series(PLACEMENTS)}`,
  // join n: through invite 1 + n % PLACEMENTS, over the year; 40 % left again within 60 days
  `INSERT INTO channel_joins (chat_id, member_id, invite_id, via, via_join_request, joined_at, left_at)
     SELECT '-100900000' || (1 + (1 + n % ${PLACEMENTS}) % ${ACCOUNTS}), 1000000 + n, 1 + n % ${PLACEMENTS}, 'invite', ${bool(false)},
       ${time(`${NOW} - (n * 104729 % ${YEAR})`)},
       CASE WHEN (n / 7) % 5 < 2 AND (n * 104729 % ${YEAR}) > (n % 60) * ${DAY} THEN ${time(`${NOW} - (n * 104729 % ${YEAR}) + (n % 60) * ${DAY}`)} ELSE NULL END
     FROM ${series(JOINS)}`,
  `UPDATE channel_invites SET joins = (SELECT count(*) FROM channel_joins j WHERE j.invite_id = channel_invites.id),
     leaves = (SELECT count(left_at) FROM channel_joins j WHERE j.invite_id = channel_invites.id)`,
];
for (const s of statements) await rawSql(db, s);
if (pgEngine)
  for (const table of ["users", "channels", "placements", "links", "channel_invites"])
    await rawSql(db, `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
await rawSql(db, pgEngine ? "VACUUM ANALYZE" : "ANALYZE");
console.log(
  `${pgEngine ? "PostgreSQL" : "SQLite"}: seeded ${PLACEMENTS.toLocaleString("en")} placements over ${ACCOUNTS} accounts, ` +
    `${(perLink * PLACEMENTS).toLocaleString("en")} clicks (link counters) and ${JOINS.toLocaleString("en")} joins in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const token = await signAccessToken(deps, 1);
async function measure(label: string, path: () => string) {
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS + 5; i++) {
    const s = performance.now();
    const res = await app.handle(new Request(`http://localhost${path()}`, { headers: { authorization: `Bearer ${token}` } }));
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${body.slice(0, 200)}`);
    if (i >= 5) times.push(performance.now() - s);
    size = body.length;
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  console.log(
    `  ${label.padEnd(58)} p50 ${q(0.5).toFixed(2).padStart(8)} ms   p99 ${q(0.99).toFixed(2).padStart(8)} ms   (${(size / 1024).toFixed(0)} KiB)`,
  );
}

const mine = PLACEMENTS / ACCOUNTS;
console.log(`account 1: ${mine.toLocaleString("en")} placements, ${Math.round(JOINS / ACCOUNTS).toLocaleString("en")} joins`);
await measure("GET /api/placements (30 days, by cost per retained)", () => "/api/placements?sort=cost_per_retained&order=asc");
await measure("GET /api/placements?period=all (by cost per retained)", () => "/api/placements?period=all&sort=cost_per_retained&order=asc");
let n = 0;
await measure("GET /api/placements/:id", () => `/api/placements/${ACCOUNTS * (1 + (n++ % Math.max(1, mine - 1)))}`);

await deps.handle.close();
await pg?.stop();
if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
else rmSync(dataDir, { recursive: true, force: true });
