import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openSignedIn, withBrowserApp, screenshot, until, type Server, expectProblems } from "../helpers/browser";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { ingestPost } from "../../core/tracking/ingest";
import { recordBotMembership } from "../../core/channels/ownership";
import { chatOwnersTelegram } from "../helpers/chat-owners";

let browser: Browser;
let s: Server;
// Telegram vouches for who runs a chat (getChatMember) before notifications may point into it
const telegram = chatOwnersTelegram();
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: telegram.env }),
);
const receiver = new WebhookReceiver();
beforeAll(() => void receiver.start());
afterAll(async () => {
  receiver.stop();
  await telegram.stop();
});

const channel = { chatId: "-1002222222222", type: "channel" as const, title: "Crypto Daily", username: "cryptodaily" };

describe("keyword tracking in the dashboard", () => {
  test("empty list, create with every filter, validation errors, list item, edit, delete", async () => {
    const { token } = await s.emailUser("tracking@example.com");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/tracking`);
    await page.getByText("No trackers yet.").waitFor();
    expect(await page.getByTestId("tracker-limits").textContent()).toBe("0 of 2 trackers on the free plan");

    await page.getByRole("link", { name: "New tracker" }).click();
    await page.getByRole("heading", { name: "New tracker" }).waitFor();
    // a keyword of spaces passes the browser's `required` and is refused by the server, named
    await page.getByLabel("Name", { exact: true }).fill("Crypto jobs");
    await page.getByLabel("Keyword or phrase").fill("   ");
    await page.getByRole("button", { name: "Create tracker" }).click();
    const keyword = page.getByLabel("Keyword or phrase");
    await until(() => keyword.getAttribute("aria-invalid"), "true");
    expect(await page.getByRole("alert").textContent()).toBe("The keyword must not be empty.");
    expect(await keyword.evaluate((e: HTMLTextAreaElement) => e.validationMessage)).toBe("must not be empty");

    await keyword.fill("Rust developer");
    await page.getByLabel("Whole words only").check();
    await page.getByLabel("Minus words").fill("junior, intern");
    await page.getByLabel("Chats").uncheck();
    await page.getByRole("combobox", { name: "Country" }).selectOption("DE");
    await page.getByRole("combobox", { name: "Language" }).selectOption("de");
    await page.getByRole("combobox", { name: "Category" }).selectOption("tech");
    await page.getByLabel("Minimum subscribers").fill("1000");
    const include = page.getByLabel("Only these sources");
    await include.fill("@rustjobs, not a channel!");
    await page.getByRole("button", { name: "Create tracker" }).click();
    await until(() => include.getAttribute("aria-invalid"), "true");
    expect(await page.getByRole("alert").textContent()).toBe(
      'The sources to watch: "not a channel!" is not a @username, numeric chat id or t.me link.',
    );
    await include.fill("@rustjobs, @jobs_de");
    await page.getByLabel("Exclude sources").fill("@spam");
    await page.getByRole("combobox", { name: "Notify via" }).selectOption("webhook");
    // not an http(s) URL: the server refuses it and the form says which field
    await page.getByLabel("Webhook URL").fill("ftp://example.com/hook"); // a valid URL to the browser
    await page.getByLabel("Also notify when a matched post is deleted").check();
    await page.getByRole("button", { name: "Create tracker" }).click();
    const webhookUrl = page.getByLabel("Webhook URL");
    await until(() => webhookUrl.getAttribute("aria-invalid"), "true");
    expect(await page.getByRole("alert").textContent()).toBe("The webhook URL must be an http(s) URL.");
    expect(await webhookUrl.evaluate((e: HTMLInputElement) => e.validationMessage)).toBe("must be an http(s) URL");
    expect((await s.request("GET", "/api/tracking", { token })).json).toEqual([]);
    await screenshot(page, "tracker-form-error");

    await webhookUrl.fill(`${receiver.url}/hook`);
    expect(await webhookUrl.getAttribute("aria-invalid")).toBeNull(); // editing the field clears its mark
    await screenshot(page, "tracker-form");
    await page.getByRole("button", { name: "Create tracker" }).click();
    await page.getByRole("heading", { name: "Crypto jobs" }).waitFor();
    await page.getByText("No matches yet.").waitFor();
    expect(receiver.received.map((r) => r.path)).toEqual(["/hook"]); // the webhook URL was checked with a test request
    const [created] = (await s.request("GET", "/api/tracking", { token })).json;
    expect(created).toMatchObject({
      name: "Crypto jobs",
      keyword: "Rust developer",
      exact_match: true,
      minus_words: ["junior", "intern"],
      search_channels: true,
      search_chats: false,
      filter_geo: "DE",
      filter_language: "de",
      filter_category: "tech",
      filter_min_subscribers: 1000,
      include_sources: ["@rustjobs", "@jobs_de"],
      exclude_sources: ["@spam"],
      notify_via: "webhook",
      webhook_url: `${receiver.url}/hook`,
      notify_on_delete: true,
      is_enabled: true,
    });
    expect(await page.locator("main .hint").first().textContent()).toBe("“Rust developer” (whole words) · minus: junior, intern");

    // the list shows it
    await page
      .getByRole("navigation")
      .getByRole("link", { name: /Tracking/ })
      .click();
    const row = page.getByRole("link", { name: /Crypto jobs/ });
    expect(await row.textContent()).toContain("“Rust developer” · via webhook");
    expect(await page.getByTestId("tracker-limits").textContent()).toBe("1 of 2 trackers on the free plan");
    await screenshot(page, "tracking-list");

    // edit: every field is prefilled; changes are saved
    await row.click();
    await page.getByRole("link", { name: "Edit" }).click();
    await until(() => page.getByLabel("Keyword or phrase").inputValue(), "Rust developer");
    expect(await page.getByRole("combobox", { name: "Country" }).inputValue()).toBe("DE");
    expect(await page.getByRole("combobox", { name: "Language" }).inputValue()).toBe("de");
    expect(await page.getByRole("combobox", { name: "Category" }).inputValue()).toBe("tech");
    expect(await page.getByLabel("Minimum subscribers").inputValue()).toBe("1000");
    expect(await page.getByLabel("Only these sources").inputValue()).toBe("@rustjobs, @jobs_de");
    expect(await page.getByLabel("Whole words only").isChecked()).toBe(true);
    expect(await page.getByLabel("Chats").isChecked()).toBe(false);
    await page.getByLabel("Keyword or phrase").fill("Rust engineer");
    await page.getByLabel("Minus words").fill("");
    await page.getByRole("combobox", { name: "Country" }).selectOption("");
    await page.getByRole("combobox", { name: "Notify via" }).selectOption("bot");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("“Rust engineer” (whole words)").waitFor();
    expect((await s.request("GET", `/api/tracking/${created.id}`, { token })).json).toMatchObject({
      keyword: "Rust engineer",
      minus_words: null,
      filter_geo: null,
      filter_language: "de",
      notify_via: "bot",
      webhook_url: null,
    });

    // disable, then delete: back on the empty list
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("button", { name: "Enable" }).waitFor();
    expect((await s.request("GET", `/api/tracking/${created.id}`, { token })).json.is_enabled).toBe(false);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No trackers yet.").waitFor();
    expect((await s.request("GET", "/api/tracking", { token })).json).toEqual([]);
    // the only failed requests are the three refused creates (Chromium logs each failed request)
    const refused = [
      `http 400 POST ${s.baseUrl}/api/tracking`,
      "console: Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ];
    await expectProblems(problems, [...refused, ...refused, ...refused]);
  }, 60_000);

  test("matches feed: unread badges, pages, mark all read clears them", async () => {
    const { token } = await s.emailUser("feed@example.com");
    const tracker = (await s.request("POST", "/api/tracking", { token, body: { name: "Bitcoin", keyword: "bitcoin" } })).json;
    await s.request("POST", "/api/tracking", { token, body: { name: "Quiet", keyword: "nothing-matches-this" } });
    for (let i = 1; i <= 21; i++)
      await ingestPost(s.deps, { chat: channel, messageId: i, text: `Market note ${i}: Bitcoin moved again today` });

    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/tracking`);
    const bitcoin = page.getByRole("link", { name: /Bitcoin/ });
    await bitcoin.getByLabel("21 unread").waitFor();
    expect(await page.getByRole("link", { name: /Quiet/ }).locator(".badge.unread").count()).toBe(0);
    expect(await bitcoin.locator(".row-stats strong").textContent()).toBe("21");

    await bitcoin.click();
    await page.getByRole("heading", { name: "Bitcoin" }).waitFor();
    const items = page.locator(".feed > li");
    await until(() => items.count(), 20);
    expect(await items.locator(".badge.unread").count()).toBe(20);
    const newest = items.first();
    expect(await newest.locator("strong").textContent()).toBe("Crypto Daily");
    expect(await newest.locator(".snippet").textContent()).toBe("Market note 21: Bitcoin moved again today");
    expect(await newest.getByRole("link", { name: "Open post" }).getAttribute("href")).toBe("https://t.me/cryptodaily/21");
    expect(await page.locator(".pager span").textContent()).toBe("1–20 of 21");
    await screenshot(page, "matches-feed");
    await page.getByRole("button", { name: "Older" }).click();
    await until(() => items.count(), 1);
    expect(await page.locator(".pager span").textContent()).toBe("21–21 of 21");
    await page.getByRole("button", { name: "Newer" }).click();
    await until(() => items.count(), 20);

    await page.getByRole("button", { name: "Mark all read" }).click();
    await until(() => items.locator(".badge.unread").count(), 0);
    expect((await s.request("GET", `/api/tracking/${tracker.id}/matches/unread`, { token })).json).toEqual({ count: 0 });
    await page
      .getByRole("navigation")
      .getByRole("link", { name: /Tracking/ })
      .click();
    await bitcoin.waitFor();
    expect(await bitcoin.locator(".badge.unread").count()).toBe(0);
    expect(problems).toEqual([]);

    // at the plan's tracker limit the form says so
    await page.getByRole("link", { name: "New tracker" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Third");
    await page.getByLabel("Keyword or phrase").fill("third");
    await page.getByRole("button", { name: "Create tracker" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toBe("Your free plan allows 2 trackers; you have 2. Upgrade to add more.");
    await expectProblems(problems, [
      `http 403 POST ${s.baseUrl}/api/tracking`,
      "console: Failed to load resource: the server responded with a status of 403 (Forbidden)",
    ]);
  }, 60_000);
});

describe("tracker options and link placements in the dashboard", () => {
  test("query, word forms, reposts, my links, a chat of mine with a topic and hourly digests are set and prefilled; the link page lists where it was posted", async () => {
    const { token } = await s.telegramUser(77, "carol");
    await recordBotMembership(
      s.deps,
      { chatId: "-1003000000007", type: "supergroup", title: "Team room", username: null },
      { id: 77 },
      { isAdmin: true, canInvite: true },
      5,
    );
    telegram.runs("-1003000000007", 77);
    await recordBotMembership(
      s.deps,
      { chatId: "-1003000000008", type: "supergroup", title: "Read-only group", username: null },
      { id: 77 },
      { isAdmin: false, canInvite: false },
      5,
    );
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/tracking/new`);
    await page.getByRole("heading", { name: "New tracker" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Crypto");
    await page.getByRole("combobox", { name: "Syntax" }).selectOption("query");
    // a query that does not parse: the server's message names the position
    const keyword = page.getByLabel("Keyword or phrase");
    await keyword.fill("(bitcoin OR ethereum -scam");
    await page.getByRole("button", { name: "Create tracker" }).click();
    await until(() => keyword.getAttribute("aria-invalid"), "true");
    expect(await page.getByRole("alert").textContent()).toBe("The keyword: the parenthesis at position 1 is not closed.");
    await keyword.fill("(bitcoin OR ethereum) -scam");
    expect(await page.getByLabel("Whole words only").count()).toBe(0); // a query matches whole words anyway
    await page.getByLabel("Any word forms").check();
    await page.getByLabel("Skip forwards and copies").check();
    await page.getByLabel("Also posts with my short links or invite links").check();
    await page.getByRole("combobox", { name: "Notify via" }).selectOption("chat");
    const chat = page.getByRole("combobox", { name: "Chat" });
    // only the chats where the bot is an administrator can be chosen
    expect(await chat.locator("option").allTextContents()).toEqual(["Choose…", "Team room"]);
    await chat.selectOption({ label: "Team room" });
    await page.getByLabel("Forum topic").fill("7");
    await page.getByRole("combobox", { name: "How often" }).selectOption("hour");
    await screenshot(page, "tracker-form-options");
    await page.getByRole("button", { name: "Create tracker" }).click();
    await page.getByRole("heading", { name: "Crypto" }).waitFor();
    const [created] = (await s.request("GET", "/api/tracking", { token })).json;
    expect(created).toMatchObject({
      keyword: "(bitcoin OR ethereum) -scam",
      syntax: "query",
      word_forms: true,
      skip_reposts: true,
      watch_links: true,
      notify_via: "chat",
      notify_chat_id: "-1003000000007",
      notify_thread_id: 7,
      notify_every: "hour",
    });

    // edit: the options are prefilled; back to bot messages, which forgets the chat and keeps the digests
    await page.getByRole("link", { name: "Edit" }).click();
    await until(() => page.getByLabel("Keyword or phrase").inputValue(), "(bitcoin OR ethereum) -scam");
    expect(await page.getByRole("combobox", { name: "Syntax" }).inputValue()).toBe("query");
    for (const label of ["Any word forms", "Skip forwards and copies", "Also posts with my short links or invite links"])
      expect(await page.getByLabel(label).isChecked()).toBe(true);
    expect(await page.getByRole("combobox", { name: "Chat" }).inputValue()).toBe("-1003000000007");
    expect(await page.getByLabel("Forum topic").inputValue()).toBe("7");
    expect(await page.getByRole("combobox", { name: "How often" }).inputValue()).toBe("hour");
    await page.getByLabel("Skip forwards and copies").uncheck();
    await page.getByRole("combobox", { name: "Notify via" }).selectOption("bot");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("link", { name: "Edit" }).waitFor();
    await until(async () => (await s.request("GET", `/api/tracking/${created.id}`, { token })).json.notify_via, "bot");
    expect((await s.request("GET", `/api/tracking/${created.id}`, { token })).json).toMatchObject({
      skip_reposts: false,
      watch_links: true,
      notify_chat_id: null,
      notify_thread_id: null,
      notify_every: "hour",
    });

    // the tracker watches carol's links: two posts carry one (in the text, on a button); the link's page lists them
    const link = (await s.request("POST", "/api/links", { token, body: { url: "https://example.org/launch", title: "Launch" } })).json;
    await page.goto(`${s.baseUrl}/app/links/${link.id}`);
    expect(await page.getByTestId("placements").textContent()).toContain("Not seen in any channel yet");
    await ingestPost(s.deps, { chat: channel, messageId: 31, text: `We launch today: ${link.trackingUrl}` });
    await ingestPost(s.deps, { chat: channel, messageId: 32, text: "Launch party photos", carriedUrls: [{ url: link.trackingUrl }] });
    await page.reload();
    const placed = page.getByTestId("placements");
    await placed.getByRole("heading", { name: "Posted in 1 channel (2 posts)" }).waitFor();
    expect(await placed.getByRole("link").evaluateAll((as) => as.map((a) => [a.textContent, (a as HTMLAnchorElement).href]))).toEqual([
      ["Crypto Daily · post 32", "https://t.me/cryptodaily/32"],
      ["Crypto Daily · post 31", "https://t.me/cryptodaily/31"],
    ]);
    await screenshot(page, "link-placements");
    const refused = [
      `http 400 POST ${s.baseUrl}/api/tracking`,
      "console: Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ];
    await expectProblems(problems, refused);
  }, 60_000);
});
