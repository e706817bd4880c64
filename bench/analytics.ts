/**
 * `bun run bench analytics [clicks] [--viral N] [--postgres] [--runs N] [--no-export] [--writer-only] [--seed sql]`:
 * two links on one database, both seeded through the click writer's batch path (the one the writer
 * thread runs: work-out, clicks, visitors, counters and CLICK_LISTENERS in one transaction per batch):
 * - "year": `clicks` (default 1,000,000) spread over the year before now;
 * - "viral": N clicks (default 1,000,000; 0 skips it) within the hour in progress, now being 59
 *   minutes into it, in batches as large as the writer thread's (10,000).
 * It prints the writer's clicks per second for each, then p50/p99 of every analytics endpoint on each
 * link (in-process HTTP, after 5 warm-ups) and the time to build and hand over a 10,000-row export in
 * each format to a fake Bot API. `--postgres` runs it all on a real PostgreSQL started as the test
 * suite starts it (cluster mode: the PostgreSQL deps and click writer). Prints figures; never fails
 * on speed. `--writer-only` stops after the writer's figures (its throughput, before and after a
 * change to the writer). `--seed sql` seeds the year link with set-based SQL instead (for 100M
 * clicks, which the writer would take hours to write here): the clicks in chunks of one statement
 * each (generate_series on PostgreSQL, a recursive CTE on SQLite), then its roll-ups from one
 * aggregation of those clicks (core/analytics/rollup-from-clicks.ts, equal to the writer's) and its
 * counters; no click_visitors rows (they only decide later clicks' uniqueness). `--keep DIR` keeps the
 * seeded database in DIR (a PostgreSQL server's files too): a later run with the same sizes and
 * `--keep DIR` measures the endpoints on it without seeding again (after migrating it forward).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { clickWriterOf, openDeps } from "../app";
import { ManualClock } from "../core/clock";
import { createApi } from "../api/app";
import { upsertTelegramUser } from "../core/accounts/users";
import { signAccessToken } from "../core/tokens/jwt";
import { packClicks, type PendingClick } from "../core/clicks/packed";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../test/helpers/fake-bot-api";
import { startPostgres, type PgServer } from "../test/helpers/postgres";
import { exportClicks } from "../core/analytics/export";
import { rawSql } from "../test/helpers/app";
import { sql } from "drizzle-orm";
import { rowsOf, transaction } from "../db/async";
import { parsedUa } from "../core/clicks/enrich";
import { rollupFromClicks } from "../core/analytics/rollup-from-clicks";
import { BLOCK } from "../core/analytics/range";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]!.replaceAll("_", "")) : fallback;
};
const positional = args.find((a, i) => /^\d[\d_]*$/.test(a) && !args[i - 1]?.startsWith("--"));
const YEAR_CLICKS = Number((positional ?? "1000000").replaceAll("_", ""));
const VIRAL_CLICKS = option("--viral", 1_000_000);
const RUNS = option("--runs", 60);
const POSTGRES = flag("--postgres");
const SEED_SQL = args.includes("--seed") && args[args.indexOf("--seed") + 1] === "sql";
const BATCH = 10_000;
const HOUR = 3_600_000;
const YEAR = 365 * 86_400_000;
/** now: 59 minutes into an hour, so the hour in progress holds the viral clicks and every period ends mid-hour */
const NOW = Date.parse("2026-06-30T12:59:00Z");

const KEEP = args.includes("--keep") ? args[args.indexOf("--keep") + 1]! : undefined;
const engine = POSTGRES ? "PostgreSQL" : "SQLite";
const fake = new FakeBotApi().start();
const dataDir = KEEP ? join(KEEP, POSTGRES ? "pg-node" : "sqlite") : mkdtempSync(join(tmpdir(), "bench-analytics-"));
if (KEEP) mkdirSync(dataDir, { recursive: true });
/** what a kept directory holds: the sizes it was seeded with, written once the seeding is done */
const seededFile = KEEP && join(KEEP, `${POSTGRES ? "postgres" : "sqlite"}-seeded.json`);
const seeded =
  seededFile && existsSync(seededFile) ? (JSON.parse(readFileSync(seededFile, "utf8")) as { year: number; viral: number }) : null;
