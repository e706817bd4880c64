/**
 * Secure sharing's copy and delete actions (with their confirmations), and the loading errors of
 * detail pages: a link, a secure file, a folder and one analytics chart answered with a 500 or a 404.
 */
import { describe, expect, test } from "bun:test";
import type { Browser, Dialog, Page } from "playwright-core";
import { failRequests, openSignedIn, screenshot, withBrowserApp, type Server, expectProblems } from "../helpers/browser";
import { insertLink } from "../helpers/clicks";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

const FAILED = "console: Failed to load resource: the server responded with a status of 500 (Internal Server Error)";

async function seedFile(token: string) {
  const folder = (await s.request("POST", "/api/secure/folders", { token, body: { name: "Contracts" } })).json;
  const file = (
    await s.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: "terms.txt", contentType: "text", textContent: "hello" },
    })
  ).json;
  const link = (await s.request("POST", "/api/secure/links", { token, body: { fileId: file.id, expiresInHours: 24 } })).json;
  return { folder, file, link };
}

/** Answers every confirm() with `answers` in turn (true = OK) and records the questions. */
function confirmWith(page: Page, answers: boolean[]): string[] {
  const asked: string[] = [];
  page.removeAllListeners("dialog");
  page.on("dialog", (d: Dialog) => {
    asked.push(d.message());
    void (answers.shift() ? d.accept() : d.dismiss());
  });
  return asked;
}

/** Makes `url` (exactly, query included) answer 500 until the returned function is called. */
const fail = (page: Page, url: string) => failRequests(page, (u) => u.href === url);

describe("secure sharing: copy and delete", () => {
  test("a share link is copied; deleting a link, a file and a folder asks first and a refusal keeps them", async () => {
    const { token } = await s.emailUser("secure-actions@example.com");
    const { folder, file, link } = await seedFile(token);
    const { page, context, problems } = await openSignedIn(browser, s.baseUrl, token);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.baseUrl });
    const asked = confirmWith(page, [false, true, false, true, true]);

    await page.goto(`${s.baseUrl}/app/secure/files/${file.id}`);
    const row = page.locator(`[data-code="${link.code}"]`);
    await row.getByRole("button", { name: "Copy" }).click();
    await row.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link.url);

    // the link: refused once, then deleted
    await row.getByRole("button", { name: "Delete" }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No links yet.", { exact: false }).waitFor();
    expect((await s.request("GET", `/api/secure/links?fileId=${file.id}`, { token })).json).toEqual([]);

    // the file: refused once, then deleted, back in its folder
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    expect(new URL(page.url()).pathname).toBe(`/app/secure/files/${file.id}`);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL(`${s.baseUrl}/app/secure/folders/${folder.id}`);
    await page.getByText("No files yet. Add a note or upload a file.").waitFor();
    expect((await s.request("GET", `/api/secure/files/${file.id}`, { token })).status).toBe(404);

    // the folder
    await page.getByRole("button", { name: "Delete folder" }).click();
    await page.waitForURL(`${s.baseUrl}/app/secure`);
    await page.locator("#toast.show").getByText("Folder deleted").waitFor();
    expect(await page.getByRole("link", { name: /Contracts/ }).count()).toBe(0);
    expect((await s.request("GET", `/api/secure/folders/${folder.id}`, { token })).status).toBe(404);
    expect(asked).toEqual([
      "Delete this link?",
      "Delete this link?",
      "Delete this file and its links?",
      "Delete this file and its links?",
      "Delete this folder with all its files and links?",
    ]);
    expect(problems).toEqual([]);
  });
});

