import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sign } from "@telegram-apps/init-data-node";
import type { Browser } from "playwright-core";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { openPage, screenshot, until, withBrowserApp, type Server } from "../helpers/browser";

let browser: Browser;
let s: Server;
const fake = new FakeBotApi();
beforeAll(() => fake.start()); // listening before the server reads its URL
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } }),
);
afterAll(() => fake.stop());

/** Stands in for telegram-web-app.js: the real WebApp API surface the app uses, recording calls. */
function fakeWebApp(arg: { initData: string; scheme: string; theme: Record<string, string> }) {
  const calls: string[] = [];
  const handlers: Record<string, Function[]> = {};
  const button = (name: string) => ({
    text: "",
    isVisible: false,
    isActive: true,
    isProgressVisible: false,
    setText(t: string) {
      this.text = t;
      calls.push(`${name}.setText:${t}`);
    },
    show() {
      this.isVisible = true;
      calls.push(`${name}.show`);
    },
    hide() {
      this.isVisible = false;
      calls.push(`${name}.hide`);
    },
    enable() {
      this.isActive = true;
    },
    disable() {
      this.isActive = false;
    },
    showProgress() {
      this.isProgressVisible = true;
    },
    hideProgress() {
      this.isProgressVisible = false;
    },
    onClick(fn: Function) {
      (handlers[name] ??= []).push(fn);
    },
    offClick(fn: Function) {
      handlers[name] = (handlers[name] ?? []).filter((f) => f !== fn);
    },
  });
  const main = button("MainButton");
  (window as any).__tg = {
    calls,
    click: (name: string) => (handlers[name] ?? []).forEach((f) => f()),
    // what the user sees of the MainButton: its text when shown and usable, null when hidden
    main: () => (main.isVisible ? `${main.text}${main.isActive && !main.isProgressVisible ? "" : " (busy)"}` : null),
  };
  (window as any).Telegram = {
    WebApp: {
      initData: arg.initData,
      colorScheme: arg.scheme,
      themeParams: arg.theme,
      ready: () => calls.push("ready"),
      expand: () => calls.push("expand"),
      onEvent: () => {},
      offEvent: () => {},
      BackButton: button("BackButton"),
      MainButton: main,
      HapticFeedback: { notificationOccurred: () => {} },
    },
  };
}