let pg: PgServer | undefined;
if (POSTGRES) pg = await startPostgres(KEEP ? { keep: join(KEEP, "pg") } : {});
// the API rate limit (300 a minute by default) would answer 429 a few endpoints in: this measures the endpoints
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: "error",
  BOT_TOKEN: FAKE_BOT_TOKEN,
  BOT_API_ROOT: fake.url,
  RATE_LIMIT_API: "1000000",
  ...(pg ? { DATABASE_URL: pg.url, NODE_NAME: "bench" } : {}),
});
const deps = await openDeps(config, { clock: new ManualClock(NOW), journalDir: null });
const app = createApi(deps);
const writer = clickWriterOf(deps);
const user = await upsertTelegramUser(deps, { id: 42, username: "bench" });
const token = await signAccessToken(deps, user.id);
const db = deps.asyncDb;
const newLink = async (code: string, createdAt: number) =>
  (await db.select().from(db.tables.links).where(sql`${db.tables.links.code} = ${code}`))[0] ??
  (
    await db
      .insert(db.tables.links)
      .values({ userId: user.id, code, url: "https://example.com", createdAt: new Date(createdAt) })
      .returning()
  )[0]!;

// a small deterministic PRNG so runs are comparable
let seed = 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
const AGENTS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
] as const;
const BOTS = [
  ["TelegramBot (like TwitterBot)", "TelegramBot"],
  ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"],
  ["facebookexternalhit/1.1", "facebookexternalhit"],
] as const;
/** visitors: 200,000 addresses (countries from the GeoIP database), each with one of the agents */
const address = () => {
  const n = Math.floor(rnd() * 200_000);
  return `${[81, 89, 2, 175, 216, 67, 5, 31, 46, 94][n % 10]}.${(n >> 4) % 256}.${(n >> 12) % 256}.${((n * 7) % 250) + 1}`;
};

/** Writes `total` clicks with instants from `at(i)` through the click writer's batch path; returns clicks per second. */
async function seedThroughWriter(linkId: number, total: number, at: (i: number) => number): Promise<number> {
  const t0 = performance.now();
  for (let done = 0; done < total; done += BATCH) {
    const batch: PendingClick[] = [];
    for (let i = done; i < Math.min(total, done + BATCH); i++) {
      const isBot = rnd() < 0.08;
      const bot = pick(BOTS);
      batch.push({
        linkId,
        clickedAt: new Date(at(i)),
        ip: address(),
        userAgent: isBot ? bot[0] : pick(AGENTS),
        referer: rnd() < 0.5 ? "https://t.me/" : null,
        isBot,
        botName: isBot ? bot[1] : null,
      });
    }
    await writer.write(packClicks(batch));
  }
  return total / ((performance.now() - t0) / 1000);
}

const fmt = (n: number) => Math.round(n).toLocaleString("en");
/**
 * `--seed sql`: `total` clicks on `linkId` spread evenly over [from, from + span), written with
 * set-based SQL in chunks, then the link's roll-ups from one aggregation of them and its counters.
 * Each click's values come from a hash of its number: one of 100 agent profiles (8 bots, the rest
 * the agents above), one of ten countries or none, 40% of human clicks unique, half with a referer.
 */
