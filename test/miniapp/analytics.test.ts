/**
 * What the links list and a link's analytics page draw, checked against the API: the list's
 * per-link click stats, and the analytics controls (period, granularity, time zone) changing the
 * requests and the drawn data (each chart's data table, the canvas's fallback content, and the
 * day × hour heatmap's cells).
 */
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { openSignedIn, screenshot, until, withBrowserApp, type Server } from "../helpers/browser";
import { insertLink, recordClicks } from "../helpers/clicks";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

const H = 3_600_000;
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The rows of a chart's data table: [label, ...values]. */
const chartRows = (page: Page, label: string) =>
  page
    .locator(`canvas[aria-label="${label}"] tbody tr`)
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent ?? "")));

/** The heatmap cells that carry clicks, as their titles ("Mon 14:00 — 2 clicks"). */
const litCells = (page: Page) =>
  page.locator(".hm-cell").evaluateAll((cells) => cells.map((c) => c.getAttribute("title")!).filter((t) => !t.endsWith("— 0 clicks")));

/** Seeds a link with humans at 2 h, 5 h, 30 h and 50 h ago (the last a repeat visitor) and a bot 3 h ago. */
async function seed(userId: number) {
  const link = await insertLink(s.deps, userId, { title: "Chart data" });
  const now = s.clock.now().getTime();
  const human = (ago: number, country: string, isUnique = true) => ({
    at: now - ago,
    country,
    device: "mobile",
    browser: "Chrome",
    os: "Android",
    isUnique,
    isBot: false,
    ip: "203.0.113.7",
  });
  await recordClicks(s.deps, link, [
    human(2 * H, "DE"),
    human(5 * H, "DE"),
    human(30 * H, "US"),
    human(50 * H, "FR", false),
    { at: now - 3 * H, country: "US", device: "bot", isBot: true, botName: "TelegramBot", isUnique: false, ip: "198.51.100.1" },
  ]);
  return link;
}

async function api(token: string, path: string) {
  const r = await s.request("GET", path, { token });
  expect(r.status).toBe(200);
  return r.json;
}

