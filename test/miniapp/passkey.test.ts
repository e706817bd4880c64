import { describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { openPage, openSignedIn, screenshot, until, withBrowserApp, type Server } from "../helpers/browser";
import { SoftAuthenticator } from "../helpers/soft-authenticator";

let browser: Browser;
let s: Server;
// a passkey's RP ID must be a domain name, so the app is named http://localhost:<port>
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ host: "localhost" }),
);

/** Chromium's virtual authenticator (CDP WebAuthn domain): a platform passkey store that says yes on its own. */
async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
  return { cdp, authenticatorId, credentials };
}

/** A signed-in page of a new account `email` that adds a passkey named `name` in Settings (on a virtual authenticator). */
async function withNewPasskey(email: string, name: string) {
  const { token } = await s.emailUser(email);
  const { page, context, problems } = await openSignedIn(browser, s.baseUrl, token);
  const device = await virtualAuthenticator(context, page);
  await page.goto(`${s.baseUrl}/app/settings`);
  await page.getByText("No passkeys yet.").waitFor();
  await page.getByLabel("Passkey name").fill(name);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await page.getByTestId("passkeys").getByText(name).waitFor();
  return { token, page, problems, device };
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/app/signin");
  expect(await page.evaluate(() => localStorage.getItem("dash.access"))).toBeNull();
}

/** The signed-in account's email as Settings shows it. */
async function accountEmail(page: Page) {
  await page
    .getByRole("navigation")
    .getByRole("link", { name: /Settings/ })
    .click();
  return page.getByTestId("identities").locator("li", { hasText: "Email" }).locator(".mono").textContent();
}

describe("passkeys with Chromium's virtual authenticator", () => {
  test("register in settings, sign out, sign in with email and the passkey, remove it", async () => {
    const { token, page, problems, device } = await withNewPasskey("pat@example.com", "Laptop");
    const creds = await device.credentials();
    expect(creds).toHaveLength(1);
    await screenshot(page, "settings-passkeys");

    await signOut(page);
    await page.getByLabel("Email").fill("pat@example.com");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("heading", { name: "Links" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/app/links");
    const after = await device.credentials();
    expect(after[0]!.signCount).toBeGreaterThan(creds[0]!.signCount);

    expect(await accountEmail(page)).toBe("pat@example.com");
    await page.getByTestId("passkeys").getByRole("button", { name: "Remove" }).click();
    await page.getByText("No passkeys yet.").waitFor();
    await until(async () => (await s.request("GET", "/api/auth/passkey/list", { token })).json.length, 0);
    expect(problems).toEqual([]);
  });

  test("a discoverable passkey signs in without typing an email", async () => {
    const { page, problems, device } = await withNewPasskey("quinn@example.com", "Phone");
    expect((await device.credentials()).map((c) => c.isResidentCredential)).toEqual([true]);

    await signOut(page);
    expect(await page.getByLabel("Email").inputValue()).toBe("");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("heading", { name: "Links" }).waitFor();
    expect(await accountEmail(page)).toBe("quinn@example.com");
    expect((await device.credentials())[0]!.signCount).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

/**
 * The virtual authenticator added and removed again, so the browser's prompt finds nothing and waits;
 * the server's 60 s prompt timeout is cut to 1 s, as for a user who leaves the prompt open.
 */
async function noAuthenticatorShortPrompt(context: BrowserContext, page: Page, ceremony: "login" | "register") {
  const device = await virtualAuthenticator(context, page);
  await device.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: device.authenticatorId });
  await page.route(`**/api/auth/passkey/${ceremony}/options`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), timeout: 1000 } });
  });
}

describe("passkey sign-in failures show a message on the sign-in page", () => {
  /** The sign-in page's alert text once it shows; the page stays signed out. */
  async function alertText(page: Page) {
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await page.getByRole("heading", { name: "Sign in" }).isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("dash.access"))).toBeNull();
    return alert.textContent();
  }

  test("this device has no passkey for the email's account", async () => {
    // the account has a passkey, but on another device
    const { token } = await s.emailUser("rae@example.com");
    const elsewhere = new SoftAuthenticator(s.baseUrl);
    const options = await s.request("POST", "/api/auth/passkey/register/options", { token });
    expect((await s.request("POST", "/api/auth/passkey/register/verify", { token, body: elsewhere.register(options.json) })).status).toBe(
      201,
    );

    const { page, context, problems } = await openPage(browser, s.baseUrl);
    await virtualAuthenticator(context, page);
    await page.goto(`${s.baseUrl}/app/`);
    await page.getByLabel("Email").fill("rae@example.com");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    expect(await alertText(page)).toBe(
      "No passkey was used: the prompt was cancelled or timed out, or this device has no passkey for rae@example.com. Try again, or sign in with an email code.",
    );
    await screenshot(page, "signin-passkey-error");
    // the form is still there for another try
    expect(await page.getByRole("button", { name: "Send code" }).isEnabled()).toBe(true);
    expect(problems).toEqual([]);
  });

  test("a passkey removed from the account but still on the device is refused with the server's reason", async () => {
    const { page, problems, device } = await withNewPasskey("sam@example.com", "Old laptop");
    await page.getByTestId("passkeys").getByRole("button", { name: "Remove" }).click();
    await page.getByText("No passkeys yet.").waitFor();
    expect(await device.credentials()).toHaveLength(1);

    await signOut(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    expect(await alertText(page)).toBe("This passkey is not registered here");
    const verify = `${s.baseUrl}/api/auth/passkey/login/verify`;
    expect(problems.sort()).toEqual([
      "console: Failed to load resource: the server responded with a status of 401 (Unauthorized)",
      `http 401 POST ${verify}`,
    ]);
  });

  test("with the authenticator gone the prompt waits, then says it timed out", async () => {
    const { page, context, problems } = await openPage(browser, s.baseUrl);
    await noAuthenticatorShortPrompt(context, page, "login");
    await page.goto(`${s.baseUrl}/app/`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByText("Waiting for your passkey: follow your browser's prompt.").waitFor();
    expect(await alertText(page)).toBe(
      "No passkey was used: the prompt was cancelled or timed out, or this device has no passkey for this site. Try again, or sign in with an email code.",
    );
    expect(await page.getByText("Waiting for your passkey").count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

test("a passkey registration prompt that times out says so in Settings", async () => {
  const { token } = await s.emailUser("tess@example.com");
  const { page, context, problems } = await openSignedIn(browser, s.baseUrl, token);
  await noAuthenticatorShortPrompt(context, page, "register");
  await page.goto(`${s.baseUrl}/app/settings`);
  await page.getByText("No passkeys yet.").waitFor();
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await page.getByRole("status").getByText("No passkey was created: the prompt was cancelled or timed out.").waitFor();
  expect(await page.getByText("No passkeys yet.").isVisible()).toBe(true);
  expect((await s.request("GET", "/api/auth/passkey/list", { token })).json).toEqual([]);
  expect(problems).toEqual([]);
});
