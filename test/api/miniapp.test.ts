import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { miniappBuild } from "../../miniapp/build";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

describe("mini-app serving", () => {
  test("/ redirects to the app; every /app path answers the page that loads the hashed bundle", async () => {
    const root = await t.request("GET", "/");
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/app/");
    for (const path of ["/app", "/app/", "/app/links/12", "/app/settings"]) {
      const page = await t.request("GET", path);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.text).toMatch(/<script type="module" src="\/app\/assets\/main-[a-z0-9]+\.js"><\/script>/);
    }
  });

  test("the page before its script runs speaks the browser's language: title, loading line and no-JavaScript notice", async () => {
    const shell = async (acceptLanguage?: string) => {
      const res = await t.app.handle(
        new Request("http://localhost/app/links", { headers: acceptLanguage ? { "accept-language": acceptLanguage } : {} }),
      );
      expect(res.headers.get("vary")).toContain("accept-language");
      const html = await res.text();
      return {
        lang: /<html lang="(\w+)">/.exec(html)?.[1],
        title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
        loading: /<p class="boot">([^<]*)<\/p>/.exec(html)?.[1],
        noscript: /<noscript>([^<]*)<\/noscript>/.exec(html)?.[1],
      };
    };
    const russian = {
      lang: "ru",
      title: "Панель",
      loading: "Загрузка…",
      noscript: "Для панели нужен JavaScript: включите его в браузере или откройте панель из бота.",
    };
    const english = {
      lang: "en",
      title: "Dashboard",
      loading: "Loading…",
      noscript: "This dashboard needs JavaScript: turn it on in the browser, or open the dashboard from the bot.",
    };
    expect(await shell("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7")).toEqual(russian);
    expect(await shell("uk")).toEqual(russian);
    // the highest weight wins, wherever it stands
    expect(await shell("en;q=0.3, ru;q=0.8")).toEqual(russian);
    expect(await shell("de-DE,de;q=0.9,ru;q=0.5")).toEqual(english);
    expect(await shell("en-GB")).toEqual(english);
    expect(await shell()).toEqual(english);
    expect(await shell("*")).toEqual(english);
  });

  test("assets are served gzip when accepted, cached immutably; unknown assets 404; nothing from third parties", async () => {
    const page = await t.request("GET", "/app/");
    const js = /src="(\/app\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
    const css = /href="(\/app\/assets\/[^"]+\.css)"/.exec(page.text)![1]!;
    const gz = await t.app.handle(new Request(`http://localhost${js}`, { headers: { "accept-encoding": "gzip, br" } }));
    expect(gz.status).toBe(200);
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("cache-control")).toContain("immutable");
    const plain = await t.request("GET", js);
    expect(plain.headers.get("content-type")).toContain("javascript");
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer())))).toBe(plain.text);
    expect((await t.request("GET", css)).headers.get("content-type")).toContain("text/css");
    expect((await t.request("GET", "/app/assets/nope.js")).status).toBe(404);
    // the only outside script the app may load is Telegram's (Mini App script, Login Widget)
    const b = await miniappBuild();
    for (const [, a] of b.assets) {
      const urls = new TextDecoder().decode(a.body).match(/https?:\/\/[a-z0-9.-]+\.[a-z]{2,}[^"'`\s)]*/gi) ?? [];
      const fetched = urls.filter((u) => /\.(js|css|woff2?)(\?|$)/.test(u));
      expect(fetched.every((u) => u.startsWith("https://telegram.org/js/"))).toBe(true);
    }
  });

  test("first load is under 200 KB of gzipped JavaScript; charts and passkeys are separate chunks", async () => {
    const b = await miniappBuild();
    expect(b.firstLoadJsGzip).toBeLessThan(200 * 1024);
    expect(b.totalJsGzip).toBeGreaterThan(b.firstLoadJsGzip); // Chart.js is loaded on demand
  });

  test("config.json names the short URL; bot username is null without a bot", async () => {
    const r = await t.request("GET", "/app/config.json");
    expect(r.json).toEqual({ botId: null, botUsername: null, baseUrl: t.config.baseUrl, shortUrl: t.config.shortUrl });
  });
});

describe("GET /api/account/usage", () => {
  test("plan, limits and current usage of the signed-in user; 401 without a session", async () => {
    const { user, token } = await t.telegramUser();
    await t.deps.asyncDb
      .insert(t.deps.asyncDb.tables.links)
      .values([1, 2].map((i) => ({ userId: user.id, code: `code${i}`, url: "https://example.com" })));
    const r = await t.request("GET", "/api/account/usage", { token });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      subscription: { plan: "free", expiresAt: null },
      limits: t.config.planLimits.free,
      usage: { links: 2, trackers: 0, secureFiles: 0, storageMB: 0, requestStorageMB: 0 },
    });
    expect((await t.request("GET", "/api/account/usage")).status).toBe(401);
  });
});
