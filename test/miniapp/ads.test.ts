/**
 * The Ads page in headless Chromium: the placements in one table, sorted by a click on a heading
 * (again for the other direction), for a period; a placement's funnel from views to who stayed and
 * the curve of its post's views; in English and in Russian; the default currency in Settings.
 */
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { openSignedIn, screenshot, until, withBrowserApp, type Server } from "../helpers/browser";
import { placementsFixture } from "../helpers/placements-fixture";
import { getUserSettings } from "../../core/reports/settings";
import { setUserLanguage, upsertTelegramUser } from "../../core/accounts/users";
import { unitBot } from "../bot/unit";
import { drawBotMessage } from "../helpers/bot-screen";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

const rows = (page: Page) => page.getByTestId("ads").locator("tbody tr").allInnerTexts();
const names = async (page: Page) => (await rows(page)).map((r) => r.split("\n")[0]);
const nb = (s: string) => s.replace(/\u00a0|\u202f/g, " ");

describe("Ads in the mini-app", () => {
  test("the table with exact figures, cheapest subscriber who stayed first; a click on a heading sorts, again reverses; a period", async () => {
    const { user, token } = await s.telegramUser(5151, "marketer");
    await placementsFixture(s.deps, user);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links`);
    await page.getByRole("link", { name: "Ads", exact: true }).click();
    await page.getByTestId("ads").waitFor();
    expect(await page.getByTestId("ads").locator("thead th").allInnerTexts()).toEqual([
      "Placement",
      "Price",
      "Per stayed ▲",
      "Stayed",
      "Joins",
      "Clicks",
      "Views",
      "Per join",
    ]);
    expect((await rows(page)).map((r) => r.split(/\n?\t|\n/))).toEqual([
      ["Cheap ads", "@cheapads", "₽3,000", "₽1,500", "2", "2", "6", "—", "₽1,500"],
      ["Big channel", "@bigchannel", "₽5,000", "₽1,666.67", "3", "4", "10", "20,000", "₽1,250"],
    ]);
    // the API sorts (amounts within their currency): the rows come back in the order asked
    await page.getByRole("button", { name: "Joins", exact: true }).click();
    await until(() => names(page), ["Big channel", "Cheap ads"]);
    await page.getByRole("button", { name: "Joins ▼" }).click();
    await until(() => names(page), ["Cheap ads", "Big channel"]);
    await page.getByRole("button", { name: "Views", exact: true }).click();
    await until(() => names(page), ["Big channel", "Cheap ads"]); // no views: last
    await page.getByRole("button", { name: "All time" }).click();
    // still by views: the two without any last, newest first
    await until(() => names(page), ["Big channel", "VK group", "Cheap ads"]);
    await page.getByRole("button", { name: "Per stayed", exact: true }).click();
    await until(() => names(page), ["Cheap ads", "Big channel", "VK group"]);
    expect((await rows(page))[2]!.split(/\n?\t|\n/)).toEqual(["VK group", "VK group Cats", "—", "—", "0", "0", "3", "—", "—"]);
    await page.getByRole("button", { name: "7 days" }).click();
    await page.getByText("No placements in this period.").waitFor();
    expect(problems).toEqual([]);
  });

  test("a placement's funnel from views to who stayed, and its views curve", async () => {
    const { user, token } = await s.telegramUser(5252, "buyer");
    await placementsFixture(s.deps, user, "2");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/ads`);
    await page.getByRole("link", { name: "Big channel" }).click();
    await page.getByTestId("funnel").waitFor();
    expect((await page.getByTestId("funnel").locator("li").allInnerTexts()).map((t) => t.split(/\n|\t/))).toEqual([
      ["Views", "20,000", "CPM ₽250"],
      ["Unique clicks", "10", "CPC ₽500"],
      ["Joins", "4", "₽1,250 per join"],
      ["Stayed 24 h", "3", "75 %"],
      ["Stayed 7 days", "3", "75 % · ₽1,666.67 per subscriber who stayed"],
      ["Stayed 30 days", "0", "—"],
    ]);
    // the bars: each step as wide as its share of the views
    expect(
      await page
        .getByTestId("funnel")
        .locator(".bar")
        .evaluateAll((bars) => bars.map((b) => (b as HTMLElement).style.width)),
    ).toEqual(["100%", "0%", "0%", "0%", "0%", "0%"]);
    await page.locator("canvas[data-ready='1']").waitFor();
    // the curve's numbers, as the canvas's fallback table gives them to screen readers
    expect(await page.locator("canvas table tbody td").allInnerTexts()).toEqual(["4000", "11000", "15000", "18500", "20000"]);
    expect(problems).toEqual([]);
  });

  test("in Russian: headings, money and the funnel in Russian; the page for docs/", async () => {
    const { user, token } = await s.telegramUser(5353, "russian");
    await setUserLanguage(s.deps, user.id, "ru");
    await placementsFixture(s.deps, user, "3");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/ads`);
    await page.getByTestId("ads").waitFor();
    expect(await page.getByTestId("ads").locator("thead th").allInnerTexts()).toEqual([
      "Размещение",
      "Цена",
      "За оставшегося ▲",
      "Остались",
      "Вступили",
      "Переходы",
      "Просмотры",
      "За вступление",
    ]);
    expect((await rows(page)).map((r) => nb(r).split(/\n?\t|\n/))).toEqual([
      ["Cheap ads", "@cheapads", "3 000 ₽", "1 500 ₽", "2", "2", "6", "—", "1 500 ₽"],
      ["Big channel", "@bigchannel", "5 000 ₽", "1 666,67 ₽", "3", "4", "10", "20 000", "1 250 ₽"],
    ]);
    await page.getByRole("button", { name: "Всё время" }).click();
    await until(async () => (await rows(page)).length, 3);
    await screenshot(page, "miniapp-ads.ru");
    await page.getByRole("link", { name: "Big channel" }).click();
    await page.locator("canvas[data-ready='1']").waitFor();
    expect(nb(await page.getByTestId("funnel").innerText())).toContain("1 666,67 ₽ за оставшегося подписчика");
    await screenshot(page, "miniapp-ad.ru");
    expect(problems).toEqual([]);
  });

  test("Settings: the currency of prices, one tap", async () => {
    const { user, token } = await s.telegramUser(5454, "settler");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/settings`);
    const card = page.getByTestId("currency");
    await card.getByRole("button", { name: "USD", pressed: true }).waitFor();
    await card.getByRole("button", { name: "EUR" }).click();
    await card.getByRole("button", { name: "EUR", pressed: true }).waitFor();
    expect((await getUserSettings(s.deps, user.id)).currency).toBe("EUR");
    expect(problems).toEqual([]);
  });
});

describe("the bot's Ads table as a picture", () => {
  test("drawn in Russian from the message the bot sends (docs/ads-bot.ru.png)", async () => {
    const b = unitBot({}, { language_code: "ru" });
    try {
      const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice", appLanguage: "ru" });
      await placementsFixture(b.t.deps, user);
      await b.send("/ads");
      await b.press("Всё время");
      const shown = b.calls.findLast((c) => c.method === "editMessageText")!.params as { text: string };
      expect(shown.text).toContain("3. <b>VK group</b>");
      mkdirSync(join(import.meta.dir, "..", "..", "test-artifacts"), { recursive: true });
      await drawBotMessage(browser, shown, join(import.meta.dir, "..", "..", "test-artifacts", "bot-ads.ru.png"));
    } finally {
      await b.close();
    }
  });
});
