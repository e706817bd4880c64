/**
 * Every main page on a 360 px wide phone: a screenshot each (test-artifacts/phone-*.png), no
 * horizontal scrolling even with long unbroken titles and URLs, and lists that show an error with a
 * retry when the API fails.
 */
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  expectProblems,
  failRequests,
  openPage,
  openSignedIn,
  requestsTo,
  withBrowserApp,
  screenshot,
  until,
  type Server,
} from "../helpers/browser";
import { recordClicks } from "../helpers/clicks";
import { ingestPost } from "../../core/tracking/ingest";
import { eq } from "drizzle-orm";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

const LONG = "https://example.com/" + "very-long-path-segment-without-any-spaces-".repeat(4) + "?utm_source=telegram&utm_campaign=autumn";
const LONG_WORD = "Supercalifragilisticexpialidocious-campaign-name-2026";

/** Seeds one of everything, with long unbroken text where users put it. */
async function seed(token: string, userId: number) {
  const link = (
    await s.deps.asyncDb
      .insert(s.deps.asyncDb.tables.links)
      .values({ userId, code: `phone${userId}`, url: LONG, title: `${LONG_WORD} link` })
      .returning()
  )[0]!;
  const now = s.clock.now().getTime();
  await recordClicks(
    s.deps,
    link,
    [1, 2, 30].map((h) => ({
      at: now - h * 3600_000,
      country: "DE",
      device: "mobile",
      browser: "Chrome",
      os: "Android",
      isUnique: true,
      isBot: false,
      ip: "203.0.113.7",
      referer: LONG,
    })),
  );
  // the list's counters are kept by the real click recorder, which recordClicks stands in for
  await s.deps.asyncDb
    .update(s.deps.asyncDb.tables.links)
    .set({ totalClicks: 3, uniqueClicks: 3 })
    .where(eq(s.deps.asyncDb.tables.links.id, link.id));
  const folder = (await s.request("POST", "/api/secure/folders", { token, body: { name: LONG_WORD, description: LONG } })).json;
  const file = (
    await s.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: `${LONG_WORD}.txt`, description: LONG, contentType: "text", textContent: "hello" },
    })
  ).json;
  await s.request("POST", "/api/secure/links", { token, body: { fileId: file.id, expiresInHours: 24, maxViews: 3 } });
  const tracker = (
    await s.request("POST", "/api/tracking", { token, body: { name: LONG_WORD, keyword: "bitcoin", minus_words: [LONG_WORD] } })
  ).json;
  const chat = {
    chatId: "-1003333333333",
    type: "channel" as const,
    title: `${LONG_WORD} channel`,
    username: "a_channel_with_a_rather_long_username",
  };
  await ingestPost(s.deps, {
    chat,
    messageId: 7,
    text: `Bitcoin ${LONG} Pneumonoultramicroscopicsilicovolcanoconiosis-and-more-words-glued`,
  });
  return { link, folder, file, tracker };
}

/** The page is no wider than the phone: nothing scrolls sideways. */
async function fitsPhone(page: Page, name: string) {
  const wide = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    // when the page is too wide, the elements past the edge say why (inside a scrolling box is fine)
    culprits:
      document.documentElement.scrollWidth <= 360
        ? []
        : [...document.querySelectorAll("body *")]
            .filter(
              (e) =>
                e.getBoundingClientRect().right > 360.5 ||
                (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible"),
            )
            .slice(0, 3)
            .map((e) => `${e.tagName.toLowerCase()}.${(e as HTMLElement).className}`),
  }));
  if (wide.scrollWidth > 360) await screenshot(page, `phone-${name}-too-wide`);
  expect({ page: name, ...wide }).toEqual({ page: name, scrollWidth: 360, culprits: [] });
  await screenshot(page, `phone-${name}`);
}

