/** @both-databases: click ids, macros, conversions in (API and GET postback URL), attribution and figures. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";
import { recordMemberChange } from "../../core/channels/members";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

let t: TestApp;
let token: string;
let userId: number;
beforeEach(async () => {
  t = createTestApp({ env: { TRUST_PROXY: "true" } });
  const u = await t.telegramUser();
  [token, userId] = [u.token, u.user.id];
});
afterEach(() => t.close());

async function link(body: Record<string, unknown>, as = token) {
  const res = await t.request("POST", "/api/links", { token: as, body });
  expect([res.status, res.json.details]).toEqual([201, undefined]);
  return res.json as { id: number; code: string };
}
async function go(code: string, query = "", ua = CHROME) {
  const res = await t.request("GET", `/${code}${query}`, { headers: { "user-agent": ua, "x-forwarded-for": "81.2.69.160" } });
  expect(res.status).toBe(302);
  return res.headers.get("location")!;
}
async function clicksOf(linkId: number, as = token) {
  await t.deps.clicks.flush();
  const res = await t.request("GET", `/api/links/${linkId}/clicks`, { token: as });
  expect(res.status).toBe(200);
  return res.json.data as Record<string, unknown>[];
}
const report = (body: Record<string, unknown>, as = token) => t.request("POST", "/api/conversions", { token: as, body });

test("every click has its own click id, listed with the click, and macros put it and the sub parameters into the target, URL-encoded", async () => {
  const l = await link({ url: "https://t.me/shop_bot?start={click_id}&s={sub1}&l={link_id}-{code}&d={device}" });
  const first = await go(l.code, "?sub1=a%20b%26c&sub2=x&fbclid=FB.1");
  const m = /^https:\/\/t\.me\/shop_bot\?start=([A-Za-z0-9_-]{1,24})&s=a%20b%26c&l=(\d+)-(\w+)&d=desktop$/.exec(first);
  expect(m).not.toBeNull();
  expect([Number(m![2]), m![3]]).toEqual([l.id, l.code]);
  const second = await go(l.code, "", IPHONE);
  const secondId = /start=([^&]+)/.exec(second)![1]!;
  expect(second).toEndWith("&s=&l=" + `${l.id}-${l.code}&d=mobile`);
  expect(secondId).not.toBe(m![1]);

  const listed = await clicksOf(l.id);
  expect(listed.map((c) => c.click_id).sort()).toEqual([m![1], secondId].sort());
  const withSubs = listed.find((c) => c.click_id === m![1])!;
  expect([withSubs.sub1, withSubs.sub2, withSubs.sub3]).toEqual(["a b&c", "x", null]);
  const { clicks } = t.deps.asyncDb.tables;
  const [stored] = await t.deps.asyncDb.select().from(clicks).where(eq(clicks.clickId, m![1]!));
  expect(stored!.fbclid).toBe("FB.1");
});

test("a link without macros redirects to its URL byte for byte; braces that are not macros stay as written", async () => {
  const url = "https://example.com/p/{not_a_macro}?q=%7Bclick_id%7D&x={click}&utm=1#frag";
  const l = await link({ url });
  expect(await go(l.code, "?sub1=zzz")).toBe(url);
  expect(await go(l.code)).toBe(url);
  const [c] = await clicksOf(l.id);
  expect(c!.click_id).toMatch(/^[A-Za-z0-9_-]{1,24}$/);
});

test("macros work in platform targets, rules and A/B variants too", async () => {
  const l = await link({
    url: "https://default.example/?c={click_id}",
    ios_url: "https://apps.apple.com/app?ct={click_id}&p={placement_id}",
    rules: [{ if: { query: { promo: "1" } }, url: "https://promo.example/{sub2}/{click_id}" }],
  });
  expect(await go(l.code, "", IPHONE)).toMatch(/^https:\/\/apps\.apple\.com\/app\?ct=[A-Za-z0-9_-]+&p=$/);
  expect(await go(l.code, "?promo=1&sub2=%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82")).toMatch(
    /^https:\/\/promo\.example\/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82\/[A-Za-z0-9_-]+$/,
  );
  const v = await link({
    url: "https://d.example/",
    variants: [
      { url: "https://a.example/?cid={click_id}", weight: 1 },
      { url: "https://b.example/?cid={click_id}", weight: 1 },
    ],
  });
  expect(await go(v.code)).toMatch(/^https:\/\/[ab]\.example\/\?cid=[A-Za-z0-9_-]+$/);
});

test("a conversion with the click id is attributed to its link and placement; the same external_id twice is one conversion", async () => {
  const l = await link({ url: "https://t.me/shop_bot?start={click_id}" });
  const p = await t.request("POST", "/api/placements", { token, body: { venue: "@bigchannel", cost: { amount: 100, currency: "USD" } } });
  expect(p.status).toBe(201);
  const placementId = p.json.id as number;
  expect((await t.request("POST", `/api/placements/${placementId}/links`, { token, body: { link_id: l.id } })).status).toBe(201);
  const clickId = /start=(.+)$/.exec(await go(l.code))![1]!;

  const first = await report({ event: "purchase", click_id: clickId, value: 150.5, currency: "usd", external_id: "order-1" });
  expect(first.status).toBe(201);
  expect(first.json).toEqual({
    id: expect.any(Number),
    event: "purchase",
    attributed: { link_id: l.id, placement_id: placementId, invite_id: null },
  });
  const again = await report({ event: "purchase", click_id: clickId, value: 999, currency: "USD", external_id: "order-1" });
  expect(again.status).toBe(200);
  expect(again.json).toEqual(first.json);
  expect((await report({ event: "lead", click_id: clickId })).status).toBe(201);

  await t.deps.clicks.flush();
  const stats = await t.request("GET", `/api/links/${l.id}/stats`, { token });
  expect(stats.json.conversions).toEqual({ count: 2, value: { USD: 150.5 }, by_event: { purchase: 1, lead: 1 }, rate: 2 });
  const placement = await t.request("GET", `/api/placements/${placementId}`, { token });
  expect(placement.json.stats.conversions).toEqual({ count: 2, value: { USD: 150.5 }, by_event: { purchase: 1, lead: 1 } });
  expect(placement.json.stats.roas).toBe(1.51);
  const listed = await t.request("GET", `/api/conversions?link_id=${l.id}`, { token });
  expect(listed.json.map((c: { event: string; value: number | null }) => [c.event, c.value])).toEqual([
    ["lead", null],
    ["purchase", 150.5],
  ]);
});

test("another account's click is never attributed, and their figures are not touched", async () => {
  const other = await t.emailUser("mallory@example.com");
  const theirs = await link({ url: "https://x.example/?c={click_id}" }, other.token);
  const clickId = /c=(.+)$/.exec(await go(theirs.code))![1]!;
  const res = await report({ event: "purchase", click_id: clickId, value: 10, currency: "EUR" });
  expect(res.status).toBe(201);
  expect(res.json.attributed).toBeNull();
  expect((await t.request("GET", `/api/links/${theirs.id}/stats`, { token: other.token })).json.conversions.count).toBe(0);
  expect((await report({ event: "purchase", click_id: "not-a-click" })).json.attributed).toBeNull();
});

test("a Telegram user is attributed to their latest join through one of the account's invites in the last 30 days; joins are conversions", async () => {
  const db = t.deps.asyncDb;
  const [channel] = await db
    .insert(db.tables.channels)
    .values({ userId, chatId: "-1001", type: "channel", title: "Shop", botIsAdmin: true, canInvite: true })
    .returning();
  const l = await link({ url: "https://t.me/+abc" });
  const [invite] = await db
    .insert(db.tables.channelInvites)
    .values({ userId, channelId: channel!.id, chatId: "-1001", name: "ad", inviteLink: "https://t.me/+abc", linkId: l.id })
    .returning();
  const join = (member: number) =>
    recordMemberChange(t.deps, {
      chatId: "-1001",
      member: { id: member },
      oldStatus: "left",
      newStatus: "member",
      date: Math.floor(t.clock.now().getTime() / 1000),
      inviteLink: "https://t.me/+abc",
    });
  expect(await join(777)).toBe("join");
  const res = await report({ event: "purchase", tg_user_id: 777, value: 500, currency: "XTR" });
  expect(res.json.attributed).toEqual({ link_id: l.id, placement_id: null, invite_id: invite!.id });
  expect((await report({ event: "purchase", tg_user_id: 778 })).json.attributed).toBeNull();
  // 31 days on, the join is too old to attribute a purchase to
  t.clock.advance(31 * 86_400_000);
  token = (await t.telegramUser()).token; // the sign-in of a month ago has expired
  expect((await report({ event: "purchase", tg_user_id: 777 })).json.attributed).toBeNull();

  const stats = await t.request("GET", `/api/invites/${invite!.id}/stats`, { token });
  expect(stats.json.conversions).toEqual({ count: 2, value: { XTR: 500 }, by_event: { join: 1, purchase: 1 } });
});

test("the GET postback URL records a conversion with a key of the account and answers 204; a revoked key is refused", async () => {
  const l = await link({ url: "https://x.example/?c={click_id}" });
  const clickId = /c=(.+)$/.exec(await go(l.code))![1]!;
  const made = await t.request("POST", "/api/postback-keys", { token, body: { name: "network" } });
  expect(made.status).toBe(201);
  expect(made.json.url).toBe(`${t.config.baseUrl}/c/${made.json.key}`);
  const path = `/c/${made.json.key}?event=purchase&click_id=${clickId}&value=12.5&currency=USD&external_id=n-1`;
  const ok = await t.request("GET", path);
  expect(ok.status).toBe(204);
  expect(ok.text).toBe("");
  expect((await t.request("GET", path)).status).toBe(204); // the same external id: still one conversion
  const stats = await t.request("GET", `/api/conversions/stats?link_id=${l.id}`, { token });
  expect(stats.json).toEqual({ count: 1, value: { USD: 12.5 }, by_event: { purchase: 1 } });

  const keys = await t.request("GET", "/api/postback-keys", { token });
  expect(keys.json).toEqual([
    { id: made.json.id, name: "network", prefix: made.json.key.slice(0, 10), created_at: expect.any(String), revoked_at: null },
  ]);
  expect(JSON.stringify(keys.json)).not.toContain(made.json.key);
  const revoked = await t.request("DELETE", `/api/postback-keys/${made.json.id}`, { token });
  expect([revoked.status, revoked.json]).toEqual([200, { success: true }]);
  expect((await t.request("GET", "/api/postback-keys", { token })).json[0].revoked_at).toBe(t.clock.now().toISOString());
  const refused = await t.request("GET", `/c/${made.json.key}?event=purchase&external_id=n-2`);
  expect(refused.status).toBe(404);
  expect(refused.json.error).toBe("not_found");
  expect((await t.request("GET", `/api/conversions/stats?link_id=${l.id}`, { token })).json.count).toBe(1);
  // the key's making and revoking are in the audit log; conversions, which the network reports, are not
  const audit = await t.request("GET", `/api/workspaces/${userId}/audit`, { token });
  expect(audit.status).toBe(200);
  expect(audit.json.data.map((e: { action: string }) => e.action).sort()).toEqual([
    "links.create",
    "postback_keys.create",
    "postback_keys.delete",
  ]);
});

test("conversions reported through the API are not audit entries; a postback set up is", async () => {
  const l = await link({ url: "https://x.example/?c={click_id}" });
  const clickId = /c=(.+)$/.exec(await go(l.code))![1]!;
  for (let i = 0; i < 3; i++) expect((await report({ event: "lead", click_id: clickId, external_id: `lead-${i}` })).status).toBe(201);
  const hook = await t.request("POST", "/api/postbacks", { token, body: { url: "https://net.example/pb?c={click_id}", events: ["lead"] } });
  expect(hook.status).toBe(201);
  const audit = await t.request("GET", `/api/workspaces/${userId}/audit`, { token });
  expect(audit.json.data.map((e: { action: string }) => e.action).sort()).toEqual(["links.create", "postbacks.create"]);
});

test("scopes: write:conversions reports, read:conversions reads; a bad event or currency is a 400 naming the field", async () => {
  const make = async (scopes: string[]) =>
    (await t.request("POST", "/api/tokens", { token, body: { name: scopes.join(" "), scopes } })).json.token as string;
  const writer = await make(["write:conversions"]);
  const reader = await make(["read:conversions"]);
  expect((await report({ event: "lead" }, writer)).status).toBe(201);
  expect((await report({ event: "lead" }, reader)).status).toBe(403);
  expect((await t.request("GET", "/api/conversions", { token: reader })).status).toBe(200);
  expect((await t.request("GET", "/api/conversions", { token: writer })).status).toBe(403);
  const joinEvent = await report({ event: "join" });
  expect([joinEvent.status, joinEvent.json.details[0].field]).toEqual([400, "event"]);
  const money = await report({ event: "purchase", value: 5, currency: "ZZZ" });
  expect([money.status, money.json.details[0].field]).toEqual([400, "currency"]);
});

test("figures stay right with the largest values: ten conversions of 10^12 sum to 10^13, not an error", async () => {
  const l = await link({ url: "https://shop.example/" });
  const clickId = /cid=(.+)$/.exec(await go((await link({ url: "https://shop.example/?cid={click_id}" })).code))![1]!;
  const own = `${l.id.toString(36)}${clickId.slice(clickId.indexOf("_"))}`;
  for (let i = 0; i < 10; i++)
    expect((await report({ event: "purchase", click_id: own, value: 1e12, currency: "USD", external_id: `big-${i}` })).status).toBe(201);
  const stats = await t.request("GET", `/api/conversions/stats?link_id=${l.id}`, { token });
  expect([stats.status, stats.json]).toEqual([200, { count: 10, value: { USD: 1e13 }, by_event: { purchase: 10 } }]);
});

test("a value in Telegram Stars is whole, and codes that name no money (XXX, XAU, XTS) are refused, naming the field", async () => {
  const field = async (body: Record<string, unknown>) => {
    const res = await report({ event: "purchase", ...body });
    return [res.status, res.json.details?.[0]?.field, res.json.details?.[0]?.message];
  };
  expect(await field({ value: 1.5, currency: "XTR" })).toEqual([400, "value", "must be a whole number of Telegram Stars (XTR)"]);
  expect((await report({ event: "purchase", value: 150, currency: "XTR", external_id: "stars" })).status).toBe(201);
  for (const code of ["XXX", "XAU", "XTS"])
    expect(await field({ value: 1, currency: code })).toEqual([
      400,
      "currency",
      "must be an ISO 4217 code such as USD, or XTR for Telegram Stars",
    ]);
  expect((await report({ event: "purchase", value: 1, currency: "XOF", external_id: "cfa" })).status).toBe(201); // the CFA franc is money
});

test("a macro in a target's host is refused: a visitor must not choose where a link goes", async () => {
  for (const body of [
    { url: "https://{sub1}/landing" },
    { url: "https://shop.example/", rules: [{ if: { device: ["mobile"] }, url: "https://{sub2}.example/x" }] },
    { url: "https://shop.example/", ios_url: "https://x{country}.example/" },
  ]) {
    const res = await t.request("POST", "/api/links", { token, body });
    expect({ body, status: res.status, message: res.json.details?.[0]?.message }).toEqual({
      body,
      status: 400,
      message:
        "may carry a macro ({sub1}, {click_id}…) only in its path, query or fragment, not in its host: a visitor could choose where the link goes",
    });
  }
  // in the path, the query and the fragment they stay welcome
  expect((await t.request("POST", "/api/links", { token, body: { url: "https://shop.example/{sub1}?c={click_id}#{code}" } })).status).toBe(
    201,
  );
});

test("a link stored with a macro in its host before that was refused never lets the visitor choose the host", async () => {
  const { user } = await t.telegramUser(7, "old");
  const { insertLink } = await import("../helpers/webhook-fixtures");
  const link = await insertLink(t.deps, user.id, { url: "https://{sub1}/landing?c={click_id}" });
  const location = await go(link.code, "?sub1=evil.example");
  expect(location).not.toContain("evil.example");
  expect(new URL(location.replace(/[{}]/g, "_")).hostname).toBe("_sub1_");
  expect(location).toMatch(/\?c=\w+/); // the query's macro is still filled
});
