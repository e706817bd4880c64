/** The dashboard's secure section: password and view notifications on share links, the Requests list. */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openSignedIn, screenshot, withBrowserApp, type Server } from "../helpers/browser";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

const BROWSER_UA = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36" };
const view = (code: string, password?: string) =>
  fetch(`${s.baseUrl}/api/secure/view/${code}`, { headers: { ...BROWSER_UA, ...(password ? { "x-share-password": password } : {}) } });

describe("secure recipients in the dashboard", () => {
  test("a share link with a password and notifications; the password is changed and removed, notifications turned off", async () => {
    const { token } = await s.emailUser("recipients@example.com");
    const folder = (await s.request("POST", "/api/secure/folders", { token, body: { name: "Keys" } })).json;
    const file = (
      await s.request("POST", "/api/secure/files", {
        token,
        body: { folderId: folder.id, name: "Door code", contentType: "text", textContent: "4711" },
      })
    ).json;
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/secure/files/${file.id}`);
    await page.getByRole("heading", { name: "Door code" }).waitFor();
    await page.getByLabel("Password (optional)").fill("garden gate");
    await page.getByLabel("Notify me in Telegram of each view").check();
    await page.getByRole("button", { name: "Create link" }).click();
    const url = await page.getByTestId("new-secure-link").innerText();
    const code = url.split("/s/")[1]!;
    const row = page.locator(`[data-code="${code}"]`);
    await row.getByText("🔒 password").waitFor();
    await row.getByText("🔔 notifies").waitFor();
    expect(((await (await view(code)).json()) as any).error).toBe("password_required");
    expect((await view(code, "garden gate")).status).toBe(200);

    await row.getByRole("button", { name: "Remove password" }).click();
    await row.getByRole("button", { name: "Set password" }).waitFor();
    expect((await view(code)).status).toBe(200);
    await row.getByRole("button", { name: "Set password" }).click();
    await row.getByLabel("New password").fill("new secret");
    await row.getByRole("button", { name: "Save password" }).click();
    await row.getByText("🔒 password").waitFor();
    expect((await view(code, "garden gate")).status).toBe(401);
    expect((await view(code, "new secret")).status).toBe(200);

    // the box follows the saved state: it shows unchecked once the server has turned notifications off
    await row.getByLabel("Notify me of views").click();
    await row.getByText("🔔 notifies").waitFor({ state: "detached" });
    expect(await row.getByLabel("Notify me of views").isChecked()).toBe(false);
    const [saved] = (await s.request("GET", `/api/secure/links?fileId=${file.id}`, { token })).json;
    expect(saved).toMatchObject({ hasPassword: true, notifyOnView: false, viewCount: 3 });
    await screenshot(page, "secure-file-password");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("Requests: create into a folder, copy the URL, turn off and on, delete", async () => {
    const { token } = await s.emailUser("requests@example.com");
    await s.request("POST", "/api/secure/folders", { token, body: { name: "Inbox" } });
    const { page, context, problems } = await openSignedIn(browser, s.baseUrl, token);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.baseUrl });
    await page.goto(`${s.baseUrl}/app/secure`);
    await page.getByRole("link", { name: "Requests", exact: true }).click();
    await page.getByText("No request links yet.").waitFor();
    await page.getByLabel("Title").fill("Holiday photos");
    await page.getByLabel("Max items").fill("2");
    await page.getByRole("button", { name: "Create request link" }).click();
    const url = await page.getByTestId("new-request-link").innerText();
    expect(url).toMatch(new RegExp(`^${s.baseUrl}/r/\\w+$`));
    const code = url.split("/r/")[1]!;
    const row = page.locator(`[data-code="${code}"]`);
    await row.getByText("Holiday photos").waitFor();
    await row.getByText("0/2 received · into Inbox").waitFor();
    await row.getByRole("button", { name: "Copy" }).click();
    await row.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    const send = () =>
      fetch(`${s.baseUrl}/api/secure/requests/${code}/upload`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "hi" }),
      });
    await row.getByRole("button", { name: "Turn off" }).click();
    await row.getByText("turned off").waitFor();
    expect((await send()).status).toBe(410);
    await row.getByRole("button", { name: "Turn on" }).click();
    await row.getByText("open", { exact: true }).waitFor();
    expect((await send()).status).toBe(201);
    await page.reload();
    await row.getByText("1/2 received").waitFor();
    await screenshot(page, "secure-requests");
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No request links yet.").waitFor();
    expect((await send()).status).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  });
});
