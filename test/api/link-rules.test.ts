import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";

const CHROME_WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const SAFARI_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
/** addresses the shipped GeoIP database places in Germany, the United States and Russia */
const DE = "81.169.145.1";
const US = "8.8.8.8";
const RU = "77.88.55.60";

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = createTestApp({ env: { TRUST_PROXY: "true" } });
  token = (await t.telegramUser()).token;
});
afterEach(() => t.close());

async function link(body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/links", { token, body });
  expect(res.status).toBe(201);
  return res.json as { id: number; code: string };
}
type Visitor = { ip?: string; ua?: string; lang?: string; query?: string };
async function go(code: string, v: Visitor = {}) {
  const headers: Record<string, string> = { "user-agent": v.ua ?? CHROME_WIN, "x-forwarded-for": v.ip ?? US };
  if (v.lang) headers["accept-language"] = v.lang;
  const res = await t.request("GET", `/${code}${v.query ? `?${v.query}` : ""}`, { headers });
  expect(res.status).toBe(302);
  return res.headers.get("location");
}
async function recorded(linkId: number) {
  await t.deps.clicks.flush();
  const { clicks } = t.deps.asyncDb.tables;
  return t.deps.asyncDb.select().from(clicks).where(eq(clicks.linkId, linkId)).orderBy(clicks.id);
}
const iso = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

