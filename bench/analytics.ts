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
import { FakeBotApi, FAKE_BOT_TOKEN } from "../test/helpers/fake-bot-api";
import { startPostgres, type PgServer } from "../test/helpers/postgres";
import { exportClicks } from "../core/analytics/export";
import { rawSql } from "../test/helpers/app";
import { sql } from "drizzle-orm";
import { BATCH, fmt, rnd, seedSetBased, seedThroughWriter } from "./_analytics-seed";

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

if (seeded && (seeded.year !== YEAR_CLICKS || seeded.viral !== VIRAL_CLICKS))
  throw new Error(
    `${KEEP} holds ${seeded.year} clicks over a year and ${seeded.viral} in the hour: ask for those sizes, or another directory`,
  );
if (KEEP && !seeded && (await db.select().from(db.tables.links)).length > 0)
  throw new Error(`${KEEP} holds a seeding that did not finish: remove it and seed again`);
const yearLink = await newLink("bench1", NOW - YEAR);
if (seeded) console.log(`${engine}: ${fmt(YEAR_CLICKS)} clicks over a year and ${fmt(VIRAL_CLICKS)} in the hour kept in ${KEEP}`);
else if (SEED_SQL) await seedSetBased(db, yearLink.id, YEAR_CLICKS, NOW - YEAR, YEAR);
else {
  const yearRate = await seedThroughWriter(
    writer,
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
    writer,
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
