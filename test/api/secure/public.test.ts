import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { link, local, seed } from "./helpers";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

const BROWSER = { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1" };
const view = (code: string, headers: Record<string, string> = BROWSER) => t.request("GET", `/api/secure/view/${code}`, { headers });
async function viewCount(token: string, fileId: number, id: number) {
  return (await t.request("GET", `/api/secure/links?fileId=${fileId}`, { token })).json.find((l: any) => l.id === id).viewCount as number;
}

describe("public view states (spec table)", () => {
  test("active text link → 200 with lines; every response has nosniff", async () => {
    const { token, text } = await seed(t);
    const l = await link(t, token, text.id);
    const res = await view(l.code);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.json).toMatchObject({ contentType: "text", lines: ["line 1", "line <2>"], viewsLeft: 2, name: "note" });
    const missing = await view("doesNotExist");
    expect(missing.status).toBe(404);
    expect(missing.json.error).toBe("not_found");
    expect(missing.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("file link → mimeType, fileName, fileSize, granted streamUrl and downloadUrl", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id);
    const res = await view(l.code);
    expect(res.json).toMatchObject({ contentType: "image", mimeType: "image/png", fileName: "photo.png", fileSize: 200 });
    expect(res.json.lines).toBeUndefined();
    expect(res.json.streamUrl).toStartWith(`${t.config.baseUrl}/api/secure/view/${l.code}/stream?grant=`);
    expect(res.json.downloadUrl).toStartWith(`${t.config.baseUrl}/api/secure/view/${l.code}/download?grant=`);
  });

  test("revoked → 403; restore → 200 again", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id);
    await t.request("PATCH", `/api/secure/links/${l.id}/revoke`, { token });
    const res = await view(l.code);
    expect([res.status, res.json.error]).toEqual([403, "link_revoked"]);
    await t.request("PATCH", `/api/secure/links/${l.id}/restore`, { token });
    expect((await view(l.code)).status).toBe(200);
  });

  test("folder paused → 403 for every link inside; unpaused → served again", async () => {
    const { token, folder, image, text } = await seed(t);
    const a = await link(t, token, image.id);
    const b = await link(t, token, text.id);
    await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token });
    for (const l of [a, b]) {
      const res = await view(l.code);
      expect([res.status, res.json.error]).toEqual([403, "folder_paused"]);
    }
    await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token });
    expect((await view(a.code)).status).toBe(200);
    expect((await view(b.code)).status).toBe(200);
  });

  test("expired → 410; restore does not revive it", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 2);
    t.clock.advance(2 * 3600_000 - 1);
    expect((await view(l.code)).status).toBe(200);
    t.clock.advance(1);
    const res = await view(l.code);
    expect([res.status, res.json.error]).toEqual([410, "link_expired"]);
    await t.request("PATCH", `/api/secure/links/${l.id}/revoke`, { token });
    expect((await view(l.code)).status).toBe(403);
    const restored = await t.request("PATCH", `/api/secure/links/${l.id}/restore`, { token });
    expect(restored.json).toMatchObject({ isRevoked: false, state: "expired" });
    expect((await view(l.code)).status).toBe(410);
  });

  test("view limit reached → 410; restore does not add views; unlimited links never run out", async () => {
    const { token, image, text } = await seed(t);
    const l = await link(t, token, image.id, 1, 2);
    expect((await view(l.code)).json.viewsLeft).toBe(1);
    expect((await view(l.code)).json.viewsLeft).toBe(0);
    const third = await view(l.code);
    expect([third.status, third.json.error]).toEqual([410, "views_exhausted"]);
    await t.request("PATCH", `/api/secure/links/${l.id}/revoke`, { token });
    await t.request("PATCH", `/api/secure/links/${l.id}/restore`, { token });
    expect((await view(l.code)).status).toBe(410);
    expect(await viewCount(token, image.id, l.id)).toBe(2);
    const unlimited = await link(t, token, text.id, 1, null);
    for (let i = 0; i < 5; i++) expect((await view(unlimited.code)).json.viewsLeft).toBeNull();
  });
});

