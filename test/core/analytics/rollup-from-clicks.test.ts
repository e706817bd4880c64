/**
 * Roll-ups rebuilt from stored clicks in one pass (core/analytics/rollup-from-clicks.ts, what the
 * analytics bench's set-based seeding uses) equal the roll-ups the click writer's listener kept for
 * the same clicks, row for row, on SQLite and on PostgreSQL: bots with and without a name, unknown
 * countries and agents, repeat visitors (uniques), rules and A/B variants, over several days, in
 * batches whose clicks share quarters, hours, days and 8-day blocks.
 */
import { afterAll, expect, test } from "bun:test";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { and, asc, eq, ne } from "drizzle-orm";
import type { Deps } from "../../../core/deps";
import { createClickWriter, type ClickWriter } from "../../../core/clicks/writer";
import { createPgClickWriter } from "../../../core/clicks/writer-pg";
import { packClicks, type PendingClick } from "../../../core/clicks/packed";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import { rollupFromClicks } from "../../../core/analytics/rollup-from-clicks";
import { DAY } from "../../../core/analytics/range";
import type { AsyncDb } from "../../../db/async";
import type { Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { createTestApp, type TestApp } from "../../helpers/app";
import { onBothDatabases } from "../../helpers/async-engines";

const apps: TestApp[] = [];
afterAll(() => apps.forEach((a) => a.close()));

const START = Date.parse("2026-03-30T12:37:20.500Z");
const UAS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
  null,
];
const BOTS = [
  ["TelegramBot (like TwitterBot)", "TelegramBot"],
  ["curl/8.5.0", null],
] as const;
// located, unlocated (documentation range) and missing addresses
const IPS = ["81.2.69.142", "2.125.160.216", "89.160.20.112", "216.160.83.56", "203.0.113.9", null];

let seed = 5;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;

function clicksBetween(linkId: number, n: number, from: number, to: number): PendingClick[] {
  return Array.from({ length: n }, () => {
    const isBot = rnd() < 0.1;
    const bot = pick(BOTS);
    const routed = rnd();
    return {
      linkId,
      clickedAt: new Date(from + Math.floor(rnd() * (to - from))),
      ip: pick(IPS),
      userAgent: isBot ? bot[0] : pick(UAS),
      referer: pick([null, "https://t.me/s/news", "https://WWW.Example.com:8443/a?b", "android-app://org.telegram.messenger/", "junk"]),
      isBot,
      botName: isBot ? bot[1] : null,
      rule: routed < 0.2 ? Math.floor(rnd() * 3) : null,
      variant: routed >= 0.2 && routed < 0.6 ? Math.floor(rnd() * 2) : null,
    };
  });
}

onBothDatabases((open, engine) => {
  async function setUp(): Promise<{ deps: Deps; writer: ClickWriter; linkIds: number[] }> {
    const e = await open();
    const t = createTestApp();
    apps.push(t);
    t.clock.set(START);
    let deps: Deps;
    let writer: ClickWriter;
    if (engine === "sqlite") {
      const sqliteDb = drizzle(e.sqlite!, { schema }) as Db;
      deps = { ...t.deps, asyncDb: e.db } as Deps;
      writer = createClickWriter({ ...deps, db: sqliteDb }, CLICK_LISTENERS);
    } else {
      deps = { ...t.deps, asyncDb: e.db } as Deps;
      writer = createPgClickWriter(deps, CLICK_LISTENERS);
    }
    const db = deps.asyncDb;
    const [user] = await db
      .insert(db.tables.users)
      .values({ username: "owner", createdAt: new Date(START - 30 * DAY) })
      .returning();
    const linkIds: number[] = [];
    for (const code of ["rolled1", "other1"])
      linkIds.push(
        (
          await db
            .insert(db.tables.links)
            .values({ userId: user!.id, code, url: "https://example.com/", createdAt: new Date(START - 20 * DAY) })
            .returning()
        )[0]!.id,
      );
    return { deps, writer, linkIds };
  }

  async function rollups(db: AsyncDb, linkId: number) {
    const { linkStatsTime: t, linkStatsDim: d } = db.tables;
    const num = <T extends Record<string, unknown>>(rows: T[]) =>
      rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v])));
    return {
      times: num(await db.select().from(t).where(eq(t.linkId, linkId)).orderBy(asc(t.span), asc(t.bucket))),
      dims: num(await db.select().from(d).where(eq(d.linkId, linkId)).orderBy(asc(d.span), asc(d.dim), asc(d.bucket), asc(d.value))),
    };
  }

  test("roll-ups rebuilt from the clicks in one pass equal those the click writer kept, row for row; other links' rows are left alone", async () => {
    const { deps, writer, linkIds } = await setUp();
    const [linkId, other] = linkIds as [number, number];
    // 19 days (several 8-day blocks), then a dense last hour; a few clicks of another link in between
    for (let day = 19; day > 0; day--)
      await writer.write(packClicks(clicksBetween(linkId, 150, START - day * DAY, START - (day - 1) * DAY)));
    await writer.write(
      packClicks([...clicksBetween(linkId, 400, START - 3_600_000, START), ...clicksBetween(other, 50, START - 2 * DAY, START)]),
    );
    const kept = await rollups(deps.asyncDb, linkId);
    const otherKept = await rollups(deps.asyncDb, other);
    expect(kept.times.length).toBeGreaterThan(300);
    expect(new Set(kept.dims.map((r) => r.dim))).toEqual(
      new Set(["country", "device", "browser", "os", "bot", "rule", "variant", "referrer"]),
    );
    expect(kept.dims.some((r) => r.dim === "country" && r.value === "")).toBe(true);
    expect(kept.dims.some((r) => r.dim === "bot" && r.value === "")).toBe(true);
    expect(kept.times.reduce((n, r) => n + Number(r.span === 3_600_000 ? r.uniques : 0), 0)).toBeGreaterThan(10);

    // rebuilt over rows that are off (a stale row to replace), the result is what the writer kept
    const { linkStatsTime: t } = deps.asyncDb.tables;
    await deps.asyncDb
      .update(t)
      .set({ clicks: 999_999 })
      .where(and(eq(t.linkId, linkId), ne(t.span, 0)));
    const { groups } = await rollupFromClicks(deps.asyncDb, linkId);
    expect(groups).toBeGreaterThan(0);
    expect(await rollups(deps.asyncDb, linkId)).toEqual(kept);
    expect(await rollups(deps.asyncDb, other)).toEqual(otherKept);
  });
});
