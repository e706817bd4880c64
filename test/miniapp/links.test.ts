import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { eq } from "drizzle-orm";
import { openSignedIn, withBrowserApp, screenshot, until, type Server } from "../helpers/browser";
import { recordClicks } from "../helpers/clicks";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

describe("links in the dashboard", () => {
  test("create a link with options and tags, find it in the list by search and tag, edit it, bulk create", async () => {
    const { token } = await s.emailUser("links@example.com");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links`);
    await page.getByText("No links yet.").waitFor();
    await screenshot(page, "links-empty");

    await page.getByRole("link", { name: "New link" }).click();
    await page.getByLabel("Destination URL").fill("https://example.com/spring-sale");
    await page.getByLabel("Title").fill("Spring sale");
    await page.getByLabel("Custom code (optional)").fill("spring26");
    await page.getByLabel("New tag").fill("promo");
    await page.getByRole("button", { name: "Add tag" }).click();
    await page.getByRole("group", { name: "Tags" }).getByRole("button", { name: "promo", pressed: true }).waitFor();
    await page.getByText("UTM parameters").click();
    await page.getByLabel("utm_source").fill("telegram");
    await page.getByText("Schedule and limits").click();
    await page.getByLabel("Max clicks").fill("500");
    await page.getByText("Per-platform targets").click();
    await page.getByLabel("iOS URL").fill("https://apps.apple.com/app/id1");
    await screenshot(page, "link-form");
    await page.getByRole("button", { name: "Create link" }).click();

    // lands on the link page with its short URL
    await page.getByRole("heading", { name: "Spring sale" }).waitFor();
    expect(await page.getByTestId("tracking-url").textContent()).toBe(`${s.baseUrl}/spring26`);
    const row = (
      await s.deps.asyncDb.select().from(s.deps.asyncDb.tables.links).where(eq(s.deps.asyncDb.tables.links.code, "spring26"))
    )[0]!;
    expect(row).toMatchObject({
      url: "https://example.com/spring-sale",
      utmSource: "telegram",
      maxClicks: 500,
      iosUrl: "https://apps.apple.com/app/id1",
    });

    // a second link; the list shows both; search and tag filter narrow it
    await page.goto(`${s.baseUrl}/app/links/new`);
    await page.getByLabel("Destination URL").fill("https://example.org/other");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByTestId("tracking-url").waitFor();
    await page.getByRole("navigation").getByRole("link", { name: /Links/ }).click();
    const items = page.locator(".links-list > li");
    await until(() => items.count(), 2);
    await page.getByLabel("Search links").fill("spring");
    await until(() => items.count(), 1);
    expect(await items.first().textContent()).toContain("Spring sale");
    await page.getByLabel("Search links").fill("");
    await until(() => items.count(), 2);
    await page.getByRole("group", { name: "Filter by tag" }).getByRole("button", { name: "#promo" }).click();
    await until(() => items.count(), 1);
    await screenshot(page, "links-list");

    // edit: the form is prefilled; the change is saved
    await items.first().click();
    await page.getByRole("link", { name: "Edit" }).click();
    await until(() => page.getByLabel("Title").inputValue(), "Spring sale");
    await page.getByLabel("Title").fill("Spring sale 2026");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Spring sale 2026" }).waitFor();
    expect(
      (await s.deps.asyncDb.select().from(s.deps.asyncDb.tables.links).where(eq(s.deps.asyncDb.tables.links.code, "spring26")))[0]!.title,
    ).toBe("Spring sale 2026");

    // bulk create: created and failed lines
    await page.goto(`${s.baseUrl}/app/links/bulk`);
    await page.getByLabel(/URLs, one per line/).fill("https://example.com/a\nhttps://example.com/b\nnot a url");
    await page.getByRole("button", { name: "Create links" }).click();
    await page.getByText("created,").waitFor();
    expect(await page.locator(".card p").first().textContent()).toBe("2 created, 1 failed.");
    expect(await page.locator(".error-text").textContent()).toContain("not a url");
    await screenshot(page, "links-bulk");
    expect(problems).toEqual([]);
  }, 60_000);

  test("the list pages through the server: 50 at a time with Show more, search finds links on later pages", async () => {
    const { user, token } = await s.emailUser("many@example.com");
    await s.deps.asyncDb.insert(s.deps.asyncDb.tables.links).values(
      Array.from({ length: 120 }, (_, i) => ({
        userId: user.id,
        code: `many${i + 1}`,
        url: `https://example.com/${i + 1}`,
        title: `Item ${i + 1}`,
      })),
    );
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links`);
    const items = page.locator(".links-list > li");
    await until(() => items.count(), 50);
    expect(await items.first().textContent()).toContain("Item 120");
    expect(await page.getByTestId("links-shown").textContent()).toBe("50 of 120");
    await page.getByRole("button", { name: "Show more" }).click();
    await until(() => items.count(), 100);
    await page.getByRole("button", { name: "Show more" }).click();
    await until(() => items.count(), 120);
    expect(await items.last().textContent()).toContain("Item 1");
    expect(await page.getByRole("button", { name: "Show more" }).count()).toBe(0);
    await screenshot(page, "links-paged");

    // the search runs on the server: "Item 1" was on the last page of the first load
    const searched = page.waitForResponse((r) => r.url().includes("/api/links?") && new URL(r.url()).searchParams.get("q") === "item 11");
    await page.getByLabel("Search links").fill("item 11");
    expect((await searched).status()).toBe(200);
    await until(() => items.count(), 11); // Item 11 and Item 110–119
    expect(await items.last().textContent()).toContain("Item 11");
    await page.getByLabel("Search links").fill("no such link");
    await page.getByText("Nothing matches “no such link”.").waitFor();
    expect(problems).toEqual([]);
  }, 60_000);

  test("analytics page of a link with seeded clicks draws timeline, countries, devices, bots and heatmap", async () => {
    const { user, token } = await s.emailUser("stats@example.com");
    const link = (
      await s.deps.asyncDb
        .insert(s.deps.asyncDb.tables.links)
        .values({ userId: user.id, code: "statslnk", url: "https://example.com/x", title: "Stats demo" })
        .returning()
    )[0]!;
    const now = s.clock.now().getTime();
    const h = 3600_000;
    const human = (ago: number, country: string, device: string, browser: string, os: string, isUnique = true) => ({
      at: now - ago,
      country,
      city: null,
      device,
      browser,
      os,
      isUnique,
      isBot: false,
      ip: "203.0.113.9",
      referer: "https://t.me/",
    });
    await recordClicks(s.deps, link, [
      human(2 * h, "DE", "mobile", "Safari", "iOS"),
      human(5 * h, "DE", "mobile", "Chrome", "Android"),
      human(30 * h, "US", "desktop", "Chrome", "Windows"),
      human(50 * h, "FR", "tablet", "Firefox", "Android", false),
      { at: now - 3 * h, country: "US", device: "bot", isBot: true, botName: "TelegramBot", isUnique: false, ip: "198.51.100.1" },
    ]);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/${link.id}`);
    await page.getByRole("heading", { name: "Stats demo" }).waitFor();
    await until(() => page.locator("[data-stat=total]").textContent(), "5");
    expect(await page.locator("[data-stat=unique]").textContent()).toBe("3");
    expect(await page.locator("[data-stat=bots]").textContent()).toBe("1");
    for (const label of ["Clicks over time", "Clicks by country", "Clicks by devices", "Clicks by browsers", "Clicks by os"])
      await page.locator(`canvas[aria-label="${label}"][data-ready="1"]`).waitFor();
    await page.getByText("TelegramBot").waitFor();
    const lit = await page
      .locator(".hm-cell")
      .evaluateAll((els) => els.filter((e) => Number((e as HTMLElement).style.opacity) > 0.1).length);
    expect(lit).toBe(5);
    expect(await page.locator("table.clicks tbody tr").count()).toBe(5);

    // period and granularity change the timeline request
    const timeline = page.waitForResponse((r) => r.url().includes("/timeline?period=7d&granularity=hourly"));
    await page.getByRole("combobox", { name: "Period" }).selectOption("7d");
    await page.getByRole("combobox", { name: "Granularity" }).selectOption("hourly");
    expect((await timeline).status()).toBe(200);
    await screenshot(page, "link-analytics");
    expect(problems).toEqual([]);
  }, 60_000);
});