describe("mini-app inside Telegram", () => {
  test("signed initData signs in, Telegram theme applies, BackButton navigates, MainButton submits the forms and hides off them", async () => {
    const initData = sign(
      { user: { id: 777001, first_name: "Tess", username: "tess_tg" }, query_id: "AAE" },
      FAKE_BOT_TOKEN,
      s.clock.now(),
    );
    const theme = {
      bg_color: "#1f2933",
      secondary_bg_color: "#111820",
      text_color: "#f5f7fa",
      hint_color: "#9aa5b1",
      link_color: "#7cc4fa",
      button_color: "#e67e22",
      button_text_color: "#ffffff",
    };
    const { page, problems } = await openPage(browser, s.baseUrl, { script: fakeWebApp, arg: { initData, scheme: "dark", theme } });
    await page.goto(`${s.baseUrl}/#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=android`);

    // signed in straight away: the tabs show and no sign-in form
    await page.getByRole("navigation", { name: "Sections" }).waitFor();
    expect(await page.getByRole("heading", { name: "Sign in" }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/app/links");
    const calls = () => page.evaluate(() => (window as any).__tg.calls as string[]);
    const mainButton = () => page.evaluate(() => (window as any).__tg.main() as string | null);
    expect(await calls()).toContain("ready");

    // theme params become the page colours
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe("rgb(17, 24, 32)");
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");

    // settings shows the Telegram identity made from initData
    await page.getByRole("link", { name: /Settings/ }).click();
    await page.getByTestId("identities").getByText("@tess_tg").waitFor();
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    await screenshot(page, "miniapp-settings");

    // a form page shows BackButton and the MainButton with the page
    await page.getByRole("link", { name: /Tracking/ }).click();
    await page.getByRole("link", { name: "New tracker" }).click();
    await page.getByRole("heading", { name: "New tracker" }).waitFor();
    expect(await calls()).toEqual(expect.arrayContaining(["BackButton.show", "MainButton.setText:Create tracker", "MainButton.show"]));
    await page.getByLabel("Name", { exact: true }).waitFor();
    expect(await mainButton()).toBe("Create tracker");
    expect(await page.getByRole("button", { name: "Create tracker" }).count()).toBe(0); // no second submit button in the page

    // MainButton submits the form: empty required fields stop it (nothing created) ...
    await page.evaluate(() => (window as any).__tg.click("MainButton"));
    expect(await page.getByLabel("Name", { exact: true }).evaluate((e: HTMLInputElement) => e.validity.valueMissing)).toBe(true);
    expect(await s.deps.asyncDb.select().from(s.deps.asyncDb.tables.trackers)).toEqual([]);
    // ... and once filled it creates the tracker and opens its feed, where MainButton is hidden
    await page.getByLabel("Name", { exact: true }).fill("Rust jobs");
    await page.getByLabel("Keyword or phrase").fill("rust developer");
    await page.getByLabel("Minus words").fill("junior");
    await screenshot(page, "miniapp-tracker-form");
    await page.evaluate(() => (window as any).__tg.click("MainButton"));
    await page.getByRole("heading", { name: "Rust jobs" }).waitFor();
    expect(await s.deps.asyncDb.select().from(s.deps.asyncDb.tables.trackers)).toMatchObject([
      { name: "Rust jobs", keyword: "rust developer", minusWords: ["junior"] },
    ]);
    expect(await mainButton()).toBeNull();

    // BackButton goes back to the list, which shows the new tracker
    await page.evaluate(() => (window as any).__tg.click("BackButton"));
    await page.getByRole("heading", { name: "Keyword tracking" }).waitFor();
    await page.getByRole("link", { name: /Rust jobs/ }).waitFor();
    expect(await mainButton()).toBeNull();
    expect(await calls()).toContain("MainButton.hide");

    // leaving a form without saving hides it too
    await page.getByRole("link", { name: "New tracker" }).click();
    await until(mainButton, "Create tracker");
    await page.getByRole("link", { name: /Links/ }).click();
    await page.getByRole("heading", { name: "Links" }).waitFor();
    expect(await mainButton()).toBeNull();

    // the link form: MainButton creates the link
    await page.getByRole("link", { name: "New link" }).click();
    await until(mainButton, "Create link");
    await page.getByLabel("Destination URL").fill("https://example.com/from-telegram");
    await page.evaluate(() => (window as any).__tg.click("MainButton"));
    await page.getByTestId("tracking-url").waitFor();
    expect(await s.deps.asyncDb.select().from(s.deps.asyncDb.tables.links)).toMatchObject([{ url: "https://example.com/from-telegram" }]);
    expect(await mainButton()).toBeNull();

    // a secure folder: MainButton appears for a text note and saves it
    await page.getByRole("link", { name: /Secure/ }).click();
    await page.getByLabel("Name", { exact: true }).fill("Notes");
    await page.getByRole("button", { name: "Create folder" }).click();
    await page.getByRole("heading", { name: "Notes" }).waitFor();
    expect(await mainButton()).toBeNull(); // upload mode with no file chosen: nothing to submit
    await page.getByRole("tab", { name: "Text note" }).click();
    await until(mainButton, "Save note");
    await page.getByLabel("Name", { exact: true }).fill("Wi-Fi");
    await page.getByLabel("Text").fill("password: hunter2");
    await page.evaluate(() => (window as any).__tg.click("MainButton"));
    await page.getByRole("heading", { name: "Wi-Fi" }).waitFor();
    expect(await s.deps.asyncDb.select().from(s.deps.asyncDb.tables.secureFiles)).toMatchObject([
      { name: "Wi-Fi", textContent: "password: hunter2" },
    ]);
    expect(await mainButton()).toBeNull();
    expect(problems).toEqual([]);
  }, 60_000);
});
