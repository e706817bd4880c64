import { describe, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app";
import { useFixture, type Fixture } from "../helpers/analytics-fixture";

let t: TestApp;
let f: Fixture;
useFixture((app, fixture) => ((t = app), (f = fixture)));

const get = (path: string, token = f.alice.token) => t.request("GET", `/api/links/${f.link.id}/${path}`, { token });

describe("stats", () => {
  test("7d, 30d, 1d and all", async () => {
    expect((await get("stats?period=7d")).json).toEqual({
      totalClicks: 8,
      uniqueClicks: 5,
      botClicks: 2,
      avgClicksPerDay: 1.14,
      topCountry: "DE",
      rules: [],
      variants: [],
      conversions: { count: 0, value: {}, by_event: {}, rate: 0 },
    });
    const def = await get("stats");
    expect(def.status).toBe(200);
    expect(def.json).toEqual({
      totalClicks: 10,
      uniqueClicks: 6,
      botClicks: 2,
      avgClicksPerDay: 0.33,
      topCountry: "DE",
      rules: [],
      variants: [],
      conversions: { count: 0, value: {}, by_event: {}, rate: 0 },
    });
    expect((await get("stats?period=1d")).json).toEqual({
      totalClicks: 3,
      uniqueClicks: 2,
      botClicks: 1,
      avgClicksPerDay: 3,
      topCountry: "DE",
      rules: [],
      variants: [],
      conversions: { count: 0, value: {}, by_event: {}, rate: 0 },
    });
    // created 2026-02-01, now 2026-03-30T12:00Z: 58 started days
    expect((await get("stats?period=all")).json).toEqual({
      totalClicks: 10,
      uniqueClicks: 6,
      botClicks: 2,
      avgClicksPerDay: 0.17,
      topCountry: "DE",
      rules: [],
      variants: [],
      conversions: { count: 0, value: {}, by_event: {}, rate: 0 },
    });
  });

  test("a click is in the period as long as it is within it to the millisecond", async () => {
    t.clock.set("2026-03-30T12:00:02Z"); // the GB click at 12:00:01 on 03-23 is now 7d + 1 s old
    expect((await get("stats?period=7d")).json.totalClicks).toBe(7);
  });
});

describe("geo, devices, bots", () => {
  test("7d: counts and percentages that add up to 100", async () => {
    expect((await get("geo?period=7d")).json).toEqual([
      { country: "DE", count: 3, percentage: 37.5 },
      { country: "US", count: 2, percentage: 25 },
      { country: "FR", count: 1, percentage: 12.5 },
      { country: "GB", count: 1, percentage: 12.5 },
      { country: "Unknown", count: 1, percentage: 12.5 },
    ]);
    const d = (await get("devices?period=7d")).json;
    expect(d.devices).toEqual([
      { name: "mobile", count: 3, percentage: 37.5 },
      { name: "bot", count: 2, percentage: 25 },
      { name: "desktop", count: 2, percentage: 25 },
      { name: "tablet", count: 1, percentage: 12.5 },
    ]);
    expect(d.browsers).toEqual([
      { name: "Chrome", count: 3, percentage: 37.5 },
      { name: "Safari", count: 2, percentage: 25 },
      { name: "Unknown", count: 2, percentage: 25 },
      { name: "Firefox", count: 1, percentage: 12.5 },
    ]);
    expect(d.os).toEqual([
      { name: "Android", count: 2, percentage: 25 },
      { name: "iOS", count: 2, percentage: 25 },
      { name: "Unknown", count: 2, percentage: 25 },
      { name: "Linux", count: 1, percentage: 12.5 },
      { name: "Windows", count: 1, percentage: 12.5 },
    ]);
    expect((await get("bots?period=7d")).json).toEqual({
      totalBots: 2,
      botPercentage: 25,
      bots: [
        { name: "Googlebot", count: 1 },
        { name: "TelegramBot", count: 1 },
      ],
    });
  });

  test('referrers: the sites that sent the clicks, by host; "" for the clicks that came with none', async () => {
    // in the 7 days: five people came from t.me, two bots and one person sent no Referer
    expect((await get("referrers?period=7d")).json).toEqual([
      { referrer: "t.me", count: 5, percentage: 62.5 },
      { referrer: "", count: 3, percentage: 37.5 },
    ]);
    expect((await get("referrers?period=7d", f.bob.token)).status).toBe(404);
  });

  test("1d: thirds are rounded so they still add up to 100", async () => {
    const geo = (await get("geo?period=1d")).json;
    expect(geo).toEqual([
      { country: "DE", count: 1, percentage: 33.4 },
      { country: "FR", count: 1, percentage: 33.3 },
      { country: "US", count: 1, percentage: 33.3 },
    ]);
    expect(Math.round(geo.reduce((s: number, g: any) => s + g.percentage * 10, 0))).toBe(1000);
    expect((await get("bots?period=1d")).json).toEqual({ totalBots: 1, botPercentage: 33.3, bots: [{ name: "Googlebot", count: 1 }] });
  });

  test("30d includes the older clicks", async () => {
    expect((await get("geo")).json).toEqual([
      { country: "DE", count: 3, percentage: 30 },
      { country: "US", count: 3, percentage: 30 },
      { country: "GB", count: 2, percentage: 20 },
      { country: "FR", count: 1, percentage: 10 },
      { country: "Unknown", count: 1, percentage: 10 },
    ]);
  });
});

describe("timeline", () => {
  const nonZero = (rows: { date: string; clicks: number; unique: number }[]) => rows.filter((r) => r.clicks > 0);

  test("daily in UTC and Asia/Kolkata, zero days included", async () => {
    const utc = (await get("timeline?period=7d&granularity=daily")).json;
    expect(utc.map((r: any) => r.date)).toEqual([
      "2026-03-23",
      "2026-03-24",
      "2026-03-25",
      "2026-03-26",
      "2026-03-27",
      "2026-03-28",
      "2026-03-29",
      "2026-03-30",
    ]);
    expect(utc).toContainEqual({ date: "2026-03-24", clicks: 0, unique: 0 });
    expect(nonZero(utc)).toEqual([
      { date: "2026-03-23", clicks: 1, unique: 1 },
      { date: "2026-03-28", clicks: 1, unique: 1 },
      { date: "2026-03-29", clicks: 4, unique: 2 },
      { date: "2026-03-30", clicks: 2, unique: 1 },
    ]);
    const ist = (await get("timeline?period=7d&granularity=daily&tz=Asia/Kolkata")).json;
    expect(ist).toHaveLength(8);
    expect(nonZero(ist)).toEqual([
      { date: "2026-03-23", clicks: 1, unique: 1 },
      { date: "2026-03-29", clicks: 4, unique: 2 },
      { date: "2026-03-30", clicks: 3, unique: 2 },
    ]);
  });

  test("hourly across the Berlin DST change: 02:00 does not exist that night", async () => {
    const rows = (await get("timeline?period=7d&granularity=hourly&tz=Europe/Berlin")).json;
    const dates = rows.map((r: any) => r.date);
    expect(rows).toHaveLength(169);
    expect(dates[0]).toBe("2026-03-23T13:00");
    expect(dates.at(-1)).toBe("2026-03-30T14:00");
    expect(dates).toContain("2026-03-29T01:00");
    expect(dates).not.toContain("2026-03-29T02:00");
    expect(new Set(dates).size).toBe(169);
    expect(nonZero(rows)).toEqual([
      { date: "2026-03-23T13:00", clicks: 1, unique: 1 },
      { date: "2026-03-28T23:00", clicks: 1, unique: 1 },
      { date: "2026-03-29T01:00", clicks: 1, unique: 0 },
      { date: "2026-03-29T03:00", clicks: 2, unique: 1 },
      { date: "2026-03-29T20:00", clicks: 1, unique: 1 },
      { date: "2026-03-30T11:00", clicks: 1, unique: 0 },
      { date: "2026-03-30T13:00", clicks: 1, unique: 1 },
    ]);
  });

  test("hourly in a half-hour zone re-buckets 15-minute roll-ups exactly", async () => {
    const rows = (await get("timeline?period=7d&granularity=hourly&tz=Asia/Kolkata")).json;
    expect(rows).toHaveLength(169);
    expect(rows[0].date).toBe("2026-03-23T17:00");
    expect(nonZero(rows)).toEqual([
      { date: "2026-03-23T17:00", clicks: 1, unique: 1 },
      { date: "2026-03-29T04:00", clicks: 1, unique: 1 },
      { date: "2026-03-29T06:00", clicks: 3, unique: 1 },
      { date: "2026-03-30T00:00", clicks: 1, unique: 1 },
      { date: "2026-03-30T14:00", clicks: 1, unique: 0 },
      { date: "2026-03-30T17:00", clicks: 1, unique: 1 },
    ]);
    const utc = (await get("timeline?period=1d&granularity=hourly")).json;
    expect(utc).toHaveLength(25);
    expect(nonZero(utc)).toEqual([
      { date: "2026-03-29T18:00", clicks: 1, unique: 1 },
      { date: "2026-03-30T09:00", clicks: 1, unique: 0 },
      { date: "2026-03-30T11:00", clicks: 1, unique: 1 },
    ]);
  });
});

describe("heatmap", () => {
  const cells = (rows: { day: number; hour: number; count: number }[]) => rows.filter((r) => r.count > 0);

  test("168 cells, day 0 = Sunday, in UTC, Berlin and Kolkata", async () => {
    const utc = (await get("heatmap?period=7d")).json;
    expect(utc).toHaveLength(168);
    expect(utc[0]).toEqual({ day: 0, hour: 0, count: 1 });
    expect(cells(utc)).toEqual([
      { day: 0, hour: 0, count: 1 },
      { day: 0, hour: 1, count: 2 },
      { day: 0, hour: 18, count: 1 },
      { day: 1, hour: 9, count: 1 },
      { day: 1, hour: 11, count: 1 },
      { day: 1, hour: 12, count: 1 },
      { day: 6, hour: 22, count: 1 },
    ]);
    expect(cells((await get("heatmap?period=7d&tz=Europe/Berlin")).json)).toEqual([
      { day: 0, hour: 1, count: 1 },
      { day: 0, hour: 3, count: 2 },
      { day: 0, hour: 20, count: 1 },
      { day: 1, hour: 11, count: 1 },
      { day: 1, hour: 13, count: 2 },
      { day: 6, hour: 23, count: 1 },
    ]);
    expect(cells((await get("heatmap?period=7d&tz=Asia/Kolkata")).json)).toEqual([
      { day: 0, hour: 4, count: 1 },
      { day: 0, hour: 6, count: 3 },
      { day: 1, hour: 0, count: 1 },
      { day: 1, hour: 14, count: 1 },
      { day: 1, hour: 17, count: 2 },
    ]);
  });
});

describe("clicks list", () => {
  test("newest first, paged, total of all clicks", async () => {
    const p1 = (await get("clicks?limit=3")).json;
    expect(p1.total).toBe(10);
    expect(p1.page).toBe(1);
    expect(p1.limit).toBe(3);
    expect(p1.data.map((c: any) => c.clicked_at)).toEqual([
      "2026-03-30T11:59:30.000Z",
      "2026-03-30T09:00:00.000Z",
      "2026-03-29T18:35:00.000Z",
    ]);
    expect(p1.data[1]).toMatchObject({
      country: "US",
      device: "bot",
      is_bot: true,
      bot_name: "Googlebot",
      is_unique: false,
      browser: null,
    });
    expect(p1.data[2]).toMatchObject({
      country: "FR",
      city: "FR City",
      device: "tablet",
      browser: "Chrome",
      os: "Android",
      referer: "https://t.me/",
      is_bot: false,
      is_unique: true,
    });
    const p4 = (await get("clicks?limit=3&page=4")).json;
    expect(p4.data.map((c: any) => c.clicked_at)).toEqual(["2026-03-20T10:00:00.000Z"]);
    const def = (await get("clicks")).json;
    expect(def.limit).toBe(50);
    expect(def.data).toHaveLength(10);
  });
});

test("a link without clicks: zeros, empty lists, zero buckets", async () => {
  const q = (path: string) => t.request("GET", `/api/links/${f.bobLink.id}/${path}`, { token: f.bob.token });
  expect((await q("stats?period=7d")).json).toEqual({
    totalClicks: 0,
    uniqueClicks: 0,
    botClicks: 0,
    avgClicksPerDay: 0,
    topCountry: null,
    rules: [],
    variants: [],
    conversions: { count: 0, value: {}, by_event: {}, rate: null },
  });
  expect((await q("geo")).json).toEqual([]);
  expect((await q("devices")).json).toEqual({ devices: [], browsers: [], os: [] });
  expect((await q("bots")).json).toEqual({ totalBots: 0, botPercentage: 0, bots: [] });
  const timeline = (await q("timeline?period=7d")).json;
  expect(timeline).toHaveLength(8);
  expect(timeline.every((r: any) => r.clicks === 0 && r.unique === 0)).toBe(true);
  const heat = (await q("heatmap")).json;
  expect(heat).toHaveLength(168);
  expect(heat.every((c: any) => c.count === 0)).toBe(true);
  expect((await q("clicks")).json).toEqual({ data: [], total: 0, page: 1, limit: 50 });
});

test("end to end over a listening server", async () => {
  const server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const res = await fetch(`http://127.0.0.1:${server.server!.port}/api/links/${f.link.id}/heatmap?period=1d&tz=Asia/Kolkata`, {
      headers: { authorization: `Bearer ${f.alice.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const cells = ((await res.json()) as { day: number; hour: number; count: number }[]).filter((c) => c.count);
    expect(cells).toEqual([
      { day: 1, hour: 0, count: 1 },
      { day: 1, hour: 14, count: 1 },
      { day: 1, hour: 17, count: 1 },
    ]);
    const bad = await fetch(`http://127.0.0.1:${server.server!.port}/api/links/${f.link.id}/timeline?tz=Europe/Nowhere`, {
      headers: { authorization: `Bearer ${f.alice.token}` },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain("is not an IANA time zone name");
  } finally {
    await server.stop();
  }
});

describe("errors and access", () => {
  test("bad period, tz, granularity, page and limit are 400 naming the field", async () => {
    for (const [path, field] of [
      ["stats?period=2d", "period"],
      ["geo?period=", ""],
      ["timeline?tz=Mars/Olympus", "tz"],
      ["heatmap?tz=nope", "tz"],
      ["timeline?granularity=weekly", "granularity"],
      ["clicks?limit=101", "limit"],
      ["clicks?page=0", "page"],
      ["clicks?limit=abc", "limit"],
    ] as const) {
      const res = await get(path);
      if (!field) {
        expect(res.status).toBe(200); // an empty period is the default
        continue;
      }
      expect(res.status, path).toBe(400);
      expect(res.json.error).toBe("validation_error");
      expect(res.json.details[0].field).toBe(field);
    }
  });

  test("another user's link and unknown links are 404; no credentials 401", async () => {
    const other = await t.request("GET", `/api/links/${f.bobLink.id}/stats`, { token: f.alice.token });
    expect(other.status).toBe(404);
    expect(other.json.error).toBe("not_found");
    expect((await t.request("GET", `/api/links/${f.link.id}/geo`, { token: f.bob.token })).status).toBe(404);
    expect((await t.request("GET", `/api/links/99999/timeline`, { token: f.alice.token })).status).toBe(404);
    expect((await t.request("GET", `/api/links/${f.link.id}/stats`)).status).toBe(401);
  });

  test("API tokens need read:stats or read:links", async () => {
    const mk = async (scopes: string[]) =>
      (await t.request("POST", "/api/tokens", { token: f.alice.token, body: { name: scopes.join(), scopes } })).json.token;
    expect((await get("stats", await mk(["read:stats"]))).status).toBe(200);
    expect((await get("heatmap", await mk(["read:links"]))).status).toBe(200);
    const denied = await get("clicks", await mk(["write:links"]));
    expect(denied.status).toBe(403);
    expect(denied.json.error).toBe("insufficient_scope");
  });
});