describe("what counts as a view", () => {
  test("stream and download with the grant count nothing; without it each request counts (Range is no bypass)", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 3);
    const v = (await view(l.code)).json;
    for (let i = 0; i < 4; i++) {
      const s = await t.request("GET", local(v.streamUrl), { headers: { ...BROWSER, range: `bytes=${i * 10}-` } });
      expect(s.status).toBe(206);
    }
    expect((await t.request("GET", local(v.downloadUrl), { headers: BROWSER })).status).toBe(200);
    expect(await viewCount(token, image.id, l.id)).toBe(1);
    const noGrant = `/api/secure/view/${l.code}/stream`;
    expect((await t.request("GET", noGrant, { headers: { ...BROWSER, range: "bytes=0-" } })).status).toBe(206);
    expect(await viewCount(token, image.id, l.id)).toBe(2);
    expect((await t.request("GET", `/api/secure/view/${l.code}/download`, { headers: BROWSER })).status).toBe(200);
    expect(await viewCount(token, image.id, l.id)).toBe(3);
    expect((await t.request("GET", noGrant, { headers: { ...BROWSER, range: "bytes=0-" } })).status).toBe(410);
    // a forged or foreign grant counts as no grant
    expect((await t.request("GET", `${noGrant}?grant=1.99999999999.-.AAAA`, { headers: BROWSER })).status).toBe(410);
    // the first viewer's grant keeps streaming after the views are used up (it paid one)
    expect((await t.request("GET", local(v.streamUrl), { headers: { ...BROWSER, range: "bytes=100-" } })).status).toBe(206);
  });

  test("a grant re-checks revoked, paused and expired on every request", async () => {
    const { token, image, folder } = await seed(t);
    const l = await link(t, token, image.id, 4, 1);
    const v = (await view(l.code)).json;
    await t.request("PATCH", `/api/secure/links/${l.id}/revoke`, { token });
    expect((await t.request("GET", local(v.streamUrl))).status).toBe(403);
    await t.request("PATCH", `/api/secure/links/${l.id}/restore`, { token });
    await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token });
    expect((await t.request("GET", local(v.downloadUrl))).status).toBe(403);
    await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token });
    expect((await t.request("GET", local(v.streamUrl))).status).toBe(200);
    t.clock.advance(3 * 3600_000 + 1); // the grant itself has expired (3 h); the link has not
    const s = await t.request("GET", local(v.streamUrl));
    expect([s.status, s.json.error]).toEqual([410, "views_exhausted"]);
  });

  test("a grant of one link does not open another", async () => {
    const { token, image, text } = await seed(t);
    const a = await link(t, token, image.id, 1, 5);
    const b = await link(t, token, text.id, 1, 1);
    const grant = new URL((await view(a.code)).json.streamUrl).searchParams.get("grant")!;
    await view(b.code); // uses b's only view
    expect((await t.request("GET", `/api/secure/view/${b.code}/stream?grant=${encodeURIComponent(grant)}`)).status).toBe(410);
  });

  test("HEAD, link-preview bots and the owner's own previews never consume a view", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 1);
    for (const p of [
      `/api/secure/view/${l.code}`,
      `/api/secure/view/${l.code}/stream`,
      `/api/secure/view/${l.code}/download`,
      `/s/${l.code}`,
    ])
      expect((await t.request("HEAD", p, { headers: BROWSER })).status).toBe(200);
    for (const ua of [
      "TelegramBot (like TwitterBot)",
      "WhatsApp/2.23.20.0",
      "facebookexternalhit/1.1",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "Twitterbot/1.0",
      "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
      "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
      "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5",
      "Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    ]) {
      const bot = await view(l.code, { "user-agent": ua });
      expect(bot.status).toBe(200);
      expect(bot.json.streamUrl).toBeUndefined();
      expect(bot.json.lines).toBeUndefined();
      const page = await t.request("GET", `/s/${l.code}`, { headers: { "user-agent": ua } });
      expect(page.text).toContain("A secure file was shared with you");
      const pressed = await t.request("POST", `/s/${l.code}`, {
        headers: { "user-agent": ua, "content-type": "application/x-www-form-urlencoded" },
        body: "",
      });
      expect(pressed.text).toContain("Open the link in a browser");
      const s = await t.request("GET", `/api/secure/view/${l.code}/stream`, { headers: { "user-agent": ua } });
      expect([s.status, s.json.error]).toEqual([403, "preview_bot"]);
    }
    const preview = await t.request("GET", `/api/secure/view/${l.code}`, { token, headers: BROWSER });
    expect(preview.json).toMatchObject({ preview: true, fileName: "photo.png" });
    // someone else's token is just a visitor
    const other = await t.telegramUser(7, "eve");
    expect(await viewCount(token, image.id, l.id)).toBe(0);
    const visitor = await t.request("GET", `/api/secure/view/${l.code}`, { token: other.token, headers: BROWSER });
    expect(visitor.json.preview).toBe(false);
    expect(await viewCount(token, image.id, l.id)).toBe(1);
    expect((await view(l.code)).status).toBe(410);
  });
});

describe("malformed public input", () => {
  test("an over-long code is an unknown link: 404 with nosniff (an HTML page on /s/), never a 400", async () => {
    const long = "A".repeat(80);
    for (const p of [`/api/secure/view/${long}`, `/api/secure/view/${long}/stream`, `/api/secure/view/${long}/download`]) {
      const res = await t.request("GET", p, { headers: BROWSER });
      expect([p, res.status, res.json.error]).toEqual([p, 404, "not_found"]);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const page = await t.request("GET", `/s/${long}`, { headers: BROWSER });
    expect([page.status, page.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
    expect(page.text).toContain("Link not found");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("an over-long or garbled grant is treated as no grant: the request counts a view", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 3);
    const res = await t.request("GET", `/api/secure/view/${l.code}/stream?grant=${"x".repeat(300)}`, { headers: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await viewCount(token, image.id, l.id)).toBe(1);
  });

  test("a rate-limited public view still carries nosniff", async () => {
    t.close();
    t = createTestApp({ env: { RATE_LIMIT_API: "12" } });
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 10);
    let last = await view(l.code);
    for (let i = 0; i < 20 && last.status !== 429; i++) last = await view(l.code);
    expect(last.status).toBe(429);
    expect(last.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("served bytes", () => {
  test("stream: stored MIME type, restrictive CSP, nosniff, inline; download: attachment with RFC 6266 name", async () => {
    const { token, folder } = await seed(t);
    const f = (
      await t.request("POST", "/api/secure/files", {
        token,
        body: { folderId: folder.id, name: 'Отчёт "Q1"', contentType: "text", textContent: "<script>x</script>" },
      })
    ).json;
    const l = await link(t, token, f.id);
    const v = (await view(l.code)).json;
    const s = await t.request("GET", local(v.streamUrl));
    expect(s.text).toBe("<script>x</script>");
    expect(s.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(s.headers.get("x-content-type-options")).toBe("nosniff");
    expect(s.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(s.headers.get("content-disposition")).toStartWith("inline;");
    const d = await t.request("GET", local(v.downloadUrl));
    expect(d.headers.get("content-disposition")).toBe(
      `attachment; filename="_____ _Q1_.txt"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%20%22Q1%22.txt`,
    );
    expect(d.headers.get("content-security-policy")).toContain("sandbox");
  });
});