async function seedSetBased(linkId: number, total: number, from: number, span: number): Promise<void> {
  const pg = db.engine === "postgres";
  const { userAgents } = db.tables;
  const profiles: string[] = [];
  for (let k = 0; k < 100; k++) {
    const bot = k < 8 ? BOTS[k % BOTS.length]! : null;
    const ua = bot ? bot[0] : AGENTS[k % AGENTS.length]!;
    await db.insert(userAgents).values({ ua }).onConflictDoNothing();
    const [row] = await db.select().from(userAgents).where(sql`${userAgents.ua} = ${ua}`);
    const p = parsedUa(ua);
    const text = (v: string | null) => (v === null ? "null" : `'${v.replaceAll("'", "''")}'`);
    const truth = (b: boolean) => (pg ? String(b) : b ? "1" : "0");
    profiles.push(
      `(${k}, ${row!.id}, ${text(bot ? "bot" : p.device)}, ${text(p.browser)}, ${text(p.os)}, ${truth(!!bot)}, ${text(bot ? bot[1] : null)})`,
    );
  }
  const countries = ["RU", "DE", "US", "GB", "FR", "NL", "UA", "KZ", "BR", null].map(
    (c, k) => `(${k}, ${c === null ? (pg ? "null::text" : "null") : `'${c}'`})`,
  );
  const at = `${from} + i * ${span} / ${total} + h % 1000`;
  const columns = "link_id, clicked_at, ip, country, city, device, browser, os, referer, ua_id, is_bot, bot_name, is_unique, rule, variant";
  const values = (h: string) => `${linkId}, ${pg ? `timestamptz 'epoch' + (${at}) * interval '1 millisecond'` : at},
      '81.' || (${h} / 10000 % 256) || '.' || (${h} / 2560000 % 256) || '.1', c.code, null, p.d, p.br, p.os,
      case when ${h} / 5000 % 2 = 0 then 'https://t.me/' end, p.ua, p.bot, p.bn, ${pg ? "not p.bot and" : "not p.bot and"} ${h} / 1000 % 5 < 2, null, null`;
  const lists = `p(k, ua, d, br, os, bot, bn) as (values ${profiles.join(", ")}), c(k, code) as (values ${countries.join(", ")})`;
  const chunk = pg ? 5_000_000 : 2_000_000;
  // as a bulk load is done: the index on (link_id, clicked_at) is built once after the load instead
  // of row by row, and the foreign keys of these generated rows (which hold by construction) are
  // checked once when added back on PostgreSQL, not per row; SQLite leaves its keys off meanwhile
  const restore: string[] = [];
  if (pg) {
    for (const { name, def } of await rowsOf<{ name: string; def: string }>(
      db,
      sql.raw(
        "select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'clicks'::regclass and contype = 'f'",
      ),
    )) {
      await rowsOf(db, sql.raw(`alter table clicks drop constraint ${name}`));
      restore.push(`alter table clicks add constraint ${name} ${def}`);
    }
    const [index] = await rowsOf<{ def: string }>(
      db,
      sql.raw("select indexdef as def from pg_indexes where tablename = 'clicks' and indexname = 'clicks_link_time'"),
    );
    restore.unshift(index!.def);
  } else {
    const [index] = await rowsOf<{ def: string }>(
      db,
      sql.raw("select sql as def from sqlite_master where type = 'index' and name = 'clicks_link_time'"),
    );
    await rowsOf(db, sql.raw("PRAGMA foreign_keys = OFF"));
    restore.push(index!.def, "PRAGMA foreign_keys = ON");
  }
  await rowsOf(db, sql.raw("drop index clicks_link_time"));
  const t0 = performance.now();
  for (let a = 0; a < total; a += chunk) {
    const b = Math.min(total, a + chunk) - 1;
    await transaction(db, async (tx) => {
      const statement = pg
        ? `with ${lists} insert into clicks (${columns}) select ${values("x.h")}
            from generate_series(${a}::bigint, ${b}::bigint) as i, lateral (select i * 2654435761 % 4294967296 as h) x join p on p.k = x.h % 100 join c on c.k = x.h / 100 % 10`
        : `insert into clicks (${columns}) with recursive s(i) as (select ${a} union all select i + 1 from s where i < ${b}), ${lists}
            select ${values("x.h")} from (select i, i * 2654435761 % 4294967296 as h from s) x join p on p.k = x.h % 100 join c on c.k = x.h / 100 % 10`;
      await rowsOf(tx, sql.raw(statement));
    });
    const s = (performance.now() - t0) / 1000;
    console.log(
      `${engine}: ${fmt(b + 1)} of ${fmt(total)} clicks written with set-based SQL in ${s.toFixed(0)} s (${fmt((b + 1) / s)} clicks/s)`,
    );
  }
  let t1 = performance.now();
  for (const statement of restore) await rowsOf(db, sql.raw(statement));
  console.log(`${engine}: index and keys of the clicks back in ${((performance.now() - t1) / 1000).toFixed(0)} s`);
  t1 = performance.now();
  const { groups } = await rollupFromClicks(db, linkId);
  await rowsOf(
    db,
    sql`update links set
      total_clicks = (select coalesce(sum(clicks), 0) from link_stats_time where link_id = ${linkId} and span = ${BLOCK}),
      unique_clicks = (select coalesce(sum(uniques), 0) from link_stats_time where link_id = ${linkId} and span = ${BLOCK}),
      bot_clicks = (select coalesce(sum(bots), 0) from link_stats_time where link_id = ${linkId} and span = ${BLOCK})
    where id = ${linkId}`,
  );
  console.log(
    `${engine}: roll-ups of ${fmt(total)} clicks from one aggregation (${fmt(groups)} groups) in ${((performance.now() - t1) / 1000).toFixed(0)} s`,
  );
}

if (seeded && (seeded.year !== YEAR_CLICKS || seeded.viral !== VIRAL_CLICKS))
  throw new Error(
    `${KEEP} holds ${seeded.year} clicks over a year and ${seeded.viral} in the hour: ask for those sizes, or another directory`,
  );
if (KEEP && !seeded && (await db.select().from(db.tables.links)).length > 0)
  throw new Error(`${KEEP} holds a seeding that did not finish: remove it and seed again`);