describe("links list stats and the analytics controls", () => {
  test("each link in the list shows its total, unique and bot clicks, as counted by the redirect", async () => {
    const { user, token } = await s.emailUser("list-stats@example.com");
    // the list's counters are kept by the real click writer, so these clicks go through the redirect
    const link = await insertLink(s.deps, user.id, { title: "Redirected" });
    await insertLink(s.deps, user.id, { title: "No clicks yet" });
    const visit = (ua: string) => fetch(`${s.baseUrl}/${link.code}`, { redirect: "manual", headers: { "user-agent": ua } });
    const phone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
    for (const ua of [phone, phone, phone, "TelegramBot (like TwitterBot)"]) expect((await visit(ua)).status).toBe(302);
    await s.deps.clicks.flush(); // what the writer does on its timer
    const counted = (await api(token, "/api/links")).find((l: any) => l.title === "Redirected").stats;
    expect(counted.totalClicks).toBe(4);
    expect(counted.botClicks).toBe(1);
    expect(counted.uniqueClicks).toBeGreaterThanOrEqual(1);

    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links`);
    const row = (title: string) => page.locator("a.row", { hasText: title }).locator(".row-stats");
    await row("Redirected").waitFor();
    expect((await row("Redirected").innerText()).replace(/\s+/g, " ")).toBe(`4 clicks ${counted.uniqueClicks} unique · 1 bots`);
    expect((await row("No clicks yet").innerText()).replace(/\s+/g, " ")).toBe("0 clicks 0 unique · 0 bots");
    expect(problems).toEqual([]);
  });

  test("period, granularity and time zone change the requests and what the charts and heatmap draw", async () => {
    const { user, token } = await s.emailUser("controls@example.com");
    const link = await seed(user.id);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    const timelineQueries: string[] = [];
    page.on("request", (r) => r.url().includes("/timeline?") && timelineQueries.push(new URL(r.url()).search));
    await page.goto(`${s.baseUrl}/app/links/${link.id}`);
    await page.locator('canvas[aria-label="Clicks over time"][data-ready="1"]').waitFor();
    const zone = await page.getByRole("combobox", { name: "Time zone" }).inputValue();
    const tzq = `tz=${encodeURIComponent(zone)}`;
    expect(timelineQueries).toEqual([`?period=30d&granularity=daily&${tzq}`]);

    /** The timeline the API gives for `query`, as the page's table rows should read. */
    const expectedTimeline = async (query: string) =>
      (await api(token, `/api/links/${link.id}/timeline?${query}`)).map((p: any) => [p.date, String(p.clicks), String(p.unique)]);
    const expectedHeat = async (query: string) =>
      (await api(token, `/api/links/${link.id}/heatmap?${query}`))
        .filter((c: any) => c.count > 0)
        .sort((a: any, b: any) => a.day - b.day || a.hour - b.hour)
        .map((c: any) => `${DAYS[c.day]} ${c.hour}:00 — ${c.count} ${c.count === 1 ? "click" : "clicks"}`);

    // 30 days, daily: every seeded click
    expect(await chartRows(page, "Clicks over time")).toEqual(await expectedTimeline(`period=30d&granularity=daily&${tzq}`));
    expect(await page.locator("[data-stat=total]").textContent()).toBe("5");
    expect(await chartRows(page, "Clicks by country")).toEqual([
      ["Germany", "2"],
      ["United States", "2"],
      ["France", "1"],
    ]);

    // 1 day: the 30 h and 50 h clicks drop out of the stats, the countries and the heatmap
    await page.getByRole("combobox", { name: "Period" }).selectOption("1d");
    await until(() => page.locator("[data-stat=total]").textContent(), "3");
    await until(
      () => chartRows(page, "Clicks by country"),
      [
        ["Germany", "2"],
        ["United States", "1"],
      ],
    );
    await until(() => litCells(page), await expectedHeat(`period=1d&${tzq}`));
    expect(timelineQueries.at(-1)).toBe(`?period=1d&granularity=daily&${tzq}`);

    // hourly, UTC: one point per hour of the last day, the clicks at their hours
    await page.getByRole("combobox", { name: "Granularity" }).selectOption("hourly");
    await page.getByRole("combobox", { name: "Time zone" }).selectOption("UTC");
    const utcRows = await expectedTimeline("period=1d&granularity=hourly&tz=UTC");
    await until(() => chartRows(page, "Clicks over time"), utcRows);
    expect(timelineQueries.at(-1)).toBe("?period=1d&granularity=hourly&tz=UTC");
    const utcHeat = await expectedHeat("period=1d&tz=UTC");
    await until(() => litCells(page), utcHeat);
    const now = s.clock.now().getTime();
    const hourOf = (ms: number, tz: string) =>
      Number(new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone: tz }).format(ms));
    expect(utcHeat.map((t: string) => Number(/ (\d+):00/.exec(t)![1])).sort()).toEqual(
      [2, 3, 5].map((a) => hourOf(now - a * H, "UTC")).sort(),
    );

    // Asia/Tokyo (UTC+9, no DST): the same clicks, drawn nine hours later
    await page.getByRole("combobox", { name: "Time zone" }).selectOption("Asia/Tokyo");
    const tokyoRows = await expectedTimeline("period=1d&granularity=hourly&tz=Asia%2FTokyo");
    await until(() => chartRows(page, "Clicks over time"), tokyoRows);
    expect(timelineQueries.at(-1)).toBe("?period=1d&granularity=hourly&tz=Asia%2FTokyo");
    const busy = (rows: string[][]) => rows.filter((r) => r[1] !== "0").map((r) => r[0]);
    const shifted = busy(utcRows).map((d) => new Date(Date.parse(`${d}:00Z`) + 9 * H).toISOString().slice(0, 16));
    expect(busy(await chartRows(page, "Clicks over time"))).toEqual(shifted);
    const tokyoHeat = await expectedHeat("period=1d&tz=Asia%2FTokyo");
    await until(() => litCells(page), tokyoHeat);
    expect(tokyoHeat.map((t: string) => Number(/ (\d+):00/.exec(t)![1])).sort()).toEqual(
      [2, 3, 5].map((a) => hourOf(now - a * H, "Asia/Tokyo")).sort(),
    );
    await screenshot(page, "link-analytics-hourly-tokyo");
    expect(problems).toEqual([]);
  });
});
