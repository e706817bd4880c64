/**
 * Settings → linking an email (code from the real SMTP sink) and a Telegram account (Login Widget),
 * the identities list, and the plan card's usage matching GET /api/account/usage. Telegram's widget
 * script cannot be fetched in tests: the page gets a stand-in served at the widget's URL that does
 * what the real one does on a successful login (evaluates `data-onauth` with the user), fed a Login
 * Widget payload signed with the server's bot token, so the server's real hash check runs.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { FAKE_BOT, FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { openPage, openSignedIn, screenshot, withBrowserApp, type Server, type TrackedPage, expectProblems } from "../helpers/browser";
import { SmtpSink } from "../helpers/smtp-sink";
import { signWidget, unixSeconds } from "../helpers/telegram-login";

let browser: Browser;
let s: Server;
const smtp = new SmtpSink();
const fake = new FakeBotApi();
await Promise.all([smtp.start(), fake.start()]);
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url, SMTP_URL: smtp.url, MAIL_FROM: "Dash <noreply@example.com>" } }),
);
afterAll(() => {
  smtp.stop();
  fake.stop();
});

const WIDGET_URL = "https://telegram.org/js/telegram-widget.js?22";

/**
 * What Telegram's widget script offers: `Telegram.Login.auth(options, callback)` opens Telegram's
 * sign-in popup; here the user confirms at once (the popup is where they would see whose account).
 */
const WIDGET_STAND_IN = `(() => {
  window.Telegram = window.Telegram || {};
  window.Telegram.Login = {
    auth(options, callback) {
      if (options.bot_id !== ${FAKE_BOT.id}) throw new Error("sign-in for an unexpected bot: " + options.bot_id);
      setTimeout(() => callback(window.__widgetUser), 0);
    },
  };
})();`;

/** Serves the stand-in at the widget's URL and gives the page `user`; returns the outside URLs fetched. */
async function withWidget(tp: TrackedPage, user: Record<string, string | number>): Promise<string[]> {
  const fetched: string[] = [];
  await tp.context.addInitScript((u) => ((window as any).__widgetUser = u), user);
  await tp.page.route("https://telegram.org/**", (route) => {
    fetched.push(route.request().url());
    return route.fulfill({ contentType: "text/javascript", body: WIDGET_STAND_IN });
  });
  return fetched;
}

/** The plan card's meters as "Label used / max" lines. */
const meters = (page: Page) =>
  page.locator(".meter .row-line").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).innerText.replace(/\s+/g, " ").trim()));

const LABELS: Record<string, string> = { links: "Links", trackers: "Trackers", secureFiles: "Secure files", storageMB: "Storage (MB)" };

/** The meters the page should show for `token`, computed from GET /api/account/usage. */
async function expectedMeters(token: string): Promise<string[]> {
  const u = (await s.request("GET", "/api/account/usage", { token })).json;
  return Object.entries(u.limits).map(([k, max]) => `${LABELS[k] ?? k} ${u.usage[k] ?? 0} / ${max}`);
}

const identities = (page: Page) =>
  page
    .getByTestId("identities")
    .locator("li")
    .evaluateAll((li) => li.map((l) => (l as HTMLElement).innerText.replace(/\s+/g, " ").trim()));

