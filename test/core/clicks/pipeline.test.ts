import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import type { ClickListener } from "../../../core/clicks/listeners";
import { createTestSink } from "../../helpers/clicks";
import { detectBot } from "../../../core/redirect/bots";
import { geoFromRecord } from "../../../core/clicks/enrich";
import { createDb } from "../../../db/client";
import { clicks, links } from "../../../db/schema";
import { join } from "node:path";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

let t: TestApp;
let token: string;
beforeEach(async () => {
  // two proxies: the visitor's address is the second from the right
  t = createTestApp({ env: { TRUST_PROXY: "2" } });
  token = (await t.telegramUser()).token;
});
afterEach(() => t.close());

async function newLink() {
  return (await t.request("POST", "/api/links", { token, body: { url: "https://ok.example/" } })).json as { id: number; code: string };
}
const visit = (code: string, ua: string | null, ip = "203.0.113.5", extra: Record<string, string> = {}) =>
  t.request("GET", `/${code}`, {
    headers: { ...(ua === null ? {} : { "user-agent": ua }), "x-forwarded-for": `${ip}, 10.0.0.1`, ...extra },
  });
const rowsOf = (id: number) => t.deps.db.select().from(clicks).where(eq(clicks.linkId, id)).all();
const linkRow = (id: number) => t.deps.db.select().from(links).where(eq(links.id, id)).get()!;

