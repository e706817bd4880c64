/**
 * The visitor flow's assertions, run twice: in-process through `app.handle` (visitor.test.ts) and
 * over real HTTP against the listening server (visitor-server.test.ts), whose GET/HEAD /<code>
 * take Bun's native route instead of Elysia's.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { addVerifiedDomain } from "../helpers/domains";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

export function visitorSuite(name: string, mode: { listen: boolean }) {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = createTestApp(mode);
    token = (await t.telegramUser()).token;
  });
  afterEach(() => t.close());

  async function link(body: Record<string, unknown>) {
    const res = await t.request("POST", "/api/links", { token, body });
    expect(res.status).toBe(201);
    return res.json as { id: number; code: string };
  }
  const visit = (code: string, ua = CHROME, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
    t.request(init.method ?? "GET", `/${code}${init.method === "POST" ? "" : "?utm_source=evil&url=https://evil.example"}`, {
      headers: { "user-agent": ua, ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...init.headers },
      body: init.body,
    });
  async function recorded(linkId: number) {
    await t.deps.clicks.flush();
    const { clicks } = t.deps.asyncDb.tables;
    return t.deps.asyncDb.select().from(clicks).where(eq(clicks.linkId, linkId)).orderBy(clicks.id);
  }
  const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

  describe(name, () => {
    test("302 with no-store to the target, UTM appended, query parameters cannot override it", async () => {
      const l = await link({
        url: "https://shop.example/p?ref=1&utm_source=old",
        utm_source: "tg",
        utm_medium: "bot",
        utm_campaign: "spring sale",
      });
      const res = await visit(l.code);
      expect(res.status).toBe(302);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("location")).toBe("https://shop.example/p?ref=1&utm_source=tg&utm_medium=bot&utm_campaign=spring+sale");
      expect(await recorded(l.id)).toHaveLength(1);
    });

    test("platform targets by User-Agent", async () => {
      const l = await link({
        url: "https://default.example/",
        ios_url: "https://apps.apple.com/app/x",
        android_url: "https://play.google.com/store/apps/x",
        desktop_url: "https://desktop.example/",
      });
      expect((await visit(l.code, IPHONE)).headers.get("location")).toBe("https://apps.apple.com/app/x");
      expect((await visit(l.code, ANDROID)).headers.get("location")).toBe("https://play.google.com/store/apps/x");
      expect((await visit(l.code, CHROME)).headers.get("location")).toBe("https://desktop.example/");
      const onlyIos = await link({ url: "https://default.example/", ios_url: "https://apps.apple.com/app/x" });
      expect((await visit(onlyIos.code, ANDROID)).headers.get("location")).toBe("https://default.example/");
    });

    test("countdown page before starts_at, then the redirect", async () => {
      const l = await link({ url: "https://ok.example/", title: "Drop <b>soon</b>", starts_at: iso(3600_000) });
      const res = await visit(l.code);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.text).toContain("Drop &lt;b&gt;soon&lt;/b&gt;");
      expect(res.text).not.toContain("<b>soon</b>");
      expect(res.text).toContain('name="viewport"');
      expect(res.text).toContain("3600");
      expect(await recorded(l.id)).toHaveLength(0);
      t.clock.advance(3600_000);
      expect((await visit(l.code)).status).toBe(302);
    });

    test("password: form, wrong → 401 with the form, right → redirect; attempts are limited per IP and link", async () => {
      const l = await link({ url: "https://secret.example/", password: "open sesame", title: "Members" });
      const form = await visit(l.code);
      expect(form.status).toBe(200);
      expect(form.text).toContain('<form method="post">');
      expect(form.text).toContain('name="password"');
      const wrong = await visit(l.code, CHROME, { method: "POST", body: "password=nope" });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain("Wrong password");
      expect(wrong.text).toContain('<form method="post">');
      const right = await visit(l.code, CHROME, { method: "POST", body: "password=open+sesame" });
      expect(right.status).toBe(302);
      expect(right.headers.get("location")).toBe("https://secret.example/");
      expect(await recorded(l.id)).toHaveLength(1);

      const xff = { "x-forwarded-for": "203.0.113.9" };
      const t2 = createTestApp({ ...mode, env: { TRUST_PROXY: "true" } });
      const tok = (await t2.telegramUser()).token;
      const l2 = (await t2.request("POST", "/api/links", { token: tok, body: { url: "https://secret.example/", password: "pw-1234" } }))
        .json;
      const post = (pw: string, headers = xff) =>
        t2.request("POST", `/${l2.code}`, {
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body: `password=${pw}`,
        });
      for (let i = 0; i < 5; i++) expect((await post("bad")).status).toBe(401);
      const locked = await post("pw-1234");
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await post("pw-1234", { "x-forwarded-for": "203.0.113.10" })).status).toBe(302); // another IP is not locked
      const l3 = (
        await t2.request("POST", "/api/links", { token: tok, body: { url: "https://other-secret.example/", password: "pw-1234" } })
      ).json;
      const other = await t2.request("POST", `/${l3.code}`, {
        headers: { "content-type": "application/x-www-form-urlencoded", ...xff },
        body: "password=pw-1234",
      });
      expect(other.status).toBe(302); // nor is another link from the locked IP
      expect(other.headers.get("location")).toBe("https://other-secret.example/");
      t2.clock.advance(15 * 60_000 + 1);
      expect((await post("pw-1234")).status).toBe(302);
      t2.close();
    });

    test("parallel wrong passwords cannot outrun the attempts limit", async () => {
      const l = await link({ url: "https://secret.example/", password: "open sesame" });
      const guesses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => visit(l.code, CHROME, { method: "POST", body: `password=guess${i}` })),
      );
      const statuses = guesses.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
      expect((await visit(l.code, CHROME, { method: "POST", body: "password=open+sesame" })).status).toBe(429);
    });

    test("the 410 and password pages escape the title", async () => {
      const gone = await link({ url: "https://ok.example/", expires_at: iso(60_000), title: "<img src=x onerror=alert(1)>" });
      const locked = await link({ url: "https://ok.example/", password: "pw-1234", title: `"><script>alert(2)</script>` });
      t.clock.advance(60_000);
      const g = await visit(gone.code);
      expect(g.status).toBe(410);
      expect(g.text).not.toContain("<img src=x");
      expect(g.text).toContain("&lt;img src=x onerror=alert(1)&gt;");
      for (const res of [await visit(locked.code), await visit(locked.code, CHROME, { method: "POST", body: "password=wrong" })]) {
        expect([200, 401]).toContain(res.status);
        expect(res.text).not.toContain("<script>alert(2)");
        expect(res.text).toContain("&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
      }
    });

    test("expired: 302 to expired_url when set, else a 410 page", async () => {
      const a = await link({ url: "https://ok.example/", expires_at: iso(60_000), expired_url: "https://ok.example/over" });
      const b = await link({ url: "https://ok.example/", expires_at: iso(60_000), title: "Old promo" });
      t.clock.advance(60_000);
      const ra = await visit(a.code);
      expect(ra.status).toBe(302);
      expect(ra.headers.get("location")).toBe("https://ok.example/over");
      const rb = await visit(b.code);
      expect(rb.status).toBe(410);
      expect(rb.text).toContain("Old promo");
      expect(rb.text).toContain("expired");
      expect(await recorded(a.id)).toHaveLength(0);
    });

    test("click cap: the N+1th human goes to expired_url; bots do not consume the cap", async () => {
      const l = await link({ url: "https://ok.example/", max_clicks: 2, expired_url: "https://ok.example/sold-out" });
      expect((await visit(l.code, "TelegramBot (like TwitterBot)")).headers.get("location")).toBe("https://ok.example/");
      expect((await visit(l.code)).headers.get("location")).toBe("https://ok.example/");
      expect((await visit(l.code, IPHONE)).headers.get("location")).toBe("https://ok.example/");
      expect((await visit(l.code, ANDROID)).headers.get("location")).toBe("https://ok.example/sold-out");
      const noFallback = await link({ url: "https://ok.example/", max_clicks: 1 });
      await visit(noFallback.code);
      expect((await visit(noFallback.code)).status).toBe(410);
      const rows = await recorded(l.id);
      expect(rows.map((r) => r.isBot)).toEqual([true, false, false]);
    });

    test("a click cap set on a link that had none counts the human clicks it already has", async () => {
      const l = await link({ url: "https://ok.example/" });
      await visit(l.code);
      await visit(l.code, IPHONE);
      await visit(l.code, "TelegramBot (like TwitterBot)");
      expect(await recorded(l.id)).toHaveLength(3);
      await t.request("PATCH", `/api/links/${l.id}`, { token, body: { max_clicks: 3 } });
      expect((await visit(l.code, ANDROID)).status).toBe(302);
      expect((await visit(l.code)).status).toBe(410);
      await t.request("PATCH", `/api/links/${l.id}`, { token, body: { max_clicks: 2 } });
      expect((await visit(l.code)).status).toBe(410);
      await t.request("PATCH", `/api/links/${l.id}`, { token, body: { max_clicks: 4 } });
      expect((await visit(l.code)).status).toBe(302);
      expect((await visit(l.code)).status).toBe(410);
    });

    test("inactive and unknown codes get a 404 page; reserved paths are not captured", async () => {
      const l = await link({ url: "https://ok.example/" });
      await t.request("PATCH", `/api/links/${l.id}`, { token, body: { is_active: false } });
      const off = await visit(l.code);
      expect(off.status).toBe(404);
      expect(off.headers.get("content-type")).toContain("text/html");
      expect(off.text).toContain("Link not found");
      expect((await visit("doesNotExist")).status).toBe(404);
      expect((await t.request("GET", "/healthz")).json).toEqual({ ok: true });
      const api = await t.request("GET", "/api/whatever");
      expect(api.json.error).toBe("not_found");
      // /s/<code> belongs to the secure viewer, which answers with its own page
      expect((await t.request("GET", "/s/abc")).text).toContain("There is no secure file at this address");
    });

    test("an address with a broken %-escape gets the 404 page, not a JSON error", async () => {
      for (const path of ["/%E0%A4%A", "/%zz"]) {
        const res = await t.request("GET", path, { headers: { "user-agent": CHROME } });
        expect(res.status).toBe(404);
        expect(res.headers.get("content-type")).toContain("text/html");
        expect(res.text).toContain("Link not found");
      }
    });

    test("links with pixels get a page that fires each pixel and then redirects", async () => {
      const px = [
        { name: "fb", type: "facebook", pixelId: "123456789012" },
        { name: "ga", type: "google", pixelId: "G-ABC123XYZ" },
        { name: "tt", type: "tiktok", pixelId: "C4ABCDEF12345678" },
        { name: "ym", type: "yandex", pixelId: "12345678" },
        { name: "vk", type: "vk", pixelId: "VK-RTRG-123456-AbCdE" },
      ];
      const ids = [];
      for (const p of px) ids.push((await t.request("POST", "/api/pixels", { token, body: p })).json.id);
      const l = await link({ url: 'https://ok.example/?a=1&b="x"', title: "Pixel <test>", pixelIds: ids });
      const res = await visit(l.code);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      // the page names the pixels and the target in a JSON data block that /static/pixels.js reads
      const config = JSON.parse(/<script type="application\/json" id="pixel-config">([^<]*)<\/script>/.exec(res.text)![1]!);
      expect(config).toEqual({ target: 'https://ok.example/?a=1&b="x"', pixels: px.map((p) => ({ type: p.type, pixelId: p.pixelId })) });
      expect(res.text).toContain('<script src="/static/pixels.js"></script>');
      expect(res.text.replace(/<script type="application\/json"[^>]*>[^<]*<\/script>|<script src="[^"]+"><\/script>/g, "")).not.toContain(
        "<script",
      );
      const script = await t.request("GET", "/static/pixels.js");
      expect(script.headers.get("content-type")).toContain("text/javascript");
      for (const needle of [
        'w.fbq("init", id)',
        'w.gtag("config", id)',
        "https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=",
        'w.ym(Number(id), "init", {})',
        "w.VK.Retargeting.Init(id)",
        "location.replace(config.target)",
      ])
        expect(script.text).toContain(needle);
      expect(res.text).toContain('content="2;url=https://ok.example/?a=1&amp;b=&quot;x&quot;"');
      expect(res.text).toContain("Pixel &lt;test&gt;");
      expect(await recorded(l.id)).toHaveLength(1);
      // the image beacons are the networks' no-JavaScript fallbacks: with JavaScript they would count every visit twice
      const beacons = [...res.text.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]);
      expect(beacons).toEqual([
        "https://www.facebook.com/tr?id=123456789012&amp;ev=PageView&amp;noscript=1",
        "https://mc.yandex.ru/watch/12345678",
        "https://vk.com/rtrg?p=VK-RTRG-123456-AbCdE",
      ]);
      const outsideNoscript = res.text.replace(/<noscript>[\s\S]*?<\/noscript>/g, "");
      expect(outsideNoscript).not.toContain("<img");
    });

    test("a custom domain's links answer on that host only", async () => {
      const d = { json: await addVerifiedDomain(t, token, "go.brand.example") };
      const l = await link({ url: "https://ok.example/" });
      const e = await t.request("PATCH", `/api/links/${l.id}`, { token, body: { domain_id: d.json.id } });
      expect(e.json.trackingUrl).toBe(`http://go.brand.example/${l.code}`);
      expect((await visit(l.code)).status).toBe(404);
      expect((await visit(l.code, CHROME, { headers: { host: "go.brand.example" } })).status).toBe(302);
      const plain = await link({ url: "https://ok.example/" });
      // default links answer on the service's own host (and a bare address), never on another name
      expect((await visit(plain.code, CHROME, { headers: { host: "go.other.example" } })).status).toBe(404);
      expect((await visit(plain.code, CHROME, { headers: { host: "127.0.0.1" } })).status).toBe(302);
      // the root dot names the same host: the custom domain still serves only its own links
      expect((await visit(l.code, CHROME, { headers: { host: "go.brand.example." } })).status).toBe(302);
      expect((await visit(plain.code, CHROME, { headers: { host: "go.brand.example." } })).status).toBe(404);
      expect((await visit(plain.code, CHROME, { headers: { host: "GO.BRAND.EXAMPLE..:443" } })).status).toBe(404);
      await t.request("POST", "/api/domains", { token, body: { hostname: "go.other.example" } }); // unverified: serves nothing
      expect((await visit(plain.code, CHROME, { headers: { host: "go.brand.example" } })).status).toBe(404);
      expect((await visit(plain.code, CHROME, { headers: { host: "go.other.example" } })).status).toBe(404);
    });

    test("HEAD requests redirect but count as bot clicks", async () => {
      const l = await link({ url: "https://ok.example/", max_clicks: 1 });
      const res = await t.request("HEAD", `/${l.code}`, { headers: { "user-agent": CHROME } });
      expect(res.status).toBe(302);
      expect(res.text).toBe("");
      const rows = await recorded(l.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ isBot: true, botName: "HEAD request" });
      expect((await visit(l.code)).status).toBe(302); // the cap slot was still free
    });
  });

  describe(`${name}: targets`, () => {
    test("targets with non-ASCII paths and international domain names redirect with an encoded Location", async () => {
      const cyr = await link({ url: "https://ex.example/привет?q=日本" });
      const res = await visit(cyr.code);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("https://ex.example/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82?q=%E6%97%A5%E6%9C%AC");
      const idn = await link({ url: "https://пример.рф/", ios_url: "https://ex.example/ü" });
      expect((await visit(idn.code)).headers.get("location")).toBe("https://xn--e1afmkfd.xn--p1ai/");
      expect((await visit(idn.code, IPHONE)).headers.get("location")).toBe("https://ex.example/%C3%BC");
      const expiring = await link({ url: "https://ex.example/", expires_at: iso(60_000), expired_url: "https://пример.рф/конец" });
      t.clock.advance(60_000);
      const over = await visit(expiring.code);
      expect(over.status).toBe(302);
      expect(over.headers.get("location")).toBe("https://xn--e1afmkfd.xn--p1ai/%D0%BA%D0%BE%D0%BD%D0%B5%D1%86");
    });

    test("UTM parameters are added without rewriting the query parameters already in the target", async () => {
      const l = await link({
        url: "https://ex.example/p?flag&q=a%20b&x=~y&utm_source=old#frag",
        utm_source: "tg",
        utm_campaign: "spring sale",
      });
      expect((await visit(l.code)).headers.get("location")).toBe(
        "https://ex.example/p?flag&q=a%20b&x=~y&utm_source=tg&utm_campaign=spring+sale#frag",
      );
      const bare = await link({ url: "https://ex.example/path", utm_medium: "bot" });
      expect((await visit(bare.code)).headers.get("location")).toBe("https://ex.example/path?utm_medium=bot");
    });
  });
}
