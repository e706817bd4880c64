import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sign } from "@telegram-apps/init-data-node";
import type { Browser } from "playwright-core";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { launchChromium, openPage, screenshot, startServer, type Server } from "../helpers/browser";

let browser: Browser;
let fake: FakeBotApi;
let s: Server;

beforeAll(async () => {
  fake = new FakeBotApi();
  await fake.start();
  s = startServer({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.stop();
  await fake?.stop();
});

/** Stands in for telegram-web-app.js: the real WebApp API surface the app uses, recording calls. */
function fakeWebApp(arg: { initData: string; scheme: string; theme: Record<string, string> }) {
  const calls: string[] = [];
  const handlers: Record<string, Function[]> = {};
  const button = (name: string) => ({
    text: "",
    isVisible: false,
    setText(t: string) { this.text = t; calls.push(`${name}.setText:${t}`); },
    show() { this.isVisible = true; calls.push(`${name}.show`); },
    hide() { this.isVisible = false; calls.push(`${name}.hide`); },
    enable() {}, disable() {}, showProgress() {}, hideProgress() {},
    onClick(fn: Function) { (handlers[name] ??= []).push(fn); },
    offClick(fn: Function) { handlers[name] = (handlers[name] ?? []).filter((f) => f !== fn); },
  });
  (window as any).__tg = { calls, click: (name: string) => (handlers[name] ?? []).forEach((f) => f()) };
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
      MainButton: button("MainButton"),
      HapticFeedback: { notificationOccurred: () => {} },
    },
  };
}

describe("mini-app inside Telegram", () => {
  test("signed initData signs in, Telegram theme applies, Back and Main buttons drive navigation and forms", async () => {
    const initData = sign({ user: { id: 777001, first_name: "Tess", username: "tess_tg" }, query_id: "AAE" }, FAKE_BOT_TOKEN, s.clock.now());
    const theme = { bg_color: "#1f2933", secondary_bg_color: "#111820", text_color: "#f5f7fa", hint_color: "#9aa5b1", link_color: "#7cc4fa", button_color: "#e67e22", button_text_color: "#ffffff" };
    const { page, problems } = await openPage(browser, s.baseUrl, { script: fakeWebApp, arg: { initData, scheme: "dark", theme } });
    await page.goto(`${s.baseUrl}/#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=android`);

    // signed in straight away: the tabs show and no sign-in form
    await page.getByRole("navigation", { name: "Sections" }).waitFor();
    expect(await page.getByRole("heading", { name: "Sign in" }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/app/links");
    const calls = () => page.evaluate(() => (window as any).__tg.calls as string[]);
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

    // a form page uses MainButton and shows BackButton; BackButton goes back
    await page.getByRole("link", { name: /Tracking/ }).click();
    await page.getByRole("link", { name: "New tracker" }).click();
    await page.getByRole("heading", { name: "New tracker" }).waitFor();
    expect(await calls()).toEqual(expect.arrayContaining(["BackButton.show", "MainButton.setText:Create tracker", "MainButton.show"]));
    await page.evaluate(() => (window as any).__tg.click("BackButton"));
    await page.getByRole("heading", { name: "Keyword tracking" }).waitFor();
    expect(await calls()).toContain("MainButton.hide");
    expect(problems).toEqual([]);
  });
});