describe("click recording", () => {
  test("geo for a known public IP (X-Forwarded-For with TRUST_PROXY), device, browser, OS, referer", async () => {
    const l = await newLink();
    await visit(l.code, IPHONE, "8.8.8.8", { referer: "https://t.me/somechannel" });
    await visit(l.code, CHROME, "10.1.2.3");
    await t.deps.clicks.flush();
    const [a, b] = rowsOf(l.id);
    expect(a).toMatchObject({
      ip: "8.8.8.8",
      country: "US",
      device: "mobile",
      os: "iOS",
      browser: "Mobile Safari",
      referer: "https://t.me/somechannel",
      isBot: false,
      isUnique: true,
    });
    expect(typeof a!.city).toBe("string");
    expect(b).toMatchObject({ ip: "10.1.2.3", country: null, city: null, device: "desktop", os: "Windows", browser: "Chrome" });
  });

  test("geo for known public IPv6 addresses from the shipped IPv6 database; an IPv4-only GEOIP_DB gives them none", async () => {
    const l = await newLink();
    await visit(l.code, CHROME, "2a02:6b8::2:242"); // Yandex, Moscow
    await visit(l.code, CHROME, "2a00:1450:4001:82b::200e"); // Google, Frankfurt
    await visit(l.code, CHROME, "::ffff:8.8.8.8"); // IPv4-mapped: the IPv4 database
    await t.deps.clicks.flush();
    expect(rowsOf(l.id).map((r) => [r.ip, r.country, r.city])).toEqual([
      ["2a02:6b8::2:242", "RU", "Moscow"],
      ["2a00:1450:4001:82b::200e", "DE", "Frankfurt am Main"],
      ["::ffff:8.8.8.8", "US", "Mountain View"],
    ]);
    // the shipped IPv4 file on its own: an IPv6 address must not get the country its first 32 bits lead to (HK)
    const v4only = createTestApp({ env: { TRUST_PROXY: "true", GEOIP_DB: t.deps.config.geoipDb } });
    try {
      const tok = (await v4only.telegramUser()).token;
      const l2 = (await v4only.request("POST", "/api/links", { token: tok, body: { url: "https://ok.example/" } })).json;
      await v4only.request("GET", `/${l2.code}`, { headers: { "user-agent": CHROME, "x-forwarded-for": "2a02:6b8::2:242" } });
      await v4only.request("GET", `/${l2.code}`, { headers: { "user-agent": CHROME, "x-forwarded-for": "8.8.8.8" } });
      await v4only.deps.clicks.flush();
      expect(
        v4only.deps.db
          .select()
          .from(clicks)
          .all()
          .map((r) => [r.ip, r.country]),
      ).toEqual([
        ["2a02:6b8::2:242", null],
        ["8.8.8.8", "US"],
      ]);
    } finally {
      v4only.close();
    }
  });

  test("a forwarded value that is not an IP address is not stored; ports and brackets are taken off", async () => {
    const l = await newLink();
    const raw = (xff: string) => t.request("GET", `/${l.code}`, { headers: { "user-agent": CHROME, "x-forwarded-for": xff } });
    await raw("<script>alert(1)</script>, 10.0.0.1");
    await raw("8.8.8.8:51234, 10.0.0.1");
    await raw("[2a02:6b8::2:242]:443, 10.0.0.1");
    await t.deps.clicks.flush();
    const ips = rowsOf(l.id).map((r) => r.ip);
    expect(ips[0]).toBeNull(); // the socket's address instead, which a request handed to the app in-process has none of
    expect(ips.slice(1)).toEqual(["8.8.8.8", "2a02:6b8::2:242"]);
  });

  test("geo records of both supported formats: ip-location-db (DB-IP lite) and MaxMind City", () => {
    expect(geoFromRecord({ country_code: "de", city: "Berlin" })).toEqual({ country: "DE", city: "Berlin" });
    expect(geoFromRecord({ country: { iso_code: "FR" }, city: { names: { en: "Paris", de: "Paris" } } })).toEqual({
      country: "FR",
      city: "Paris",
    });
    expect(geoFromRecord({ country: { iso_code: "FR" } })).toEqual({ country: "FR", city: null });
    expect(geoFromRecord({ country_code: "ZZZ", city: "" })).toEqual({ country: null, city: null });
    expect(geoFromRecord(null)).toEqual({ country: null, city: null });
  });

  test("without TRUST_PROXY the forwarded address is ignored", async () => {
    const t2 = createTestApp();
    const tok = (await t2.telegramUser()).token;
    const l = (await t2.request("POST", "/api/links", { token: tok, body: { url: "https://ok.example/" } })).json;
    await t2.request("GET", `/${l.code}`, { headers: { "user-agent": CHROME, "x-forwarded-for": "8.8.8.8" } });
    await t2.deps.clicks.flush();
    const row = t2.deps.db.select().from(clicks).get()!;
    expect(row.ip).not.toBe("8.8.8.8");
    expect(row.country).toBeNull();
    t2.close();
  });

  test("bots are recorded with a name and counted apart; counters on the link match", async () => {
    const l = await newLink();
    const bots = [
      ["TelegramBot (like TwitterBot)", "TelegramBot"],
      ["facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"],
      ["Twitterbot/1.0", "Twitterbot"],
      ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Slackbot"],
      ["WhatsApp/2.23.20.0 A", "WhatsApp"],
      ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"],
    ];
    for (const [ua] of bots) await visit(l.code, ua!);
    await visit(l.code, null);
    await visit(l.code, CHROME);
    await t.deps.clicks.flush();
    const rows = rowsOf(l.id);
    expect(rows.filter((r) => r.isBot).map((r) => r.botName)).toEqual([...bots.map((b) => b[1]!), "unknown"]);
    expect(rows.filter((r) => r.isBot).every((r) => !r.isUnique && r.device === "bot")).toBe(true);
    expect(linkRow(l.id)).toMatchObject({ totalClicks: 8, botClicks: 7, uniqueClicks: 1 });
    const list = await t.request("GET", "/api/links", { token });
    expect(list.json[0].stats).toEqual({ totalClicks: 8, uniqueClicks: 1, botClicks: 7 });
    expect(detectBot(CHROME)).toEqual({ isBot: false, name: null });
    expect(detectBot("Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)").isBot).toBe(true);
  });

  test("people in the Snapchat, Pinterest and Viber in-app browsers are not bots; those services' fetchers are", () => {
    const people = [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.41.0.36 (like Safari/8615.2.9.10.4, panda)",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]",
      "Mozilla/5.0 (Linux; Android 13; SM-G991B) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 [Pinterest/Android]",
      "Mozilla/5.0 (Linux; Android 12; SM-A525F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36 Viber/21.0.0.0",
    ];
    for (const ua of people) expect({ ua, ...detectBot(ua) }).toEqual({ ua, isBot: false, name: null });
    const fetchers = [
      ["Mozilla/5.0 (compatible; Snap URL Preview Service; bot; snapchat_proxy/1.0; +https://developers.snap.com/robots)", "Snapchat"],
      ["Pinterest/0.2 (+https://www.pinterest.com/bot.html)", "Pinterestbot"],
      ["Mozilla/5.0 (compatible; Pinterestbot/1.0; +https://www.pinterest.com/bot.html)", "Pinterestbot"],
      ["Viber/13.3.0.5 CFNetwork/1220.1 Darwin/20.3.0", "Viber"],
    ];
    for (const [ua, name] of fetchers) expect({ ua, ...detectBot(ua) }).toEqual({ ua: ua!, isBot: true, name: name! });
  });

  test("uniqueness: first click per IP + User-Agent on a link within 24 hours", async () => {
    const l = await newLink();
    const other = await newLink();
    await visit(l.code, CHROME, "198.51.100.1");
    await visit(l.code, CHROME, "198.51.100.1"); // same visitor
    await visit(l.code, IPHONE, "198.51.100.1"); // other UA
    await visit(l.code, CHROME, "198.51.100.2"); // other IP
    await visit(other.code, CHROME, "198.51.100.1"); // other link
    await t.deps.clicks.flush();
    t.clock.advance(23 * 3600_000);
    await visit(l.code, CHROME, "198.51.100.1"); // still within 24 h
    await t.deps.clicks.flush();
    t.clock.advance(3600_000);
    await visit(l.code, CHROME, "198.51.100.1"); // 24 h after the unique one
    await t.deps.clicks.flush();
    expect(rowsOf(l.id).map((r) => r.isUnique)).toEqual([true, false, true, true, false, true]);
    expect(rowsOf(other.id).map((r) => r.isUnique)).toEqual([true]);
    expect(linkRow(l.id)).toMatchObject({ totalClicks: 6, uniqueClicks: 4, botClicks: 0 });
  });

  test("the redirect writes nothing; a shutdown flush writes the pending batch, which survives a restart", async () => {
    const l = await newLink();
    for (let i = 0; i < 25; i++) expect((await visit(l.code, CHROME, `198.51.100.${i}`)).status).toBe(302);
    const recorder = t.deps.clicks;
    expect(recorder.pending).toBe(25);
    expect(rowsOf(l.id)).toHaveLength(0);
    expect(await recorder.stop()).toBe(25);
    t.deps.handle.close();
    const reopened = createDb(join(t.dataDir, "app.db"));
    expect(reopened.db.select().from(clicks).where(eq(clicks.linkId, l.id)).all()).toHaveLength(25);
    expect(reopened.db.select().from(links).where(eq(links.id, l.id)).get()!.totalClicks).toBe(25);
    reopened.close();
    t.deps.handle = createDb(join(t.dataDir, "app.db")) as never;
  });

  test("click hooks run inside the batch transaction: a failing hook rolls the batch back and it is retried", async () => {
    const l = await newLink();
    const seen: number[] = [];
    let fail = true;
    const hook: ClickListener = (batch) => {
      if (fail) throw new Error("hook down");
      seen.push(...batch.map((b) => b.link.totalClicks));
      return [];
    };
    const recorder = createTestSink(t.deps, [...CLICK_LISTENERS, hook]);
    try {
      for (const ip of ["203.0.113.5", "203.0.113.5"])
        recorder.record({ linkId: l.id, clickedAt: t.clock.now(), ip, userAgent: CHROME, referer: null, isBot: false, botName: null });
      await expect(recorder.flush()).rejects.toThrow("hook down");
      expect(rowsOf(l.id)).toHaveLength(0);
      expect(linkRow(l.id).totalClicks).toBe(0);
      expect(recorder.pending).toBe(2);
      fail = false;
      expect(await recorder.flush()).toBe(2);
      expect(seen).toEqual([2, 2]); // the hook sees the link with the batch's counters
      expect(rowsOf(l.id)).toHaveLength(2);
    } finally {
      await recorder.stop();
    }
  });

  test("clicks of a link deleted before the flush are dropped without failing the batch", async () => {
    const a = await newLink();
    const b = await newLink();
    await visit(a.code, CHROME);
    await visit(b.code, CHROME);
    await t.request("DELETE", `/api/links/${a.id}`, { token });
    expect(await t.deps.clicks.flush()).toBe(2);
    expect(rowsOf(b.id)).toHaveLength(1);
  });
});