describe("rules", () => {
  test("each condition: country, language, os, device, time window, query", async () => {
    const l = await link({
      url: "https://default.example/",
      rules: [
        { if: { country: ["de", "AT"] }, url: "https://de.example/" },
        { if: { language: ["fr"] }, url: "https://fr.example/" },
        { if: { os: ["macOS"] }, url: "https://mac.example/" },
        { if: { os: ["Linux"] }, url: "https://linux.example/" },
        { if: { device: ["tablet"] }, url: "https://tablet.example/" },
        { if: { device: ["mobile"], os: ["Android"] }, url: "https://android-phone.example/" },
        { if: { from: iso(3_600_000), to: iso(7_200_000) }, url: "https://window.example/" },
        { if: { query: { src: "ad", v: "2" } }, url: "https://ad.example/" },
      ],
    });
    expect(await go(l.code, { ip: DE })).toBe("https://de.example/");
    expect(await go(l.code, { lang: "fr-CA,fr;q=0.9,en;q=0.5" })).toBe("https://fr.example/");
    expect(await go(l.code, { lang: "en-US,fr;q=0.9" })).toBe("https://default.example/"); // only the first language counts
    expect(await go(l.code, { ua: SAFARI_MAC })).toBe("https://mac.example/");
    expect(await go(l.code, { ua: FIREFOX_LINUX })).toBe("https://linux.example/");
    expect(await go(l.code, { ua: IPAD })).toBe("https://tablet.example/");
    expect(await go(l.code, { ua: ANDROID })).toBe("https://android-phone.example/");
    expect(await go(l.code, { ua: IPHONE })).toBe("https://default.example/"); // mobile but not Android: rule 5 needs both
    expect(await go(l.code, { query: "src=ad&v=2&x=1" })).toBe("https://ad.example/");
    expect(await go(l.code, { query: "src=ad" })).toBe("https://default.example/"); // every parameter must match
    expect(await go(l.code)).toBe("https://default.example/");
    t.clock.advance(3_600_000); // inside the window
    expect(await go(l.code)).toBe("https://window.example/");
    t.clock.advance(3_600_000); // `to` is exclusive
    expect(await go(l.code)).toBe("https://default.example/");
    const rules = (await recorded(l.id)).map((c) => c.rule);
    expect(rules).toEqual([0, 1, null, 2, 3, 4, 5, null, 7, null, null, 6, null]);
    expect((await recorded(l.id)).every((c) => c.variant === null)).toBe(true);
  });

  test("first match wins; UTM values go onto the rule's URL; a visitor no rule caught falls to the platform target", async () => {
    const l = await link({
      url: "https://default.example/",
      ios_url: "https://apps.apple.com/app/x",
      utm_source: "tg",
      rules: [
        { if: { os: ["iOS"], country: ["RU"] }, url: "https://ru-ios.example/?a=1" },
        { if: { country: ["RU"] }, url: "https://ru.example/" },
        { if: { os: ["iOS"] }, url: "https://never.example/" },
      ],
    });
    expect(await go(l.code, { ip: RU, ua: IPHONE })).toBe("https://ru-ios.example/?a=1&utm_source=tg");
    expect(await go(l.code, { ip: RU })).toBe("https://ru.example/?utm_source=tg");
    // rule 2 catches iOS visitors before the per-platform target
    expect(await go(l.code, { ua: IPHONE })).toBe("https://never.example/?utm_source=tg");
    await t.request("PATCH", `/api/links/${l.id}`, { token, body: { rules: [{ if: { country: ["RU"] }, url: "https://ru.example/" }] } });
    expect(await go(l.code, { ua: IPHONE })).toBe("https://apps.apple.com/app/x?utm_source=tg");
    expect(await go(l.code, { ua: ANDROID })).toBe("https://default.example/?utm_source=tg");
    expect((await recorded(l.id)).map((c) => c.rule)).toEqual([0, 1, 2, null, null]);
  });

  test("rules come after the schedule, the password and the cap", async () => {
    const l = await link({
      url: "https://default.example/",
      starts_at: iso(60_000),
      max_clicks: 1,
      rules: [{ if: { country: ["US"] }, url: "https://us.example/" }],
    });
    const before = await t.request("GET", `/${l.code}`, { headers: { "x-forwarded-for": US, "user-agent": CHROME_WIN } });
    expect(before.status).toBe(200); // countdown
    t.clock.advance(61_000);
    expect(await go(l.code)).toBe("https://us.example/");
    const capped = await t.request("GET", `/${l.code}`, { headers: { "x-forwarded-for": US, "user-agent": CHROME_WIN } });
    expect(capped.status).toBe(410);
    const pw = await link({
      url: "https://default.example/",
      password: "pw-1234",
      rules: [{ if: { country: ["US"] }, url: "https://us.example/" }],
    });
    expect((await t.request("GET", `/${pw.code}`, { headers: { "x-forwarded-for": US } })).status).toBe(200); // the form
    const sent = await t.request("POST", `/${pw.code}`, {
      headers: { "x-forwarded-for": US, "content-type": "application/x-www-form-urlencoded" },
      body: "password=pw-1234",
    });
    expect(sent.headers.get("location")).toBe("https://us.example/");
  });

  test("GET shows rules and variants as stored (normalized); null and [] remove them", async () => {
    const l = await link({
      url: "https://default.example/",
      rules: [{ if: { country: ["de"], os: ["macos"], from: "2030-01-01T00:00", query: { a: "b" } }, url: " https://de.example/ " }],
      variants: [
        { url: "https://a.example/", weight: 1 },
        { url: "https://b.example/", weight: 100 },
      ],
    });
    const got = (await t.request("GET", `/api/links/${l.id}`, { token })).json;
    expect(got.rules).toEqual([
      { if: { country: ["DE"], os: ["macOS"], from: "2030-01-01T00:00:00.000Z", query: { a: "b" } }, url: "https://de.example/" },
    ]);
    expect(got.variants).toEqual([
      { url: "https://a.example/", weight: 1 },
      { url: "https://b.example/", weight: 100 },
    ]);
    expect((await t.request("PATCH", `/api/links/${l.id}`, { token, body: { rules: null, variants: [] } })).status).toBe(200);
    const cleared = (await t.request("GET", `/api/links/${l.id}`, { token })).json;
    expect([cleared.rules, cleared.variants]).toEqual([[], []]);
    expect(await go(l.code, { ip: DE, ua: SAFARI_MAC })).toBe("https://default.example/");
  });
});

