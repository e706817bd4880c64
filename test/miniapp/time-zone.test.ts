/**
 * The mini-app shows and reads times in the account's time zone (Settings, the bot's), not the
 * browser's: here a browser in New York for an account set to Almaty (UTC+5), in headless Chromium.
 */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { withBrowserApp, type Server } from "../helpers/browser";
import { link as secureLink, seed } from "../api/secure/helpers";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

const ZONE = "Asia/Almaty";

/** A page signed in with `token`, in a browser whose own clock is New York's. */
async function inNewYork(token: string, locale = "en-US") {
  const context = await browser.newContext({ timezoneId: "America/New_York", locale });
  context.setDefaultTimeout(5000);
  await context.addInitScript((t: string) => {
    if (!localStorage.getItem("dash.access")) localStorage.setItem("dash.access", t);
  }, token);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  return { page, problems, context };
}

describe("times in the mini-app, in the account's zone", () => {
  test("a link's start and expiry are shown and read on Almaty's wall clock, whatever the browser's", async () => {
    const { token } = await s.telegramUser(8401, "almaty");
    expect((await s.request("PATCH", "/api/settings", { token, body: { time_zone: ZONE } })).status).toBe(200);
    // tomorrow at 07:00 UTC: 12:00 in Almaty, 02:00 in New York
    const day = new Date(s.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const made = await s.request("POST", "/api/links", {
      token,
      body: { url: "https://shop.example/tz", title: "Zone", expires_at: `${day}T07:00:00Z` },
    });
    expect(made.status).toBe(201);
    const { page, problems, context } = await inNewYork(token);
    await page.goto(`${s.baseUrl}/app/links/${made.json.id}/edit`);
    await page.getByText("Schedule and limits").click();
    const expires = page.getByLabel("Expires at");
    await expires.waitFor();
    await page.waitForFunction(() => (document.querySelector('input[name="expires_at"]') as HTMLInputElement | null)?.value !== "");
    expect(await expires.inputValue()).toBe(`${day}T12:00`);
    // a time typed is read on the same clock: 13:30 in Almaty is 08:30 UTC
    await expires.fill(`${day}T13:30`);
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`${s.baseUrl}/app/links/${made.json.id}`);
    const saved = await s.request("GET", `/api/links/${made.json.id}`, { token });
    expect(saved.json.expires_at).toBe(`${day}T08:30:00.000Z`);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("a share link's expiry on a file's page is Almaty's hour, in the reader's language", async () => {
    const { token, text } = await seed(s, 8402);
    expect((await s.request("PATCH", "/api/settings", { token, body: { time_zone: ZONE, language: "ru" } })).status).toBe(200);
    await secureLink(s, token, text.id, 30, 2);
    const [share] = (await s.request("GET", `/api/secure/links?fileId=${text.id}`, { token })).json as { expiresAt: string }[];
    const at = new Date(share!.expiresAt);
    const wall = (zone: string) => at.toLocaleTimeString("ru", { hour: "2-digit", minute: "2-digit", timeZone: zone });
    const { page, problems, context } = await inNewYork(token);
    await page.goto(`${s.baseUrl}/app/secure/files/${text.id}`);
    await page.getByText(wall(ZONE), { exact: false }).first().waitFor();
    const body = await page.locator("main").innerText();
    expect(body).toContain(wall(ZONE));
    expect(body).not.toContain(wall("America/New_York"));
    expect(problems).toEqual([]);
    await context.close();
  });
});
