import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openPage, screenshot, withBrowserApp, type Server } from "../helpers/browser";
import { SmtpSink } from "../helpers/smtp-sink";

let browser: Browser;
let smtp: SmtpSink;
let s: Server;
beforeAll(async () => (smtp = await new SmtpSink().start()));
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: "Dashboard <noreply@example.com>" } }),
);
afterAll(() => smtp?.stop());

describe("browser sign-in", () => {
  test("email code: the code mailed through SMTP signs in; the session survives a reload; sign out returns to sign-in", async () => {
    const { page, problems } = await openPage(browser, s.baseUrl);
    await page.goto(`${s.baseUrl}/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/");
    await screenshot(page, "signin");
    await page.getByLabel("Email").fill("carol@example.com");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByText("We sent a 6-digit code to carol@example.com.").waitFor();
    const code = await smtp.codeFor("carol@example.com");
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Links" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/links");
    // the boot placeholder is gone once the app has rendered
    expect(await page.locator(".boot").count()).toBe(0);

    await page.reload();
    await page
      .getByRole("navigation")
      .getByRole("link", { name: /Settings/ })
      .click();
    await page.getByTestId("identities").getByText("carol@example.com").waitFor();
    expect(await page.getByTestId("plan").textContent()).toBe("Free");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("dash.access"))).toBeNull();
    expect(problems).toEqual([]);
  }, 60_000);

  test("a wrong code shows the server's message and keeps the form", async () => {
    const { page } = await openPage(browser, s.baseUrl);
    await page.goto(`${s.baseUrl}/app/`);
    await page.getByLabel("Email").fill("dave@example.com");
    await page.getByRole("button", { name: "Send code" }).click();
    const code = await smtp.codeFor("dave@example.com");
    await page.getByLabel("Code").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect((await alert.textContent())!.length).toBeGreaterThan(5);
    expect(await page.getByLabel("Code").isVisible()).toBe(true);
  }, 60_000);
});
