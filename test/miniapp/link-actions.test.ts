import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { openSignedIn, screenshot, withBrowserApp, type Server } from "../helpers/browser";
import { recordClicks } from "../helpers/clicks";
import { eq } from "drizzle-orm";

const PNG = [0x89, 0x50, 0x4e, 0x47];
let browser: Browser;
let s: Server;
const fake = new FakeBotApi();
beforeAll(() => fake.start()); // listening before the server reads its URL
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } }),
);
afterAll(() => fake.stop());

const toast = (page: import("playwright-core").Page) => page.locator("#toast.show");

describe("a link's page sends its summary, QR code and export to the bot chat", () => {
  test("Telegram user: summary chart, QR code and CSV export arrive in the chat; the page says so", async () => {
    const { token } = await s.telegramUser(5150, "owner");
    const created = await s.request("POST", "/api/links", { token, body: { url: "https://example.com/launch", title: "Launch" } });
    const link = (
      await s.deps.asyncDb.select().from(s.deps.asyncDb.tables.links).where(eq(s.deps.asyncDb.tables.links.id, created.json.id))
    )[0]!;
    const now = s.clock.now().getTime();
    await recordClicks(
      s.deps,
      link,
      Array.from({ length: 12 }, (_, i) => ({
        at: now - i * 3_600_000,
        ip: `198.51.100.${i}`,
        country: i % 2 ? "DE" : "US",
        device: "mobile",
        browser: "Chrome",
        os: "Android",
        isBot: false,
        isUnique: true,
      })),
    );

    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/${link.id}`);
    await page.getByRole("heading", { name: "Launch" }).waitFor();

    await page.getByRole("button", { name: "Send summary" }).click();
    await toast(page).getByText("Summary sent to your bot chat").waitFor();
    const photo = await fake.waitFor("sendPhoto", (c) => c.params.chat_id === "5150" || c.params.chat_id === 5150);
    expect([...Object.values(photo.files)[0]!.bytes.slice(0, 4)]).toEqual(PNG);

    await page.getByRole("button", { name: "QR code" }).click();
    const img = page.getByRole("img", { name: `QR code for ${s.baseUrl}/${link.code}` });
    await img.waitFor();
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(512);
    await screenshot(page, "link-actions-qr");
    await page.getByRole("button", { name: "Send to bot chat" }).click();
    await toast(page).getByText("QR code sent to your bot chat").waitFor();
    expect(fake.callsOf("sendPhoto")).toHaveLength(2);
    expect([...Object.values(fake.callsOf("sendPhoto")[1]!.files)[0]!.bytes.slice(0, 4)]).toEqual(PNG);

    await page.getByLabel("Export format").selectOption("csv");
    await page.getByRole("button", { name: "Export" }).click();
    await page.getByText("Sent 12 clicks to your Telegram chat", { exact: true }).waitFor();
    const doc = await fake.waitFor("sendDocument");
    const csv = new TextDecoder().decode(Object.values(doc.files)[0]!.bytes);
    expect(csv.split("\r\n")[0]).toBe("Date — UTC,IP,Country,City,Device,OS,Browser,Referer,Bot,Bot name,Unique,Click ID,Sub parameters");
    expect(csv.trim().split("\r\n")).toHaveLength(13); // RFC 4180 line ends
    expect(problems).toEqual([]);
  });

  test("email-only user: the page explains that a Telegram account is needed, nothing is sent", async () => {
    const before = fake.calls.length;
    const { token } = await s.emailUser("noteleg@example.com");
    const created = await s.request("POST", "/api/links", { token, body: { url: "https://example.com/x", title: "No chat" } });
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/${created.json.id}`);
    await page.getByRole("heading", { name: "No chat" }).waitFor();
    await page.getByRole("button", { name: "Send summary" }).click();
    await toast(page).getByText("Your account has no Telegram identity to send to", { exact: false }).waitFor();
    expect(await toast(page).getAttribute("class")).toContain("error");
    expect(fake.calls.slice(before).filter((c) => c.method.startsWith("send"))).toEqual([]);
    // the refused request is the only problem the page met
    expect(problems.every((p) => p.includes("409"))).toBe(true);
    expect(problems.length).toBeGreaterThan(0);
  });
});