describe("detail pages: loading, errors, not found", () => {
  test("a link, a file, a folder, the edit forms and one chart answered with a 500 show the error and Try again, which recovers", async () => {
    const { user, token } = await s.emailUser("detail-errors@example.com");
    const link = await insertLink(s.deps, user.id, { title: "Detail page" });
    const { folder, file } = await seedFile(token);
    const tracker = (await s.request("POST", "/api/tracking", { token, body: { name: "Prices", keyword: "bitcoin" } })).json;
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    const expected: string[] = [];
    const fieldValue = (p: Page, label: string) => p.getByLabel(label, { exact: true }).inputValue();
    const pages: [string, string, (p: Page) => Promise<unknown>][] = [
      [`/links/${link.id}`, `/api/links/${link.id}`, (p) => p.getByRole("heading", { name: "Detail page" }).waitFor()],
      [`/secure/files/${file.id}`, `/api/secure/files/${file.id}`, (p) => p.getByRole("heading", { name: "terms.txt" }).waitFor()],
      [`/secure/folders/${folder.id}`, `/api/secure/folders/${folder.id}`, (p) => p.getByRole("heading", { name: "Contracts" }).waitFor()],
      // edit forms: the error instead of an empty form, then the form filled in
      [`/links/${link.id}/edit`, `/api/links/${link.id}`, async (p) => expect(await fieldValue(p, "Title")).toBe("Detail page")],
      [`/tracking/${tracker.id}/edit`, `/api/tracking/${tracker.id}`, async (p) => expect(await fieldValue(p, "Name")).toBe("Prices")],
    ];
    for (const [path, api, ready] of pages) {
      const restore = await fail(page, `${s.baseUrl}${api}`);
      await page.goto(`${s.baseUrl}/app${path}`);
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toBe("Something went wrong on our side. Try again");
      // no form to fill in for something that did not load (an edit form, a file's "New share link")
      if (path.endsWith("/edit") || path.startsWith("/secure/files/")) expect(await page.locator("form input").count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
      expected.push(`http 500 GET ${s.baseUrl}${api}`, FAILED);
      if (api.startsWith("/api/links/")) await screenshot(page, "phone-link-error");
      await restore();
      await alert.getByRole("button", { name: "Try again" }).click();
      await ready(page);
      expect(await alert.count()).toBe(0);
    }

    // one failing chart: its card shows the error, the rest of the analytics still draws
    const geo = `${s.baseUrl}/api/links/${link.id}/geo?period=30d`;
    const restore = await fail(page, geo);
    await page.goto(`${s.baseUrl}/app/links/${link.id}`);
    const card = page.locator(".card", { has: page.getByRole("heading", { name: "Countries" }) });
    await card.getByRole("alert").waitFor();
    await page.getByText("No clicks in this period.").waitFor();
    expect(await page.getByRole("alert").count()).toBe(1);
    expected.push(`http 500 GET ${geo}`, FAILED);
    await restore();
    await card.getByRole("button", { name: "Try again" }).click();
    await card.getByText("No countries yet.").waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    await expectProblems(problems, expected);
  });

  test("while a detail page's data is on its way it shows a loading state, then the page", async () => {
    const { user, token } = await s.emailUser("loading@example.com");
    const link = await insertLink(s.deps, user.id, { title: "Slow link" });
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const requested = new Promise<void>((r) => (asked = r));
    await page.route(
      (u) => u.href === `${s.baseUrl}/api/links/${link.id}`,
      async (route) => {
        asked();
        await held;
        await route.continue();
      },
    );
    await page.goto(`${s.baseUrl}/app/links/${link.id}`);
    await requested;
    const loading = page.locator("section > .state.loading[role=status]");
    await loading.waitFor();
    expect(await loading.textContent()).toBe("Loading…");
    expect(await page.getByRole("heading", { name: "Slow link" }).count()).toBe(0);
    await screenshot(page, "phone-link-loading");
    release();
    await page.getByRole("heading", { name: "Slow link" }).waitFor();
    // the page's own loading state is gone (the analytics cards load on their own)
    expect(await page.locator("section > .state.loading").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  test("a link that does not exist (or is someone else's) says so instead of a blank page", async () => {
    const { token } = await s.emailUser("not-found@example.com");
    const other = await s.emailUser("owner-elsewhere@example.com");
    const theirs = await insertLink(s.deps, other.user.id, { title: "Not yours" });
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/${theirs.id}`);
    const alert = page.getByRole("alert");
    await alert.waitFor();
    const refused = await s.request("GET", `/api/links/${theirs.id}`, { token });
    expect(refused.status).toBe(404);
    expect(await alert.textContent()).toContain(refused.json.message);
    expect(await page.getByText("Not yours").count()).toBe(0);
    await screenshot(page, "phone-link-not-found");
    await expectProblems(problems, [
      `http 404 GET ${s.baseUrl}/api/links/${theirs.id}`,
      "console: Failed to load resource: the server responded with a status of 404 (Not Found)",
    ]);
  });
});
