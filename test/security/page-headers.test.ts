/**
 * Every HTML page the service answers (one of each kind and state below) carries its kind's security headers, and runs no inline
 * script (so the Content-Security-Policy can allow scripts from the service only).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { link as secureLink, seed } from "../api/secure/helpers";

const CHROME = {
  "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
};
const PREVIEW_BOT = { "user-agent": "TelegramBot (like TwitterBot)" };
const PIXEL_HOSTS = ["connect.facebook.net", "googletagmanager.com", "analytics.tiktok.com", "mc.yandex.ru", "vk.com"];

type Page = { kind: "page" | "pixel" | "miniapp" | "docs"; name: string; status: number; headers: Headers; text: string };

let t: TestApp;
const pages: Page[] = [];

/** The directives of a Content-Security-Policy header. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

beforeAll(async () => {
  t = createTestApp({ env: { BASE_URL: "https://app.example", SHORT_URL: "https://s.example" } });
  const { token } = await t.telegramUser();
  const create = async (body: Record<string, unknown>) => (await t.request("POST", "/api/links", { token, body })).json;
  const fb = (await t.request("POST", "/api/pixels", { token, body: { name: "fb", type: "facebook", pixelId: "123456789012" } })).json;
  const ym = (await t.request("POST", "/api/pixels", { token, body: { name: "ym", type: "yandex", pixelId: "12345678" } })).json;
  const soon = await create({ url: "https://ok.example/", starts_at: new Date(t.clock.now().getTime() + 3600_000).toISOString() });
  const locked = await create({ url: "https://ok.example/", password: "pw-1234" });
  const capped = await create({ url: "https://ok.example/", max_clicks: 1 });
  const pixel = await create({ url: "https://ok.example/", pixelIds: [fb.id, ym.id] });
  const off = await create({ url: "https://ok.example/" });
  await t.request("PATCH", `/api/links/${off.id}`, { token, body: { is_active: false } });
  await t.request("GET", `/${capped.code}`, { headers: CHROME });
  const share = await seed(t, 77);
  const shared = await secureLink(t, share.token, share.image.id, 1, 1);
  const usedUp = await secureLink(t, share.token, share.text.id, 1, 1);
  const request = (
    await t.request("POST", "/api/secure/requests", { token: share.token, body: { folderId: share.folder.id, title: "Send me" } })
  ).json;

  const get = (
    kind: Page["kind"],
    name: string,
    path: string,
    init: { headers?: Record<string, string>; method?: string; body?: string } = {},
  ) =>
    t
      .request(init.method ?? "GET", path, { headers: { ...CHROME, ...init.headers }, body: init.body })
      .then((r) => pages.push({ kind, name, ...r }));
  const form = { "content-type": "application/x-www-form-urlencoded" };
  await get("miniapp", "mini-app", "/app");
  await get("miniapp", "mini-app deep route", "/app/links/12");
  await get("page", "countdown", `/${soon.code}`);
  await get("page", "password form", `/${locked.code}`);
  await get("page", "wrong password", `/${locked.code}`, { method: "POST", headers: form, body: "password=no" });
  for (let i = 0; i < 5; i++) await t.request("POST", `/${locked.code}`, { headers: form, body: "password=no" });
  await get("page", "too many passwords", `/${locked.code}`, { method: "POST", headers: form, body: "password=pw-1234" });
  await get("page", "404 unknown code", "/nosuchcode");
  await get("page", "404 disabled link", `/${off.code}`);
  await get("page", "410 used up", `/${capped.code}`);
  await get("pixel", "pixel page", `/${pixel.code}`);
  await get("page", "secure viewer for a preview bot", `/s/${shared.code}`, { headers: PREVIEW_BOT });
  await get("page", "secure viewer", `/s/${shared.code}`);
  await t.request("GET", `/api/secure/view/${usedUp.code}`, { headers: CHROME });
  await get("page", "secure viewer 410", `/s/${usedUp.code}`);
  await get("page", "secure viewer 404", "/s/nosuchcode");
  await get("page", "request page", `/r/${request.code}`);
  await get("page", "request page 404", "/r/nosuchcode");
  await get("docs", "API docs (Swagger UI)", "/api/docs");
});
afterAll(() => t.close());

describe("HTML pages", () => {
  test("the enumeration reached every page kind with the status it should have", () => {
    expect(pages.map((p) => [p.name, p.status])).toEqual([
      ["mini-app", 200],
      ["mini-app deep route", 200],
      ["countdown", 200],
      ["password form", 200],
      ["wrong password", 401],
      ["too many passwords", 429],
      ["404 unknown code", 404],
      ["404 disabled link", 404],
      ["410 used up", 410],
      ["pixel page", 200],
      ["secure viewer for a preview bot", 200],
      ["secure viewer", 200],
      ["secure viewer 410", 410],
      ["secure viewer 404", 404],
      ["request page", 200],
      ["request page 404", 404],
      ["API docs (Swagger UI)", 200],
    ]);
    for (const p of pages) expect([p.name, p.headers.get("content-type")]).toEqual([p.name, expect.stringContaining("text/html")]);
  });

  test("every page: CSP with scripts from the service only (no inline, no eval), nosniff, Referrer-Policy", () => {
    for (const p of pages) {
      const csp = p.headers.get("content-security-policy");
      expect([p.name, typeof csp]).toEqual([p.name, "string"]);
      const d = directives(csp!);
      expect([p.name, d["default-src"]]).toEqual([p.name, ["'none'"]]);
      expect([p.name, d["script-src"]?.[0]]).toEqual([p.name, "'self'"]);
      for (const banned of ["'unsafe-inline'", "'unsafe-eval'", "*", "https:", "http:", "data:"])
        expect([p.name, d["script-src"]]).not.toEqual([p.name, expect.arrayContaining([banned])]);
      expect([p.name, d["base-uri"]]).toEqual([p.name, ["'none'"]]);
      expect([p.name, p.headers.get("x-content-type-options")]).toEqual([p.name, "nosniff"]);
      expect([p.name, p.headers.get("referrer-policy")]).toEqual([
        p.name,
        p.kind === "miniapp" || p.kind === "docs" ? "strict-origin-when-cross-origin" : "no-referrer",
      ]);
      // and the page itself has no inline script for the policy to refuse (JSON data blocks never run)
      const inline = [...p.text.matchAll(/<script\b([^>]*)>/g)]
        .map((m) => m[1]!)
        .filter((attrs) => !/\bsrc=/.test(attrs) && !/type="application\/json"/.test(attrs));
      expect([p.name, inline]).toEqual([p.name, []]);
      expect([p.name, /\son[a-z]+=/i.test(p.text.replace(/<script[\s\S]*?<\/script>/g, ""))]).toEqual([p.name, false]);
    }
  });

  test("pages other than the mini-app refuse framing; the mini-app may be framed by Telegram Web only", () => {
    for (const p of pages) {
      const d = directives(p.headers.get("content-security-policy")!);
      if (p.kind === "miniapp") {
        expect(d["frame-ancestors"]).toEqual(["'self'", "https://web.telegram.org"]);
        expect(p.headers.get("x-frame-options")).toBeNull();
      } else {
        expect([p.name, d["frame-ancestors"]]).toEqual([p.name, ["'none'"]]);
        expect([p.name, p.headers.get("x-frame-options")]).toEqual([p.name, "DENY"]);
      }
    }
  });

  test("third-party scripts: Telegram's two files on the mini-app only, the pixel networks' hosts on the pixel page only (just its networks)", () => {
    for (const p of pages) {
      const scripts = directives(p.headers.get("content-security-policy")!)["script-src"]!;
      if (p.kind === "miniapp")
        expect(scripts).toEqual(["'self'", "https://telegram.org/js/telegram-web-app.js", "https://telegram.org/js/telegram-widget.js"]);
      else if (p.kind === "pixel") expect(scripts).toEqual(["'self'", "https://connect.facebook.net", "https://mc.yandex.ru"]);
      else expect([p.name, scripts]).toEqual([p.name, ["'self'"]]);
      if (p.kind !== "pixel")
        for (const host of PIXEL_HOSTS) expect([p.name, p.headers.get("content-security-policy")!.includes(host)]).toEqual([p.name, false]);
    }
  });

  test("the secure viewer may show media from BASE_URL, where its stream URLs point", () => {
    const viewer = pages.find((p) => p.name === "secure viewer")!;
    const d = directives(viewer.headers.get("content-security-policy")!);
    expect(d["media-src"]).toContain("https://app.example");
    expect(d["img-src"]).toContain("https://app.example");
  });

  test("the page scripts are served by the service as JavaScript", async () => {
    for (const path of ["/static/countdown.js", "/static/pixels.js", "/api/docs/assets/init.js"]) {
      const res = await t.request("GET", path);
      expect([path, res.status, res.headers.get("content-type")]).toEqual([path, 200, "text/javascript; charset=utf-8"]);
    }
    expect((await t.request("GET", "/static/..%2Fpages.ts")).status).toBe(404);
  });

  test("the icon every browser asks for is answered with nothing, not a 404 (a console error on every page)", async () => {
    const res = await t.request("GET", "/favicon.ico");
    expect([res.status, res.text, res.headers.get("cache-control")]).toEqual([204, "", "public, max-age=86400"]);
  });
});