describe("mini-app on a 360 px phone", () => {
  test("every main page fits the width and is screenshotted", async () => {
    const signIn = await openPage(browser, s.baseUrl);
    await signIn.page.goto(`${s.baseUrl}/app/`);
    await signIn.page.getByRole("heading", { name: "Sign in" }).waitFor();
    await fitsPhone(signIn.page, "signin");
    expect(signIn.problems).toEqual([]);

    const { user, token } = await s.emailUser("phone@example.com");
    const { link, folder, file, tracker } = await seed(token, user.id);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    const pages: [string, string, (p: Page) => Promise<unknown>][] = [
      ["links", "/links", (p) => p.locator(".links-list > li").waitFor()],
      ["link-form", "/links/new", (p) => p.getByLabel("Destination URL").waitFor()],
      ["link-edit", `/links/${link.id}/edit`, (p) => until(() => p.getByLabel("Destination URL").inputValue(), LONG)],
      ["link-analytics", `/links/${link.id}`, (p) => p.locator('canvas[aria-label="Clicks over time"][data-ready="1"]').waitFor()],
      ["secure-folders", "/secure", (p) => p.getByRole("link", { name: new RegExp(LONG_WORD) }).waitFor()],
      ["secure-folder", `/secure/folders/${folder.id}`, (p) => p.getByRole("link", { name: new RegExp(`${LONG_WORD}.txt`) }).waitFor()],
      ["secure-file", `/secure/files/${file.id}`, (p) => p.getByRole("button", { name: "Revoke" }).waitFor()],
      ["tracking", "/tracking", (p) => p.getByLabel("1 unread").waitFor()],
      ["tracker-form", "/tracking/new", (p) => p.getByLabel("Keyword or phrase").waitFor()],
      ["matches", `/tracking/${tracker.id}`, (p) => p.locator(".feed > li").waitFor()],
      ["settings", "/settings", (p) => p.getByTestId("plan").waitFor()],
    ];
    for (const [name, path, ready] of pages) {
      await page.goto(`${s.baseUrl}/app${path}`);
      await ready(page);
      await fitsPhone(page, name);
    }
    expect(problems).toEqual([]);
  }, 90_000);

  test("lists show an error with a retry when the API fails, then recover", async () => {
    const { user, token } = await s.emailUser("errors@example.com");
    const { folder, tracker } = await seed(token, user.id);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    const lists: [string, string, string, (p: Page) => Promise<unknown>][] = [
      ["/links", "/api/links", "links", (p) => p.locator(".links-list > li").waitFor()],
      ["/secure", "/api/secure/folders", "folders", (p) => p.getByRole("link", { name: new RegExp(LONG_WORD) }).waitFor()],
      [
        `/secure/folders/${folder.id}`,
        `/api/secure/files?folderId=${folder.id}`,
        "files",
        (p) => p.getByRole("link", { name: new RegExp(`${LONG_WORD}.txt`) }).waitFor(),
      ],
      ["/tracking", "/api/tracking", "trackers", (p) => p.getByLabel("1 unread").waitFor()],
      [
        `/tracking/${tracker.id}`,
        `/api/tracking/${tracker.id}/matches?limit=20&offset=0`,
        "matches",
        (p) => p.locator(".feed > li").waitFor(),
      ],
    ];
    const expected: string[] = [];
    for (const [path, api, name, ready] of lists) {
      // the list's request, with whatever paging or search query the page adds to it
      const base = `${s.baseUrl}${api}`;
      let url = base;
      const restore = await failRequests(page, requestsTo(base), (u) => (url = u));
      await page.goto(`${s.baseUrl}/app${path}`);
      const alert = page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toBe("Something went wrong on our side. Try again");
      await fitsPhone(page, `${name}-error`);
      expected.push(
        `http 500 GET ${url}`,
        "console: Failed to load resource: the server responded with a status of 500 (Internal Server Error)",
      );
      await restore();
      await alert.getByRole("button", { name: "Try again" }).click();
      await ready(page);
      expect(await alert.count()).toBe(0);
    }

    // the service unreachable (connection refused): a readable message, not "Failed to fetch"
    await page.route(requestsTo(`${s.baseUrl}/api/links`), (r) => r.abort("connectionrefused"));
    await page.goto(`${s.baseUrl}/app/links`);
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toBe("Cannot reach the service. Check your connection. Try again");
    expected.push("console: Failed to load resource: net::ERR_CONNECTION_REFUSED");
    await expectProblems(problems, expected);
  }, 60_000);
});
