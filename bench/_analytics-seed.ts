/** The analytics benchmark's seeding: clicks through the click writer's batch path, or with set-based SQL (`--seed sql`). */
import { sql } from "drizzle-orm";
import { rowsOf, transaction, type AsyncDb } from "../db/async";
import { packClicks, type PendingClick } from "../core/clicks/packed";
import type { ClickWriter } from "../core/clicks/writer";
import { parsedUa } from "../core/clicks/enrich";
import { rollupFromClicks } from "../core/analytics/rollup-from-clicks";
import { BLOCK } from "../core/analytics/range";

/** Clicks per batch, as large as the writer thread's. */
export const BATCH = 10_000;

// a small deterministic PRNG so runs are comparable
let seed = 1;
export const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
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
export async function seedThroughWriter(writer: ClickWriter, linkId: number, total: number, at: (i: number) => number): Promise<number> {
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

export const fmt = (n: number) => Math.round(n).toLocaleString("en");
/**
 * `--seed sql`: `total` clicks on `linkId` spread evenly over [from, from + span), written with
 * set-based SQL in chunks, then the link's roll-ups from one aggregation of them and its counters.
 * Each click's values come from a hash of its number: one of 100 agent profiles (8 bots, the rest
 * the agents above), one of ten countries or none, 40% of human clicks unique, half with a referer.
 */
export async function seedSetBased(db: AsyncDb, linkId: number, total: number, from: number, span: number): Promise<void> {
  const pg = db.engine === "postgres";
  const engine = pg ? "PostgreSQL" : "SQLite";
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
