import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openSignedIn, withBrowserApp, screenshot, type Server } from "../helpers/browser";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

describe("settings", () => {
  test("API token: created with scopes, secret shown once and copied, works with its scope, revoked", async () => {
    const { token } = await s.emailUser("tokens@example.com");
    const { page, context, problems } = await openSignedIn(browser, s.baseUrl, token);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.baseUrl });
    await page.goto(`${s.baseUrl}/app/settings`);
    await page.getByText("No API tokens.").waitFor();
    expect(await page.getByTestId("plan").textContent()).toBe("Free");

    await page.getByLabel("Token name").fill("CI");
    const scopes = page.getByRole("group", { name: "Scopes" });
    await scopes.getByRole("button", { name: "read:links", exact: true }).click();
    await scopes.getByRole("button", { name: "read:stats", exact: true }).click();
    expect(await scopes.getByRole("button", { name: "*", exact: true }).getAttribute("aria-pressed")).toBe("false");
    await page.getByLabel("Expires in days").fill("30");
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = (await page.getByTestId("token-secret").textContent())!;
    expect(secret).toMatch(/^[a-z]+_sk_[A-Za-z0-9_-]+$/);
    await page.locator(".secret").getByRole("button", { name: "Copy" }).click();
    await page.locator(".secret").getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await page.getByTestId("tokens").textContent()).toContain("read:links read:stats");
    await screenshot(page, "settings-token");

    // the secret is a working API token with exactly those scopes
    expect((await s.request("GET", "/api/links", { token: secret })).status).toBe(200);
    expect((await s.request("POST", "/api/links", { token: secret, body: { url: "https://example.com" } })).status).toBe(403);

    // shown once: after "Done" and a reload it is nowhere on the page
    await page.getByRole("button", { name: "Done" }).click();
    await page.reload();
    await page.getByTestId("tokens").waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByTestId("tokens").getByRole("button", { name: "Revoke" }).click();
    await page.getByText("No API tokens.").waitFor();
    expect((await s.request("GET", "/api/links", { token: secret })).status).toBe(401);
    expect(problems).toEqual([]);
  }, 60_000);
});
