/**
 * The public pages (short link: not found, expired, countdown, password; secure file; request link)
 * over real HTTP in the visitor's Accept-Language: Russian or English, `<html lang>`, Vary.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { t as say, type Language } from "../../core/i18n/translate";
import { link as secureLink, local, seed } from "./secure/helpers";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = createTestApp({ listen: true });
  token = (await t.telegramUser(7001)).token;
});
afterAll(() => t.close());

const ACCEPT: Record<Language, string> = { ru: "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", en: "en-GB,en;q=0.9,ru;q=0.5" };
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

async function shortLink(body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/links", { token, body });
  expect(res.status).toBe(201);
  return res.json as { code: string };
}
const open = (path: string, lang: Language, init: { method?: string; body?: string } = {}) =>
  t.request(init.method ?? "GET", path, {
    headers: {
      "accept-language": ACCEPT[lang],
      "user-agent": CHROME,
      ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: init.body,
  });

/** The page is in `lang`: its <html lang>, the Vary header, and the texts given (as the visitor reads them). */
function expectPage(res: { status: number; text: string; headers: Headers }, lang: Language, status: number, texts: string[]) {
  expect(res.status).toBe(status);
  expect(res.headers.get("vary")?.toLowerCase()).toContain("accept-language");
  expect(res.text).toContain(`<html lang="${lang}">`);
  for (const text of texts) expect(res.text).toContain(Bun.escapeHTML(text));
}

describe("public pages in the visitor's language", () => {
  test("the tag of highest weight wins, whatever its place; no header or an unknown language gets English", async () => {
    const res = await t.request("GET", "/no-such-code-1", { headers: { "accept-language": "en;q=0.3, ru;q=0.8" } });
    expectPage(res, "ru", 404, ["Ссылка не найдена"]);
    const none = await t.request("GET", "/no-such-code-1");
    expectPage(none, "en", 404, ["Link not found"]);
    const german = await t.request("GET", "/no-such-code-1", { headers: { "accept-language": "de-DE,de;q=0.9" } });
    expectPage(german, "en", 404, ["Link not found"]);
  });

  for (const lang of ["ru", "en"] as const) {
    test(`${lang}: link not found, expired (410), countdown, password (wrong one too)`, async () => {
      expectPage(await open("/nothing-here", lang), lang, 404, [say(lang, "visitor-not-found-title"), say(lang, "visitor-not-found-text")]);

      const later = await shortLink({ url: "https://ok.example/", starts_at: iso(3600_000) });
      expectPage(await open(`/${later.code}`, lang), lang, 200, [
        say(lang, "visitor-countdown-heading"),
        say(lang, "visitor-countdown-noscript"),
      ]);

      const guarded = await shortLink({ url: "https://ok.example/", password: "open sesame" });
      const form = await open(`/${guarded.code}`, lang);
      expectPage(form, lang, 200, [
        say(lang, "visitor-password-title"),
        say(lang, "visitor-password-text"),
        say(lang, "visitor-password-open"),
      ]);
      const wrong = await open(`/${guarded.code}`, lang, { method: "POST", body: "password=nope" });
      expectPage(wrong, lang, 401, [say(lang, "visitor-password-wrong")]);

      const gone = await shortLink({ url: "https://ok.example/", expires_at: iso(60_000) });
      t.clock.advance(60_000);
      expectPage(await open(`/${gone.code}`, lang), lang, 410, [say(lang, "visitor-expired-title"), say(lang, "visitor-expired-text")]);
    });

    test(`${lang}: the secure file page, its password error, the opened file and its 404`, async () => {
      const { token: owner, text } = await seed(t, lang === "ru" ? 7101 : 7102);
      const l = await secureLink(t, owner, text.id, 1, 2);
      expectPage(await open(local(l.url), lang), lang, 200, [
        say(lang, "secure-page-shared"),
        say(lang, "secure-page-views-left"),
        say(lang, "secure-page-show-text"),
        say(lang, "secure-page-counts-one"),
      ]);
      const opened = await open(local(l.url), lang, { method: "POST", body: "" });
      expectPage(opened, lang, 200, [say(lang, "secure-page-views-left-note", { count: 1 }), say(lang, "secure-page-download")]);
      expect(opened.text).toContain("line &lt;2&gt;");

      const guarded = await t.request("POST", "/api/secure/links", {
        token: owner,
        body: { fileId: text.id, expiresInHours: 1, maxViews: 3, password: "open sesame" },
      });
      const wrong = await open(local(guarded.json.url), lang, { method: "POST", body: "password=nope" });
      expectPage(wrong, lang, 401, [say(lang, "secure-page-password-invalid"), say(lang, "secure-page-password")]);

      expectPage(await open("/s/nothing-here", lang), lang, 404, [say(lang, "secure-page-404-title"), say(lang, "secure-page-404-text")]);
    }, 20_000); // two password hashes: slow on a loaded machine

    test(`${lang}: the request-link page, the page after sending, and a request link that is full`, async () => {
      const { token: owner, folder } = await seed(t, lang === "ru" ? 7201 : 7202);
      const made = await t.request("POST", "/api/secure/requests", { token: owner, body: { folderId: folder.id, maxFiles: 1 } });
      expect(made.status).toBe(201);
      const path = local(made.json.url);
      expectPage(await open(path, lang), lang, 200, [
        say(lang, "request-page-title"),
        say(lang, "request-page-intro"),
        say(lang, "request-page-items-left", { count: 1 }),
        say(lang, "request-page-send-file"),
        say(lang, "request-page-send-text"),
      ]);
      const sent = await open(`${path}/text`, lang, { method: "POST", body: "text=hello" });
      expectPage(sent, lang, 201, [say(lang, "request-page-received"), say(lang, "request-page-text-delivered")]);
      expectPage(await open(path, lang), lang, 410, [say(lang, "secure-page-410-title"), say(lang, "secure-error-request_full")]);
      expectPage(await open("/r/nothing-here", lang), lang, 404, [say(lang, "secure-error-request_not_found")]);
    });
  }

  test("the Russian pages read in Russian (a few words checked by hand)", async () => {
    const guarded = await shortLink({ url: "https://ok.example/", password: "open sesame" });
    const form = await open(`/${guarded.code}`, "ru");
    expect(form.text).toContain("Введите пароль, чтобы открыть ссылку.");
    expect(form.text).not.toContain("Enter the password");
  });
});
