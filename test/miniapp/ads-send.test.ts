/**
 * The Ads page's "Send to chat": the table goes to the Telegram chat as CSV or XLSX in the table's
 * order; a placement's views curve is labelled with local dates and times and placed by time.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { openSignedIn, withBrowserApp, type Server } from "../helpers/browser";
import { placementsFixture } from "../helpers/placements-fixture";
import { placementViews } from "../../core/placements/views";

let browser: Browser;
let s: Server;
const fake = new FakeBotApi();
beforeAll(() => fake.start()); // listening before the server reads its URL
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } }),
);
afterAll(() => fake.stop());

describe("Ads in the mini-app, to the chat and over time", () => {
  test("Send to chat: the table as XLSX in the chat, the count said in words", async () => {
    const { user, token } = await s.telegramUser(5353, "buyer");
    await placementsFixture(s.deps, user, "3");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/ads`);
    await page.getByTestId("ads").waitFor();
    await page.getByLabel("Export format").selectOption("xlsx");
    await page.getByRole("button", { name: "Send to chat" }).click();
    await page.getByText("Sent 2 placements to your Telegram chat", { exact: true }).waitFor();
    const doc = await fake.waitFor("sendDocument", (c) => String(c.params.chat_id) === "5353");
    expect(Object.values(doc.files)[0]!.name).toEndWith(".xlsx");
    expect(problems).toEqual([]);
  });

  test("Send to chat keeps the table's order: by name A→Z, then Z→A after a second click", async () => {
    const { user, token } = await s.telegramUser(5355, "sorter");
    await placementsFixture(s.deps, user, "5");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/ads`);
    await page.getByTestId("ads").waitFor();
    const sentNames = async () => {
      fake.calls.length = 0;
      await page.getByRole("button", { name: "Send to chat" }).click();
      const doc = await fake.waitFor("sendDocument", (c) => String(c.params.chat_id) === "5355");
      const csv = new TextDecoder()
        .decode(Object.values(doc.files)[0]!.bytes)
        .replace(/^\uFEFF/, "")
        .split("\r\n");
      return csv.slice(1, -1).map((line) => line.split(",")[0]);
    };
    await page.getByRole("button", { name: "Placement", exact: true }).click();
    await page.getByRole("button", { name: "Placement ▲" }).waitFor();
    expect(await sentNames()).toEqual(["Big channel", "Cheap ads"]);
    await page.getByRole("button", { name: "Placement ▲" }).click();
    await page.getByRole("button", { name: "Placement ▼" }).waitFor();
    expect(await sentNames()).toEqual(["Cheap ads", "Big channel"]);
    expect(problems).toEqual([]);
  });

  test("the views curve: local date and time labels, points placed by time", async () => {
    const { user, token } = await s.telegramUser(5354, "buyer2");
    const { big } = await placementsFixture(s.deps, user, "4");
    const readings = await placementViews(s.deps, user.id, big.id);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/ads`);
    await page.getByRole("link", { name: "Big channel" }).click();
    await page.locator("canvas[data-ready='1']").waitFor();
    const labels = await page.locator("canvas table tbody th").allInnerTexts();
    const expected = await page.evaluate(
      (times) =>
        times.map((ms) =>
          new Date(ms).toLocaleString("en", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }),
        ),
      readings.map((r) => new Date(r.at).getTime()),
    );
    expect(labels).toEqual(expected);
    expect(labels.join(" ")).not.toContain("T");
    expect(await page.locator("canvas table tbody td").allInnerTexts()).toEqual(["4000", "11000", "15000", "18500", "20000"]);
    expect(problems).toEqual([]);
  });
});