describe("settings: linking accounts", () => {
  test("a Telegram user links an email that has its own account: code by mail, accounts merged, usage counts both", async () => {
    const { token } = await s.telegramUser(7001, "tg_owner");
    await s.request("POST", "/api/links", { token, body: { url: "https://example.com/tg" } });
    const other = await s.emailUser("merge-me@example.com");
    for (const path of ["a", "b"])
      await s.request("POST", "/api/links", { token: other.token, body: { url: `https://example.com/${path}` } });

    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/settings`);
    await page.getByRole("heading", { name: "Link an email" }).waitFor();
    expect(await identities(page)).toEqual(["Telegram @tg_owner"]);
    await page.locator(".meter").first().waitFor();
    expect(await meters(page)).toEqual(await expectedMeters(token));
    expect((await meters(page))[0]).toMatch(/^Links 1 \/ \d+$/);

    await page.getByLabel("Email", { exact: true }).fill("merge-me@example.com");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByText("Enter the code sent to merge-me@example.com.").waitFor();
    const code = await smtp.codeFor("merge-me@example.com");
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.locator("#toast.show").getByText("Email linked; accounts merged").waitFor();
    await page.getByTestId("identities").getByText("merge-me@example.com").waitFor();
    expect((await identities(page)).sort()).toEqual(["Email merge-me@example.com", "Telegram @tg_owner"]);
    expect(await page.getByRole("heading", { name: "Link an email" }).count()).toBe(0);
    // the plan card follows the merge: the two links of the email account now count here
    const want = await expectedMeters(token);
    expect(want[0]).toMatch(/^Links 3 \/ \d+$/);
    await page.locator(".meter .row-line").first().getByText(/^3 \//).waitFor();
    expect(await meters(page)).toEqual(want);
    await screenshot(page, "settings-email-linked");
    expect(problems).toEqual([]);
  });

  test("a wrong link code shows the server's message and keeps the form", async () => {
    const { token } = await s.telegramUser(7002, "tg_wrong");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/settings`);
    await page.getByLabel("Email", { exact: true }).fill("wrong-code@example.com");
    await page.getByRole("button", { name: "Send code" }).click();
    const code = await smtp.codeFor("wrong-code@example.com");
    await page.getByLabel("Code").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Confirm" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Wrong code; 4 attempts left");
    expect(await page.getByLabel("Code").isVisible()).toBe(true);
    expect(await identities(page)).toEqual(["Telegram @tg_wrong"]);
    await expectProblems(problems, [
      `http 400 POST ${s.baseUrl}/api/auth/email/verify-link-otp`,
      "console: Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
  });

  test("an email user links Telegram with the Login Widget: the signed data is checked by the server", async () => {
    const { token } = await s.emailUser("widget-link@example.com");
    const tp = await openSignedIn(browser, s.baseUrl, token);
    const user = signWidget({ id: 7003, first_name: "Wendy", username: "wendy_tg", auth_date: unixSeconds(new Date()) }, FAKE_BOT_TOKEN);
    const fetched = await withWidget(tp, user);
    const { page, problems } = tp;
    await page.goto(`${s.baseUrl}/app/settings`);
    await page.getByRole("heading", { name: "Link Telegram" }).waitFor();
    expect(await identities(page)).toEqual(["Email widget-link@example.com"]);
    // nothing from telegram.org until the user asks for the widget
    expect(fetched).toEqual([]);
    await page.getByRole("button", { name: "Link a Telegram account" }).click();
    await page.getByRole("button", { name: "Log in with Telegram" }).click();
    await page.locator("#toast.show").getByText("Telegram account linked").waitFor();
    await page.getByTestId("identities").getByText("@wendy_tg").waitFor();
    expect((await identities(page)).sort()).toEqual(["Email widget-link@example.com", "Telegram @wendy_tg"]);
    expect(await page.getByRole("heading", { name: "Link Telegram" }).count()).toBe(0);
    const me = (await s.request("GET", "/api/auth/me", { token })).json;
    expect(me.user.msgrId).toBe(7003);
    expect(fetched).toEqual([WIDGET_URL]);
    await screenshot(page, "settings-telegram-linked");
    expect(problems).toEqual([]);
  });

  test("Login Widget data with a bad hash is refused with the server's message; the user stays signed in", async () => {
    const { token } = await s.emailUser("widget-bad@example.com");
    const tp = await openSignedIn(browser, s.baseUrl, token);
    const forged = {
      ...signWidget({ id: 7004, first_name: "Mallory", auth_date: unixSeconds(new Date()) }, FAKE_BOT_TOKEN),
      first_name: "Eve",
    };
    await withWidget(tp, forged);
    const { page, problems } = tp;
    await page.goto(`${s.baseUrl}/app/settings`);
    await page.getByRole("button", { name: "Link a Telegram account" }).click();
    await page.getByRole("button", { name: "Log in with Telegram" }).click();
    // shown as an error (announced), like the email form's
    await page.getByRole("alert").getByText("Invalid Telegram login data").waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/settings");
    expect(await page.evaluate(() => localStorage.getItem("dash.access"))).toBe(token);
    expect(await identities(page)).toEqual(["Email widget-bad@example.com"]);
    expect((await s.request("GET", "/api/auth/me", { token })).json.user.msgrId).toBeNull();
    // the refused link only: no token refresh, no sign-out
    await expectProblems(problems, [
      `http 401 POST ${s.baseUrl}/api/auth/msgr/link-widget`,
      "console: Failed to load resource: the server responded with a status of 401 (Unauthorized)",
    ]);
  });
});

describe("sign-in page: Telegram Login Widget", () => {
  test("signed widget data signs in and opens the links page", async () => {
    const tp = await openPage(browser, s.baseUrl);
    const fetched = await withWidget(
      tp,
      signWidget({ id: 7005, first_name: "Tina", username: "tina_tg", auth_date: unixSeconds(new Date()) }, FAKE_BOT_TOKEN),
    );
    const { page, problems } = tp;
    await page.goto(`${s.baseUrl}/app/`);
    await page.getByRole("button", { name: "Sign in with Telegram" }).click();
    await page.getByRole("button", { name: "Log in with Telegram" }).click();
    await page.getByRole("heading", { name: "Links" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/links");
    await page
      .getByRole("navigation")
      .getByRole("link", { name: /Settings/ })
      .click();
    await page.getByTestId("identities").getByText("@tina_tg").waitFor();
    expect(fetched).toEqual([WIDGET_URL]);
    expect(problems).toEqual([]);
  });
});