const yearLink = await newLink("bench1", NOW - YEAR);
if (seeded) console.log(`${engine}: ${fmt(YEAR_CLICKS)} clicks over a year and ${fmt(VIRAL_CLICKS)} in the hour kept in ${KEEP}`);
else if (SEED_SQL) await seedSetBased(yearLink.id, YEAR_CLICKS, NOW - YEAR, YEAR);
else {
  const yearRate = await seedThroughWriter(
    yearLink.id,
    YEAR_CLICKS,
    (i) => NOW - YEAR + Math.floor((i / YEAR_CLICKS) * YEAR) + Math.floor(rnd() * 1000),
  );
  console.log(
    `${engine}: wrote ${fmt(YEAR_CLICKS)} clicks over a year through the click writer at ${fmt(yearRate)} clicks/s (batches of ${fmt(BATCH)})`,
  );
}
const viralLink = await newLink("viral1", NOW - 2 * HOUR);
const hourStart = Math.floor(NOW / HOUR) * HOUR;
if (VIRAL_CLICKS && !seeded) {
  const viralRate = await seedThroughWriter(
    viralLink.id,
    VIRAL_CLICKS,
    (i) => hourStart + Math.floor((i / VIRAL_CLICKS) * (NOW - hourStart)),
  );
  console.log(
    `${engine}: wrote ${fmt(VIRAL_CLICKS)} clicks in the hour in progress through the click writer at ${fmt(viralRate)} clicks/s (batches of ${fmt(BATCH)})`,
  );
}
if (seededFile && !seeded) writeFileSync(seededFile, JSON.stringify({ year: YEAR_CLICKS, viral: VIRAL_CLICKS }));
if (flag("--writer-only")) {
  await deps.handle.close();
  await fake.stop();
  await pg?.stop();
  if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
// statistics for the planner; on PostgreSQL also the visibility map, as autovacuum keeps it in
// production (a bulk load is not vacuumed yet), without which no scan of an index is index-only
await rawSql(db, db.engine === "postgres" ? "VACUUM ANALYZE" : "ANALYZE");

async function measure(linkId: number, path: string) {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const s = performance.now();
    const res = await app.handle(
      new Request(`http://localhost/api/links/${linkId}/${path}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    if (i >= 5) times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  console.log(`${path.padEnd(58)} p50 ${q(0.5).padStart(7)} ms   p99 ${q(0.99).padStart(7)} ms`);
}

const ENDPOINTS = [
  "stats?period=1d",
  "stats?period=30d",
  "stats?period=1y",
  "stats?period=all",
  "clicks?page=1&limit=100",
  "clicks?page=500",
  "geo?period=1y",
  "geo?period=30d",
  "devices?period=all",
  "devices?period=7d",
  "bots?period=1y",
  "timeline?period=30d&granularity=hourly",
  "timeline?period=1d&granularity=hourly&tz=Asia/Kolkata",
  "timeline?period=1y&granularity=daily",
  "timeline?period=1y&granularity=daily&tz=Europe/Berlin",
  "timeline?period=1y&granularity=daily&tz=Asia/Kolkata",
  "timeline?period=30d&granularity=hourly&tz=America/New_York",
  "timeline?period=1y&granularity=hourly&tz=Asia/Kolkata",
  "heatmap?period=30d",
  "heatmap?period=1y",
  "heatmap?period=1y&tz=Europe/Berlin",
  "heatmap?period=1y&tz=Asia/Kathmandu",
  "heatmap?period=30d&tz=Asia/Kolkata",
];

for (const [link, what] of [
  [yearLink, `${fmt(YEAR_CLICKS)} clicks over a year`],
  ...(VIRAL_CLICKS ? [[viralLink, `${fmt(VIRAL_CLICKS)} clicks in the hour in progress`] as const] : []),
] as const) {
  console.log(`\n${engine}, endpoint (${what})`.padEnd(60), "        p50          p99");
  for (const path of ENDPOINTS) await measure(link.id, path);
}

if (!flag("--no-export")) {
  console.log("\nexport of the newest 10,000 clicks of the year link, built and handed to the (fake) Bot API");
  for (const format of ["csv", "xlsx", "pdf"] as const) {
    const s = performance.now();
    const res = await exportClicks(deps, user.id, yearLink.id, { format, period: "1y" });
    const call = fake.callsOf("sendDocument").at(-1)!;
    const bytes = Object.values(call.files)[0]!.bytes.length;
    console.log(`${format.padEnd(5)} ${res.rows} rows, ${(bytes / 1024).toFixed(0)} KiB in ${(performance.now() - s).toFixed(0)} ms`);
  }
}

await deps.handle.close();
await fake.stop();
await pg?.stop();
if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
