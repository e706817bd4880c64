/**
 * `bun run bench/analytics.ts [clicks]`: seeds one link with 1,000,000 clicks (default) spread over a
 * year through the real roll-up path (batched writer-style transactions running CLICK_LISTENERS), then
 * prints p50/p99 of every analytics endpoint (in-process HTTP) and the time to build and hand over a
 * 10,000-row export in each format to a fake Bot API. Prints figures; never fails on speed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { createDeps } from "../core";
import { ManualClock } from "../core/clock";
import { createApi } from "../api/app";
import { runClickListeners, withKinds } from "../core/clicks/listeners";
import { CLICK_LISTENERS } from "../core/click-listeners";
import { upsertTelegramUser } from "../core/accounts/users";
import { signAccessToken } from "../core/tokens/jwt";
import { links, type ClickRow } from "../db/schema";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../test/helpers/fake-bot-api";
import { exportClicks } from "../core/analytics/export";

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const BATCH = 5_000;
const NOW = Date.parse("2026-06-30T12:00:00Z");
const YEAR = 365 * 86_400_000;

const fake = new FakeBotApi().start();
const dataDir = mkdtempSync(join(tmpdir(), "bench-analytics-"));
// the API rate limit (300 a minute by default) would answer 429 a few endpoints in: this measures the endpoints
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url, RATE_LIMIT_API: "1000000" });
const deps = createDeps(config, { clock: new ManualClock(NOW) });
const app = createApi(deps);
const user = await upsertTelegramUser(deps, { id: 42, username: "bench" });
const token = await signAccessToken(deps, user.id);
const link = deps.db.insert(links).values({ userId: user.id, code: "bench1", url: "https://example.com", createdAt: new Date(NOW - YEAR) }).returning().get();

const pick = <T>(xs: readonly T[], r: number) => xs[Math.floor(r * xs.length) % xs.length]!;
const COUNTRIES = ["US", "DE", "GB", "FR", "IN", "BR", "JP", "RU", "ES", "IT", "NL", "PL", "TR", "CA", "AU", null] as const;
const DEVICES = ["mobile", "mobile", "desktop", "tablet", "other"] as const;
const BROWSERS = ["Chrome", "Safari", "Firefox", "Edge", "Opera", "Samsung Internet"] as const;
const OSES = ["Android", "iOS", "Windows", "macOS", "Linux"] as const;
const BOTS = ["TelegramBot", "Googlebot", "bingbot", "facebookexternalhit", "Twitterbot"] as const;

// a small deterministic PRNG so runs are comparable
let seed = 1;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

const insert = deps.handle.sqlite.query(`INSERT INTO clicks (link_id, clicked_at, ip, country, city, device, browser, os, referer, ua_id, is_bot, bot_name, is_unique)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`);
const t0 = performance.now();
for (let done = 0; done < TOTAL; done += BATCH) {
  deps.db.transaction((tx) => {
    const batch: { click: ClickRow; link: typeof link }[] = [];
    for (let i = done; i < Math.min(TOTAL, done + BATCH); i++) {
      const at = NOW - YEAR + Math.floor((i / TOTAL) * YEAR) + Math.floor(rnd() * 1000);
      const isBot = rnd() < 0.08;
      const country = pick(COUNTRIES, rnd());
      const c = {
        linkId: link.id, clickedAt: new Date(at), ip: `203.0.${i % 250}.${(i >> 8) % 250}`, country, city: country ? `${country} City` : null,
        device: isBot ? "bot" : pick(DEVICES, rnd()), browser: isBot ? null : pick(BROWSERS, rnd()), os: isBot ? null : pick(OSES, rnd()),
        referer: rnd() < 0.5 ? "https://t.me/" : null, uaId: null, isBot, botName: isBot ? pick(BOTS, rnd()) : null, isUnique: !isBot && rnd() < 0.6, rule: null, variant: null,
      };
      const { id } = insert.get(c.linkId, at, c.ip, c.country, c.city, c.device, c.browser, c.os, c.referer, c.uaId, c.isBot ? 1 : 0, c.botName, c.isUnique ? 1 : 0) as { id: number };
      batch.push({ click: { id, ...c }, link });
    }
    runClickListeners(CLICK_LISTENERS, tx, deps, withKinds(batch));
  });
}
const seedSeconds = (performance.now() - t0) / 1000;
deps.handle.sqlite.exec("ANALYZE");
console.log(`seeded ${TOTAL.toLocaleString("en")} clicks over a year in ${seedSeconds.toFixed(1)} s (${Math.round(TOTAL / seedSeconds).toLocaleString("en")} clicks/s, batches of ${BATCH})`);

async function measure(path: string, runs = 60) {
  const times: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const s = performance.now();
    const res = await app.handle(new Request(`http://localhost/api/links/${link.id}/${path}`, { headers: { authorization: `Bearer ${token}` } }));
    await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    if (i >= 5) times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  console.log(`${path.padEnd(58)} p50 ${q(0.5).padStart(7)} ms   p99 ${q(0.99).padStart(7)} ms`);
}

console.log("\nendpoint (1,000,000 clicks over a year)                    p50          p99");
for (const path of [
  "stats?period=1y", "stats?period=30d", "stats?period=all", "clicks?page=1&limit=100", "clicks?page=100&limit=100",
  "geo?period=1y", "geo?period=30d", "devices?period=1y", "devices?period=7d", "bots?period=1y",
  "timeline?period=1y&granularity=daily", "timeline?period=1y&granularity=daily&tz=Europe/Berlin", "timeline?period=1y&granularity=daily&tz=Asia/Kolkata",
  "timeline?period=30d&granularity=hourly&tz=America/New_York", "timeline?period=1y&granularity=hourly&tz=Asia/Kolkata",
  "heatmap?period=1y", "heatmap?period=1y&tz=Europe/Berlin", "heatmap?period=1y&tz=Asia/Kathmandu", "heatmap?period=30d&tz=Asia/Kolkata",
]) await measure(path);

console.log("\nexport of the newest 10,000 clicks, built and handed to the (fake) Bot API");
for (const format of ["csv", "xlsx", "pdf"] as const) {
  const s = performance.now();
  const res = await exportClicks(deps, user.id, link.id, { format, period: "1y" });
  const call = fake.callsOf("sendDocument").at(-1)!;
  const bytes = Object.values(call.files)[0]!.bytes.length;
  console.log(`${format.padEnd(5)} ${res.rows} rows, ${(bytes / 1024).toFixed(0)} KiB in ${(performance.now() - s).toFixed(0)} ms`);
}

deps.handle.close();
await fake.stop();
rmSync(dataDir, { recursive: true, force: true });
