/**
 * The link form's rules and variants editors, the analytics page's comparison of variants and
 * the links page's orphan visits, in headless Chromium against the real app.
 */
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { openSignedIn, screenshot, until, withBrowserApp, type Server, expectProblems } from "../helpers/browser";
import { insertLink, recordClicks } from "../helpers/clicks";

let browser: Browser;
let s: Server;
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { TRUST_PROXY: "true" } }),
);

const RU = "77.88.55.60";
const US = "8.8.8.8";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

async function api(token: string, path: string) {
  const r = await s.request("GET", path, { token });
  expect(r.status).toBe(200);
  return r.json;
}
/** Where the short link sends a visitor from `ip`. */
async function target(code: string, ip: string, query = "") {
  const r = await fetch(`${s.baseUrl}/${code}${query}`, { redirect: "manual", headers: { "x-forwarded-for": ip, "user-agent": CHROME } });
  expect(r.status).toBe(302);
  return r.headers.get("location");
}
/** Opens a collapsed section of the form (one with rules or variants is open already). */
async function open(page: Page, section: RegExp) {
  const details = page.locator("details.form-section", { has: page.locator("summary", { hasText: section }) });
  await details.waitFor();
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator("summary").click();
}

describe("rules and variants on the link form", () => {
  test("rules editor: add, fill, reorder and remove rules; the link then redirects by them; a bad rule shows its field", async () => {
    const { token } = await s.emailUser("rules-editor@example.com");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/new`);
    await page.getByLabel("Destination URL").fill("https://shop.example/");
    await page.getByLabel("Custom code (optional)").fill("rules-form");
    await open(page, /Redirect rules/);
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByLabel("Rule 1 Countries").fill("RU, BY");
    await page.getByLabel("Rule 1 Send to").fill("https://ru.shop.example/");
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByLabel("Rule 2 Query parameters").fill("src=mail");
    await page.getByRole("group", { name: "Rule 2 Devices" }).getByRole("button", { name: "desktop" }).click();
    await page.getByLabel("Rule 2 Send to").fill("https://mail.shop.example/");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByTestId("tracking-url").waitFor();
    expect(await target("rules-form", RU)).toBe("https://ru.shop.example/");
    expect(await target("rules-form", US, "?src=mail")).toBe("https://mail.shop.example/");
    expect(await target("rules-form", US)).toBe("https://shop.example/");
    const id = (await api(token, "/api/links")).find((l: any) => l.code === "rules-form").id;

    // edit: the rules are prefilled; rule 2 moves up, so a Russian visitor from the mailing now gets it
    await page.getByRole("link", { name: "Edit" }).click();
    await open(page, /Redirect rules \(2\)/);
    await until(() => page.getByLabel("Rule 1 Countries").inputValue(), "RU, BY");
    expect(
      await page.getByRole("group", { name: "Rule 2 Devices" }).getByRole("button", { name: "desktop" }).getAttribute("aria-pressed"),
    ).toBe("true");
    await page.getByRole("button", { name: "Move rule 2 up" }).click();
    await until(() => page.getByLabel("Rule 1 Query parameters").inputValue(), "src=mail");
    await screenshot(page, "link-form-rules");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "rules-form" }).waitFor();
    expect((await api(token, `/api/links/${id}`)).rules.map((r: any) => r.url)).toEqual([
      "https://mail.shop.example/",
      "https://ru.shop.example/",
    ]);
    expect(await target("rules-form", RU, "?src=mail")).toBe("https://mail.shop.example/");

    // a rule without conditions is refused, and the form says which
    await page.getByRole("link", { name: "Edit" }).click();
    await open(page, /Redirect rules/);
    await page.getByRole("button", { name: "Remove rule 1" }).click();
    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByLabel("Rule 2 Send to").fill("https://empty.example/");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toBe(
      "Rule 2 needs at least one condition (country, language, os, device, from, to, query).",
    );
    await page.getByRole("button", { name: "Remove rule 2" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "rules-form" }).waitFor();
    expect((await api(token, `/api/links/${id}`)).rules).toEqual([{ if: { country: ["RU", "BY"] }, url: "https://ru.shop.example/" }]);
    // the refused save is the only problem the page met
    await expectProblems(problems, [
      `http 400 PATCH ${s.baseUrl}/api/links/${id}`,
      "console: Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
  });

  test("variants editor: a split starts from the link's URL, shows each share, saves, and ends", async () => {
    const { user, token } = await s.emailUser("variants-editor@example.com");
    const link = await insertLink(s.deps, user.id, { title: "Split me", url: "https://a.example/" });
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/${link.id}/edit`);
    await open(page, /A\/B split/);
    await page.getByRole("button", { name: "Start A/B split" }).click();
    await until(() => page.getByLabel("Variant 1 URL").inputValue(), "https://a.example/");
    await page.getByLabel("Variant 2 URL").fill("https://b.example/");
    await page.getByLabel("Variant 1 weight").fill("70");
    await page.getByLabel("Variant 2 weight").fill("30");
    await until(() => page.locator(".variants-editor .share").allTextContents(), ["70%", "30%"]);
    await page.getByRole("button", { name: "Add variant" }).click();
    await page.getByLabel("Variant 3 URL").fill("https://c.example/");
    await page.getByLabel("Variant 3 weight").fill("100");
    await until(() => page.locator(".variants-editor .share").allTextContents(), ["35%", "15%", "50%"]);
    await page.getByRole("button", { name: "Remove variant 3" }).click();
    await screenshot(page, "link-form-variants");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Split me" }).waitFor();
    expect((await api(token, `/api/links/${link.id}`)).variants).toEqual([
      { url: "https://a.example/", weight: 70 },
      { url: "https://b.example/", weight: 30 },
    ]);
    const seen = new Set<string | null>();
    for (let i = 0; i < 40; i++) seen.add(await target(link.code, `198.51.100.${i}`));
    expect([...seen].sort()).toEqual(["https://a.example/", "https://b.example/"]);

    await page.getByRole("link", { name: "Edit" }).click();
    await open(page, /A\/B split \(2\)/);
    await page.getByRole("button", { name: "End split" }).first().click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Split me" }).waitFor();
    expect((await api(token, `/api/links/${link.id}`)).variants).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe("analytics and orphan visits", () => {
  test("the analytics page compares the variants side by side and counts each rule's clicks", async () => {
    const { user, token } = await s.emailUser("variants-chart@example.com");
    const link = await insertLink(s.deps, user.id, {
      title: "Compared",
      rules: JSON.stringify([{ if: { country: ["DE"] }, url: "https://de.example/" }]),
      variants: JSON.stringify([
        { url: "https://a.example/", weight: 50 },
        { url: "https://b.example/", weight: 50 },
      ]),
    });
    const now = s.clock.now().getTime();
    const click = (variant: number | null, rule: number | null, isUnique: boolean) => ({
      at: now - 3_600_000,
      variant,
      rule,
      isUnique,
      isBot: false,
      device: "desktop",
    });
    await recordClicks(s.deps, link, [
      click(0, null, true),
      click(0, null, true),
      click(0, null, false),
      click(1, null, true),
      click(null, 0, true),
    ]);
    const stats = await api(token, `/api/links/${link.id}/stats`);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/${link.id}`);
    await page.getByRole("heading", { name: "A/B variants" }).waitFor();
    const rows = page.locator('canvas[aria-label="Clicks and unique clicks by variant"] tbody tr');
    await until(
      () => rows.evaluateAll((rs) => rs.map((r) => [...r.children].map((c) => c.textContent))),
      [
        ["A", "3", "2"],
        ["B", "1", "1"],
      ],
    );
    expect(stats.variants).toEqual([
      { index: 0, url: "https://a.example/", clicks: 3, uniqueClicks: 2, conversions: 0, conversionRate: 0 },
      { index: 1, url: "https://b.example/", clicks: 1, uniqueClicks: 1, conversions: 0, conversionRate: 0 },
    ]);
    expect(
      await page.locator("table.variants tbody tr").evaluateAll((rs) => rs.map((r) => [...r.children].map((c) => c.textContent))),
    ).toEqual([
      ["A", "https://a.example/", "3", "2", "75%"],
      ["B", "https://b.example/", "1", "1", "25%"],
    ]);
    expect(await page.locator(".rules-card li").allTextContents()).toEqual(["Rule 11"]);
    await page.locator('canvas[aria-label="Clicks and unique clicks by variant"][data-ready="1"]').waitFor();
    await screenshot(page, "analytics-variants");
    expect(problems).toEqual([]);
  });

  test("the links page lists visits to the user's paused links", async () => {
    const { user, token } = await s.emailUser("orphans@example.com");
    const paused = await insertLink(s.deps, user.id, { title: "Paused", code: "paused-ui", isActive: false });
    for (let i = 0; i < 3; i++) expect((await fetch(`${s.baseUrl}/${paused.code}`)).status).toBe(404);
    const { page } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links`);
    await page.getByRole("heading", { name: "Visits to dead codes" }).waitFor();
    await until(
      () =>
        page
          .locator("table.orphans tbody tr td")
          .allTextContents()
          .then((c) => c.slice(0, 2)),
      ["paused-ui", "3"],
    );
    expect(await page.getByTestId("orphan-total").textContent()).toBe("3");
  });
});
