/** The public password and secure-file pages in real Chromium, read in the browser's language (Russian and English). */
import { describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openPage, screenshot, withBrowserApp, type Server } from "../helpers/browser";
import { link as secureLink, seed } from "../api/secure/helpers";
import { t as say, type Language } from "../../core/i18n/translate";

let browser: Browser;
let s: Server;
withBrowserApp((app) => ({ server: s, browser } = app));

const ACCEPT: Record<Language, string> = { ru: "ru-RU,ru;q=0.9,en;q=0.8", en: "en-US,en;q=0.9" };

async function pageIn(lang: Language) {
  const tracked = await openPage(browser, s.baseUrl);
  await tracked.page.setExtraHTTPHeaders({ "accept-language": ACCEPT[lang] });
  return tracked;
}

describe("public pages in Chromium, in the browser's language", () => {
  for (const lang of ["ru", "en"] as const) {
    test(`${lang}: a short link's password page, a wrong password, then the destination`, async () => {
      const { token } = await s.telegramUser(lang === "ru" ? 8101 : 8102);
      const made = await s.request("POST", "/api/links", { token, body: { url: "https://shop.example/landing", password: "open sesame" } });
      expect(made.status).toBe(201);
      const { page, problems } = await pageIn(lang);
      // the destination answers here: nothing leaves the machine
      await page.route("https://shop.example/**", (route) => route.fulfill({ contentType: "text/plain", body: "landed" }));
      await page.goto(`${s.baseUrl}/${made.json.code}`);
      expect(await page.locator("html").getAttribute("lang")).toBe(lang);
      await page.getByRole("heading", { name: say(lang, "visitor-password-title") }).waitFor();
      await page.getByText(say(lang, "visitor-password-text")).waitFor();
      await page.getByLabel(say(lang, "visitor-password-label")).fill("nope");
      await page.getByRole("button", { name: say(lang, "visitor-password-open") }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: say(lang, "visitor-password-wrong") })
        .waitFor();
      if (lang === "ru") await screenshot(page, "link-password.ru");
      await page.getByLabel(say(lang, "visitor-password-label")).fill("open sesame");
      await page.getByRole("button", { name: say(lang, "visitor-password-open") }).click();
      await page.waitForURL("https://shop.example/landing");
      await page.getByText("landed").waitFor();
      // the wrong password's 401 is the page working as meant, not a problem
      expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
      await page.context().close();
    });

    test(`${lang}: the countdown page counts days in the page's language and says the opening time in the visitor's zone`, async () => {
      const { token } = await s.telegramUser(lang === "ru" ? 8301 : 8302);
      // opens in 2 days and 3 hours, at 12:00 UTC
      const startsAt = new Date(s.clock.now().getTime() + (2 * 24 + 3) * 3_600_000);
      const made = await s.request("POST", "/api/links", {
        token,
        body: { url: "https://shop.example/soon", starts_at: startsAt.toISOString() },
      });
      expect(made.status).toBe(201);
      // a visitor in Almaty (UTC+5), whose browser speaks the page's language
      const context = await browser.newContext({ timezoneId: "Asia/Almaty", locale: lang === "ru" ? "ru-RU" : "en-US" });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(e.message));
      await page.setExtraHTTPHeaders({ "accept-language": ACCEPT[lang] });
      await page.goto(`${s.baseUrl}/${made.json.code}`);
      await page.getByRole("heading", { name: say(lang, "visitor-countdown-heading") }).waitFor();
      const left = await page.locator("#left").innerText();
      expect(left).toMatch(new RegExp(`^2\u00a0${say(lang, "visitor-countdown-day-short").replace(".", "\\.")} 0[23]:\\d\\d:\\d\\d$`));
      expect(left).not.toMatch(lang === "ru" ? /\dd\b/ : /дн/);
      // the visitor's wall clock (Almaty), not the server's UTC, written the page language's way (English
      // with AM/PM: "02:42 PM"; Russian "14:42"), whatever the hour the test runs at
      const hhmm = startsAt.toLocaleTimeString(lang, { timeZone: "Asia/Almaty", hour: "2-digit", minute: "2-digit" });
      expect(hhmm).toMatch(lang === "ru" ? /^\d\d:\d\d$/ : /^\d\d:\d\d\s[AP]M$/);
      const shown = await page.locator("time").innerText();
      expect(shown).toContain(hhmm);
      expect(shown).not.toContain("UTC");
      expect(shown).toContain(
        startsAt
          .toLocaleString(lang, { timeZone: "Asia/Almaty", month: "long" })
          .replace(/^\d+\s*/, "")
          .slice(0, 3),
      );
      if (lang === "ru") await screenshot(page, "countdown.ru");
      expect(problems).toEqual([]);
      await context.close();
    });

    test(`${lang}: the secure file page shows what is shared and the button, then the text`, async () => {
      const { token, text } = await seed(s, lang === "ru" ? 8201 : 8202);
      const l = await secureLink(s, token, text.id, 1, 2);
      const { page, problems } = await pageIn(lang);
      await page.goto(l.url);
      expect(await page.locator("html").getAttribute("lang")).toBe(lang);
      await page.getByRole("heading", { name: say(lang, "secure-page-shared") }).waitFor();
      const facts = await page.locator("dl").innerText();
      for (const key of ["secure-page-kind", "secure-page-kind-text", "secure-page-name", "secure-page-until", "secure-page-views-left"])
        expect(facts).toContain(say(lang, key));
      if (lang === "ru") await screenshot(page, "secure-reveal.ru");
      await page.getByRole("button", { name: say(lang, "secure-page-show-text") }).click();
      await page.getByRole("heading", { name: "note" }).waitFor();
      await page.getByText(say(lang, "secure-page-views-left-note", { count: 1 }), { exact: false }).waitFor();
      await page.getByRole("link", { name: say(lang, "secure-page-download") }).waitFor();
      expect(await page.locator("pre").innerText()).toBe("line 1\nline <2>");
      if (lang === "ru") await screenshot(page, "secure-viewer.ru");
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
