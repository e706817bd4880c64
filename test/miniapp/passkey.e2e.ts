import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchChromium, openSignedIn, screenshot, startServer, until, type Server } from "../helpers/browser";

let browser: Browser;
let s: Server;
beforeAll(async () => {
  s = startServer({ host: "localhost" }); // a passkey's RP ID must be a domain name
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

describe("passkeys with Chromium's virtual authenticator", () => {
  test("register in settings, sign out, sign in with the passkey, remove it", async () => {
    const { token } = await s.emailUser("pat@example.com");
    const { page, context, problems } = await openSignedIn(browser, s.baseUrl, token);
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    await page.goto(`${s.baseUrl}/app/settings`);
    await page.getByText("No passkeys yet.").waitFor();
    await page.getByLabel("Passkey name").fill("Laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByTestId("passkeys").getByText("Laptop").waitFor();
    const creds = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(creds.credentials).toHaveLength(1);
    await screenshot(page, "settings");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Email").fill("pat@example.com");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("heading", { name: "Links" }).waitFor();
    const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(creds.credentials[0]!.signCount);

    await page.getByRole("navigation").getByRole("link", { name: /Settings/ }).click();
    await page.getByTestId("passkeys").getByRole("button", { name: "Remove" }).click();
    await page.getByText("No passkeys yet.").waitFor();
    await until(async () => (await s.request("GET", "/api/auth/passkey/list", { token })).json.length, 0);
    expect(problems).toEqual([]);
  }, 60_000);
});