describe("validation", () => {
  test("every problem is a 400 with details naming the field path, all at once", async () => {
    const rules = [
      { if: { country: ["DE"] }, url: "https://ok.example/" },
      { if: {}, url: "https://ok.example/" },
      { if: { country: ["Germany"], language: ["german!"] }, url: "ftp://x.example/" },
      { if: { os: ["BeOS"], device: ["watch"] } },
      { if: { from: "yesterday", query: { a: 1 } }, url: "https://ok.example/" },
      { if: { from: "2030-02-01T00:00:00Z", to: "2030-01-01T00:00:00Z" }, url: "not a url" },
      "rule",
      // a misspelt condition is refused, not dropped (the rule would then catch every desktop)
      { if: { contry: ["DE"], device: ["desktop"] }, url: "https://de.example/" },
    ];
    const res = await t.request("POST", "/api/links", {
      token,
      body: { url: "https://x.example/", rules, variants: [{ url: "https://a.example/", weight: 0 }, { weight: 50 }] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("validation_error");
    expect(res.json.details).toEqual([
      { field: "rules[1].if", message: "needs at least one condition (country, language, os, device, from, to, query)" },
      { field: "rules[2].if.country[0]", message: 'must be a two-letter country code (ISO 3166-1 alpha-2), got "Germany"' },
      { field: "rules[2].if.language[0]", message: 'must be a language code such as "de", got "german!"' },
      { field: "rules[2].url", message: "must be an http:// or https:// URL" },
      { field: "rules[3].if.os[0]", message: 'must be one of iOS, Android, Windows, macOS, Linux, got "BeOS"' },
      { field: "rules[3].if.device[0]", message: 'must be one of mobile, tablet, desktop, got "watch"' },
      { field: "rules[3].url", message: "is required: the URL to send the visitor to" },
      { field: "rules[4].if.from", message: "must be an ISO 8601 date-time, e.g. 2026-05-01T12:00:00Z" },
      { field: "rules[4].if.query.a", message: "must be a text value of at most 500 characters (names at most 200)" },
      { field: "rules[5].if.to", message: "must be later than from" },
      { field: "rules[5].url", message: "must be an absolute URL with http:// or https://" },
      { field: "rules[6]", message: 'must be an object {"if": {...}, "url": "https://..."}' },
      { field: "rules[7].if.contry", message: "is not a condition: use country, language, os, device, from, to, query" },
      { field: "variants[0].weight", message: "must be a whole number from 1 to 100" },
      { field: "variants[1].url", message: "is required: the URL to send the visitor to" },
    ]);
    expect((await t.request("GET", "/api/links", { token })).json).toEqual([]); // nothing was saved
  });

  test("counts and types: at most 20 rules, 2–10 variants, arrays only; PATCH is checked the same way", async () => {
    const l = await link({ url: "https://x.example/" });
    const rule = { if: { country: ["DE"] }, url: "https://de.example/" };
    const patch = async (body: unknown) => (await t.request("PATCH", `/api/links/${l.id}`, { token, body })).json.details;
    expect(await patch({ rules: Array(21).fill(rule) })).toEqual([{ field: "rules", message: "must have at most 20 rules (got 21)" }]);
    expect(await patch({ rules: { if: {} } })).toEqual([{ field: "rules", message: "must be an array of rules, or null" }]);
    expect(await patch({ variants: [{ url: "https://a.example/", weight: 1 }] })).toEqual([
      { field: "variants", message: "must have 2 to 10 entries (got 1)" },
    ]);
    expect(await patch({ variants: Array(11).fill({ url: "https://a.example/", weight: 1 }) })).toEqual([
      { field: "variants", message: "must have 2 to 10 entries (got 11)" },
    ]);
    expect(
      await patch({
        variants: [
          { url: "https://a.example/", weight: 1.5 },
          { url: "https://b.example/", weight: "5" },
        ],
      }),
    ).toEqual([
      { field: "variants[0].weight", message: "must be a whole number from 1 to 100" },
      { field: "variants[1].weight", message: "must be a whole number from 1 to 100" },
    ]);
    expect(await patch({ rules: [{ if: { country: [] }, url: "https://a.example/" }] })).toEqual([
      { field: "rules[0].if.country", message: "must be a non-empty array of two-letter country codes (ISO 3166-1 alpha-2)" },
    ]);
    expect((await t.request("PATCH", `/api/links/${l.id}`, { token, body: { rules: Array(20).fill(rule) } })).status).toBe(200);
  });
});
