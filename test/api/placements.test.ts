/**
 * Placements through the API (and the views job), on SQLite and on PostgreSQL: the ad post rewritten
 * per placement (new links, a new invite of the owner's channel), figures exact and never shared
 * between placements, views from the web preview and by hand, sorting, prices, and 404 for anyone
 * else's placement.
 */
import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startBotApp } from "../bot/helpers";
import { eventually } from "../helpers/eventually";
import { placementViewsJob, placementViewsPlacement } from "../../jobs/placement-views";
import type { MtprotoSource } from "../../core/tracking/mtproto";
import { ingestPost } from "../../core/tracking/ingest";
import { createTracker } from "../../core/tracking/trackers";
import { nextReadingAt } from "../../core/placements/views";
import { bindInvite, bindLink } from "../../core/placements/placements";
import type { AppError } from "../../core/errors";

setDefaultTimeout(60_000); // a busy machine: each test talks to the fake Bot API and, on PostgreSQL, a server
const CHANNEL = { id: -1001110001, type: "channel", title: "Ads Club", username: "adsclub" };
const ALICE_TG = 42;
const BOB_TG = 43;
const HOUR = 3_600_000;

/** Telegram's web preview of posts, as a loopback server: `views` by "<channel>/<id>" as the page shows them. */
const preview = { views: new Map<string, string>(), hits: [] as string[] };
const previewServer = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const url = new URL(req.url);
    preview.hits.push(`${url.pathname}${url.search}`);
    const shown = preview.views.get(url.pathname.slice(1));
    if (!shown) return new Response("<html>no post</html>", { status: 404 });
    return new Response(
      `<div class="tgme_widget_message_footer"><span class="tgme_widget_message_views">${shown}</span><span class="copyonly"> views</span></div>`,
      { headers: { "content-type": "text/html" } },
    );
  },
});
afterAll(() => previewServer.stop(true));

let s: Awaited<ReturnType<typeof startBotApp>>;
let alice: string;
let bob: string;
let aliceId: number;

beforeEach(async () => {
  preview.views.clear();
  preview.hits.length = 0;
  s = await startBotApp({ TELEGRAM_WEB_URL: `http://127.0.0.1:${previewServer.port}`, TRUST_PROXY: "true" });
  s.fake.addChat(CHANNEL);
  const a = await s.t.telegramUser(ALICE_TG, "alice");
  alice = a.token;
  aliceId = a.user.id;
  bob = (await s.t.telegramUser(BOB_TG, "bob")).token;
});
afterEach(() => s.stop());

const req = (method: string, path: string, token: string, body?: unknown) => s.t.request(method, path, { token, body });
const secs = (ms: number) => Math.floor(ms / 1000);
const e = (type: string, offset: number, length: number, extra: Record<string, unknown> = {}) => ({ type, offset, length, ...extra });

async function aliceChannel(): Promise<{ id: number }> {
  s.fake.members.set(`${CHANNEL.id}:${ALICE_TG}`, { status: "creator" });
  const res = await req("POST", "/api/channels", alice, { chat: "@adsclub" });
  expect(res.status).toBe(201);
  return res.json;
}

/** The ad post: an external URL, a text link, the owner's old invite link, and a button to the owner's channel. */
function adPost(oldInvite: string) {
  const text = `Spring sale: shop.example/spring — Details. Join us: ${oldInvite}`;
  return {
    text,
    entities: [
      e("bold", 0, 11),
      e("url", text.indexOf("shop.example/spring"), "shop.example/spring".length),
      e("text_link", text.indexOf("Details"), 7, { url: "https://docs.example/terms" }),
      e("url", text.indexOf(oldInvite), oldInvite.length),
    ],
    buttons: { inline_keyboard: [[{ text: "Subscribe", url: "https://t.me/adsclub" }]] },
  };
}

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";
/** A visit to a short link from `ip` (the proxy's header is trusted here). */
async function visit(code: string, ip: string, ua = CHROME) {
  const res = await s.t.request("GET", `/${code}`, { headers: { "user-agent": ua, "x-forwarded-for": ip } });
  expect(res.status).toBe(302);
}

const linkRow = async (id: number) =>
  (await s.t.deps.asyncDb.select().from(s.t.deps.asyncDb.tables.links).where(eq(s.t.deps.asyncDb.tables.links.id, id)))[0]!;

describe("one post, one placement", () => {
  test("every link a new tracking link, the owner's invite and channel link one new invite per placement; two placements never share one", async () => {
    const channel = await aliceChannel();
    const old = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "Old ad" })).json;
    const post = adPost(old.invite_link);
    const res = await req("POST", "/api/placements", alice, {
      venue: "@bigchannel",
      publish_at: "2026-11-30T10:00:00Z",
      cost: "5 000 ₽",
      post,
    });
    expect(res.status).toBe(201);
    const a = res.json;
    expect(a).toMatchObject({
      name: "@bigchannel 30.11",
      venue: { kind: "telegram", username: "bigchannel" },
      publish_at: "2026-11-30T10:00:00.000Z",
      cost: { amount: 5000, currency: "RUB" },
      post_url: null,
    });
    expect(a.links.map((l: { original_url: string }) => l.original_url)).toEqual([
      "https://shop.example/spring",
      "https://docs.example/terms",
    ]);
    expect(a.invites).toHaveLength(1);
    const invite = a.invites[0];
    expect(invite).toMatchObject({ channel_id: channel.id, name: "@bigchannel 30.11" });
    expect(invite.invite_link).not.toBe(old.invite_link);
    // a public channel: a join-request link, since Telegram names no link on a join by the username
    const made = s.fake.callsOf("createChatInviteLink").at(-1)!.params;
    expect(made).toMatchObject({ chat_id: String(CHANNEL.id), name: "@bigchannel 30.11", creates_join_request: true });
    // the post: same text and formatting, the URL and text link through new short links, the invite and the button to the new invite
    const [shop, docs] = a.links;
    expect(a.post.text).toBe(`Spring sale: ${shop.trackingUrl} — Details. Join us: ${invite.invite_link}`);
    expect(a.post.entities.map((x: { offset: number; length: number }) => a.post.text.slice(x.offset, x.offset + x.length))).toEqual([
      "Spring sale",
      shop.trackingUrl,
      "Details",
      invite.invite_link,
    ]);
    expect(a.post.entities[2].url).toBe(docs.trackingUrl);
    expect(a.post.buttons).toEqual({ inline_keyboard: [[{ text: "Subscribe", url: invite.invite_link }]] });
    // the links are titled by the placement and their host
    expect((await linkRow(shop.id)).title).toBe("@bigchannel 30.11 · shop.example");
    expect((await linkRow(docs.id)).title).toBe("@bigchannel 30.11 · docs.example");

    // the same post for a second placement: links and an invite of its own
    const b = (await req("POST", "/api/placements", alice, { venue: "t.me/otherchannel", post })).json;
    expect(b.invites).toHaveLength(1);
    expect(b.invites[0].invite_link).not.toBe(invite.invite_link);
    expect(b.links.map((l: { id: number }) => l.id).filter((id: number) => a.links.some((x: { id: number }) => x.id === id))).toEqual([]);
    expect(b.post.buttons.inline_keyboard[0][0].url).toBe(b.invites[0].invite_link);
    // the channel's invites: the old one, and one per placement
    expect((await req("GET", `/api/channels/${channel.id}/invites`, alice)).json.map((i: { name: string }) => i.name).sort()).toEqual([
      "@bigchannel 30.11",
      `@otherchannel ${b.name.slice(-5)}`,
      "Old ad",
    ]);

    // channel_ids without a post: one new invite per channel
    const c = (await req("POST", "/api/placements", alice, { venue: "Newsletter", channel_ids: [channel.id] })).json;
    expect(c.venue).toEqual({ kind: "other", title: "Newsletter" });
    expect(c.invites).toHaveLength(1);
    expect(c.post).toBeUndefined();
    // Telegram refusing the invite leaves nothing behind
    s.fake.failNext.set("createChatInviteLink", { error_code: 400, description: "Bad Request: not enough rights" });
    const refused = await req("POST", "/api/placements", alice, { venue: "@x_channel", post });
    expect(refused.status).toBe(409);
    expect((await req("GET", "/api/placements?period=all", alice)).json).toHaveLength(3);
  });

  test("a failure after the invite and a first link are made leaves no live invite and no link behind", async () => {
    const channel = await aliceChannel();
    const before = (await req("GET", `/api/channels/${channel.id}/invites`, alice)).json.length;
    // room for two more links at planning; another request takes one while the invite is being made
    const limits = s.t.deps.config.planLimits.free as { links: number };
    const room = limits.links;
    limits.links = 2;
    const user = (
      await s.t.deps.asyncDb.select().from(s.t.deps.asyncDb.tables.users).where(eq(s.t.deps.asyncDb.tables.users.id, aliceId))
    )[0]!;
    const { createLink } = await import("../../core/links/links");
    s.fake.on("createChatInviteLink", async (p) => {
      await createLink(s.t.deps, user, { url: "https://elsewhere.example/" });
      return {
        invite_link: "https://t.me/+racefake01",
        creator: { id: 1, is_bot: true, first_name: "Bot" },
        creates_join_request: true,
        is_primary: false,
        is_revoked: false,
        name: p.name,
      };
    });
    const text = "a.example b.example t.me/adsclub";
    const post = { text, entities: [e("url", 0, 9), e("url", 10, 9), e("url", 20, 12)] };
    try {
      const res = await req("POST", "/api/placements", alice, { venue: "@bigchannel", post });
      expect(res.status).toBe(403);
    } finally {
      limits.links = room;
    }
    expect((await req("GET", "/api/placements?period=all", alice)).json).toEqual([]);
    // the one link left is the other request's; the placement's first link is gone again
    expect((await req("GET", "/api/links", alice)).json.map((l: { original_url: string }) => l.original_url)).toEqual([
      "https://elsewhere.example/",
    ]);
    const invites = (await req("GET", `/api/channels/${channel.id}/invites`, alice)).json;
    expect(invites).toHaveLength(before + 1);
    expect(invites.filter((i: { is_revoked: boolean }) => !i.is_revoked)).toHaveLength(before);
    expect(s.fake.callsOf("revokeChatInviteLink").map((c) => c.params.invite_link)).toEqual(["https://t.me/+racefake01"]);
  });
});

describe("figures", () => {
  test("exact on a small set-up, retention from the updates' dates, and one placement's joins and clicks never another's", async () => {
    const channel = await aliceChannel();
    const post = adPost("https://t.me/adsclub");
    const a = (await req("POST", "/api/placements", alice, { venue: "@bigchannel", cost: { amount: 5000, currency: "RUB" }, post })).json;
    const b = (await req("POST", "/api/placements", alice, { venue: "@smallchannel", cost: "$50", post })).json;
    expect(channel.id).toBeGreaterThan(0);
    const now = s.t.clock.now().getTime();
    // clicks: A's shop link 3 (2 unique) and a bot's; A's docs link 1 unique; B's shop link 1
    for (const ip of ["203.0.113.1", "203.0.113.1", "203.0.113.2"]) await visit(a.links[0].code, ip);
    await visit(a.links[0].code, "203.0.113.9", "Googlebot/2.1 (+http://www.google.com/bot.html)");
    await visit(a.links[1].code, "203.0.113.3");
    await visit(b.links[0].code, "203.0.113.1");
    await s.t.deps.clicks.flush();
    // joins through A: Ann 40 d ago (left after 10 d), Ben 8 d ago (stays), Cat 30 h ago (left after 2 h); through B: Dan 5 h ago
    const at = (hoursAgo: number) => secs(now - hoursAgo * HOUR);
    const viaA = { inviteLink: a.invites[0].invite_link };
    s.fake.pushChatMember(CHANNEL, { id: 1001, first_name: "Ann" }, "left", "member", at(40 * 24), viaA);
    s.fake.pushChatMember(CHANNEL, { id: 1002, first_name: "Ben" }, "left", "member", at(8 * 24), viaA);
    s.fake.pushChatMember(CHANNEL, { id: 1003, first_name: "Cat" }, "left", "member", at(30), viaA);
    s.fake.pushChatMember(CHANNEL, { id: 1003, first_name: "Cat" }, "member", "left", at(28));
    s.fake.pushChatMember(CHANNEL, { id: 1001, first_name: "Ann" }, "member", "left", at(30 * 24));
    s.fake.pushChatMember(CHANNEL, { id: 1004, first_name: "Dan" }, "left", "member", at(5), { inviteLink: b.invites[0].invite_link });
    // someone joining by the channel's name is nobody's
    s.fake.pushChatMember(CHANNEL, { id: 2001 }, "left", "member", at(4));
    await eventually(async () => (await req("GET", `/api/channels/${channel.id}/stats`, alice)).json.joins === 5, "five joins");
    // 10,000 views typed by hand
    expect((await req("PATCH", `/api/placements/${a.id}`, alice, { views: 10_000 })).json.stats.views).toBe(10_000);

    const stats = (await req("GET", `/api/placements/${a.id}`, alice)).json.stats;
    expect(stats).toEqual({
      views: 10_000,
      clicks: 4,
      unique_clicks: 3,
      joins: 3,
      leaves: 2,
      stayed: {
        h24: { eligible: 3, stayed: 2, rate: 0.6667 },
        d7: { eligible: 2, stayed: 2, rate: 1 },
        d30: { eligible: 1, stayed: 0, rate: 0 },
      },
      // the joins through its invites are its join conversions
      conversions: { count: 3, value: {}, by_event: { join: 3 } },
      cpm: 500,
      cpc: 1666.67,
      cost_per_join: 1666.67,
      cost_per_retained: 2500,
      roas: null,
    });
    // one definition of retention: the placement's `stayed` is its invite's retention
    expect((await req("GET", `/api/invites/${a.invites[0].id}/stats`, alice)).json.retention).toEqual(stats.stayed);
    expect((await req("GET", `/api/placements/${b.id}`, alice)).json.stats).toMatchObject({
      views: null,
      clicks: 1,
      unique_clicks: 1,
      joins: 1,
      leaves: 0,
      stayed: { h24: { eligible: 0, stayed: 0, rate: null } },
      cpm: null,
      cpc: 50,
      cost_per_join: 50,
      cost_per_retained: null,
    });
    // an existing invite bound by hand counts for its placement only; binding it again elsewhere is refused
    const old = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "Old ad" })).json;
    s.fake.pushChatMember(CHANNEL, { id: 1005, first_name: "Eve" }, "left", "member", at(3), { inviteLink: old.invite_link });
    await eventually(async () => (await req("GET", `/api/channels/${channel.id}/stats`, alice)).json.joins === 6, "six joins");
    let res = await req("POST", `/api/placements/${b.id}/invites`, alice, { invite_id: old.id });
    expect(res.status).toBe(201);
    expect(res.json.stats.joins).toBe(2);
    expect(res.json.invites.map((i: { id: number }) => i.id)).toContain(old.id);
    res = await req("POST", `/api/placements/${a.id}/invites`, alice, { invite_id: old.id });
    expect(res).toMatchObject({ status: 409, json: { error: "already_bound" } });
    expect((await req("GET", `/api/placements/${a.id}`, alice)).json.stats.joins).toBe(3);
    // a link bound by hand
    const own = (await req("POST", "/api/links", alice, { url: "https://shop.example/own" })).json;
    await visit(own.code, "203.0.113.4");
    await s.t.deps.clicks.flush();
    res = await req("POST", `/api/placements/${b.id}/links`, alice, { link_id: own.id });
    expect(res.json.stats).toMatchObject({ clicks: 2, unique_clicks: 2 });
    // deleting a placement keeps its links and invites
    expect((await req("DELETE", `/api/placements/${b.id}`, alice)).json).toEqual({ success: true });
    expect((await req("GET", `/api/links/${own.id}`, alice)).status).toBe(200);
    expect((await req("GET", `/api/invites/${old.id}`, alice)).status).toBe(200);
    expect((await req("GET", `/api/placements/${b.id}`, alice)).status).toBe(404);
  });

  test("the list: dated in the period, sorted by any figure, placements without it last", async () => {
    const now = s.t.clock.now().getTime();
    const day = (d: number) => new Date(now - d * 24 * HOUR).toISOString();
    const make = async (venue: string, cost: string | null, views: number | null, publishDaysAgo: number) => {
      const p = (await req("POST", "/api/placements", alice, { venue, cost, publish_at: day(publishDaysAgo) })).json;
      if (views !== null) await req("PATCH", `/api/placements/${p.id}`, alice, { views });
      return p.id as number;
    };
    const cheap = await make("Cheap", "1000 RUB", 10_000, 1); // cpm 100
    const dear = await make("Dear", "9000 RUB", 10_000, 2); // cpm 900
    const unseen = await make("Unseen", "500 RUB", null, 3); // cpm null
    const old = await make("Old", "100 RUB", 100_000, 60); // cpm 1, outside 30d
    const ids = async (q: string) => (await req("GET", `/api/placements${q}`, alice)).json.map((p: { id: number }) => p.id);
    expect(await ids("?sort=cpm&order=asc")).toEqual([cheap, dear, unseen]);
    expect(await ids("?sort=cpm&order=desc")).toEqual([dear, cheap, unseen]);
    expect(await ids("?sort=cpm&order=asc&period=all")).toEqual([old, cheap, dear, unseen]);
    expect(await ids("?sort=publish_at&order=desc&period=7d")).toEqual([cheap, dear, unseen]);
    expect(await ids("?sort=cost&order=asc&period=all")).toEqual([old, unseen, cheap, dear]);
    expect(await ids("?sort=views&period=90d")).toEqual([old, dear, cheap, unseen]);
    // money in other currencies: sorted within each currency, the account's (USD) first, none mixed
    const usd5 = await make("Five", "$5", 10_000, 4); // cpm 0.5 USD
    const usd200 = await make("Two hundred", "$200", 10_000, 5); // cpm 20 USD
    const free = await make("Free", null, 10_000, 6); // no cost: no cpm
    expect(await ids("?sort=cpm&order=asc&period=all")).toEqual([usd5, usd200, old, cheap, dear, free, unseen]);
    expect(await ids("?sort=cpm&order=desc&period=all")).toEqual([usd200, usd5, dear, cheap, old, free, unseen]);
    expect(await ids("?sort=cost&order=asc&period=all")).toEqual([usd5, usd200, old, unseen, cheap, dear, free]);
    expect(await ids("?sort=stayed&period=all")).toEqual(await ids("?sort=stayed_d7&period=all"));
    expect((await req("GET", "/api/placements?sort=nonsense", alice)).status).toBe(400);
    expect((await req("GET", "/api/placements?period=2w", alice)).status).toBe(400);
  });
});

describe("views", () => {
  test("read from the web preview as soon as the post is known, hourly for 48 h then daily to day 7; typed by hand otherwise", async () => {
    const job = placementViewsJob(() => null);
    const p = (await req("POST", "/api/placements", alice, { venue: "@bigchannel", cost: "10000" })).json;
    expect(p.cost).toEqual({ amount: 10000, currency: "USD" });
    await job.run(s.t.deps);
    expect(preview.hits).toEqual([]); // no post yet
    preview.views.set("bigchannel/15", "1.2K");
    const set = await req("PATCH", `/api/placements/${p.id}`, alice, {
      post_url: "t.me/bigchannel/15",
      publish_at: s.t.clock.now().toISOString(),
    });
    expect(set.json.post_url).toBe("https://t.me/bigchannel/15");
    await job.run(s.t.deps);
    expect(preview.hits).toEqual(["/bigchannel/15?embed=1"]);
    expect((await req("GET", `/api/placements/${p.id}`, alice)).json.stats).toMatchObject({ views: 1200, cpm: 8333.33 });
    // not due again within the hour
    s.t.clock.advance(30 * 60_000);
    await job.run(s.t.deps);
    expect(preview.hits).toHaveLength(1);
    s.t.clock.advance(30 * 60_000);
    preview.views.set("bigchannel/15", "15 012");
    await job.run(s.t.deps);
    const series = (await req("GET", `/api/placements/${p.id}/views`, alice)).json;
    expect(series.map((v: { views: number }) => v.views)).toEqual([1200, 15_012]);
    expect(new Date(series[1].at).getTime() - new Date(series[0].at).getTime()).toBe(HOUR);
    // the preview cannot tell: the figure stays, typed by hand it is a reading too
    preview.views.delete("bigchannel/15");
    s.t.clock.advance(HOUR);
    await job.run(s.t.deps);
    expect((await req("PATCH", `/api/placements/${p.id}`, alice, { views: 16_000 })).json.stats.views).toBe(16_000);
    expect((await req("GET", `/api/placements/${p.id}/views`, alice)).json.map((v: { views: number }) => v.views)).toEqual([
      1200, 15_012, 16_000,
    ]);
    expect((await req("PATCH", `/api/placements/${p.id}`, alice, { views: -1 })).status).toBe(400);
    expect((await req("PATCH", `/api/placements/${p.id}`, alice, { post_url: "https://example.com/x" })).status).toBe(400);

    // the schedule itself
    const pub = new Date("2026-12-01T10:00:00Z");
    const after = (h: number) => new Date(pub.getTime() + h * HOUR);
    expect(nextReadingAt(pub, after(0))).toEqual(after(1));
    expect(nextReadingAt(pub, after(47.5))).toEqual(after(48.5));
    expect(nextReadingAt(pub, after(48))).toEqual(after(72));
    expect(nextReadingAt(pub, after(160))).toEqual(after(168));
    expect(nextReadingAt(pub, after(168))).toBeNull();
  });

  test("with MTProto configured the views job runs beside the MTProto source and reads through it; without, it is a leased job", async () => {
    const mtproto = { apiId: 1, apiHash: "hash", session: "session" };
    const source = { views: async (channel: string, id: number) => (channel === "bigchannel" && id === 15 ? 4242 : null) };
    const beside = placementViewsPlacement({ mtproto }, () => source as unknown as MtprotoSource);
    expect(beside.leased).toEqual([]);
    expect(beside.withMtproto?.name).toBe("placement-views");
    const alone = placementViewsPlacement({ mtproto: null }, () => null);
    expect(alone.leased.map((j) => j.name)).toEqual(["placement-views"]);
    expect(alone.withMtproto).toBeNull();
    preview.views.set("bigchannel/15", "1.2K");
    const p = (await req("POST", "/api/placements", alice, { venue: "@bigchannel", post_url: "t.me/bigchannel/15" })).json;
    await beside.withMtproto!.run(s.t.deps);
    expect((await req("GET", `/api/placements/${p.id}`, alice)).json.stats.views).toBe(4242);
    expect(preview.hits).toEqual([]);
    const { placementViews: series } = s.t.deps.asyncDb.tables;
    expect((await s.t.deps.asyncDb.select().from(series)).map((r) => [r.views, r.source])).toEqual([[4242, "mtproto"]]);
  });

  test("two nodes reading at once record one reading; a new publish_at schedules the readings again", async () => {
    const job = placementViewsJob(() => null);
    preview.views.set("bigchannel/15", "500");
    const tenDaysAgo = new Date(s.t.clock.now().getTime() - 240 * HOUR).toISOString();
    const p = (await req("POST", "/api/placements", alice, { venue: "t.me/bigchannel/15", publish_at: tenDaysAgo })).json;
    await Promise.all([job.run(s.t.deps), job.run(s.t.deps)]);
    expect((await req("GET", `/api/placements/${p.id}/views`, alice)).json.map((v: { views: number }) => v.views)).toEqual([500]);
    // past day 7: no more readings, until the date moves
    s.t.clock.advance(HOUR);
    await job.run(s.t.deps);
    expect(preview.hits).toHaveLength(1);
    preview.views.set("bigchannel/15", "900");
    expect((await req("PATCH", `/api/placements/${p.id}`, alice, { publish_at: s.t.clock.now().toISOString() })).status).toBe(200);
    await job.run(s.t.deps);
    expect((await req("GET", `/api/placements/${p.id}/views`, alice)).json.map((v: { views: number }) => v.views)).toEqual([500, 900]);
  });

  test("watch_links finding a post carrying the placement's link sets its post URL, and its views are read", async () => {
    const p = (
      await req("POST", "/api/placements", alice, { venue: "@bigchannel", post: { text: "shop.example", entities: [e("url", 0, 12)] } })
    ).json;
    await createTracker(s.t.deps, aliceId, { name: "Where my links go", keyword: "zzzunlikely", watch_links: true });
    preview.views.set("bigchannel/77", "3.4M");
    // someone sharing the link in another channel, or forwarding the ad: not the ad post
    await ingestPost(s.t.deps, {
      chat: { chatId: "-1002220003", type: "channel", title: "Other", username: "otherchannel" },
      messageId: 5,
      text: `Look: ${p.links[0].trackingUrl}`,
    });
    await ingestPost(s.t.deps, {
      chat: { chatId: "-1002220002", type: "channel", title: "Big", username: "bigchannel" },
      messageId: 70,
      text: `Fwd: ${p.links[0].trackingUrl}`,
      forwarded: true,
    });
    expect((await req("GET", `/api/placements/${p.id}`, alice)).json.post_url).toBeNull();
    await ingestPost(s.t.deps, {
      chat: { chatId: "-1002220002", type: "channel", title: "Big", username: "bigchannel" },
      messageId: 77,
      text: `Best shop: ${p.links[0].trackingUrl}`,
    });
    expect((await req("GET", `/api/placements/${p.id}`, alice)).json.post_url).toBe("https://t.me/bigchannel/77");
    await placementViewsJob(() => null).run(s.t.deps);
    expect((await req("GET", `/api/placements/${p.id}`, alice)).json.stats.views).toBe(3_400_000);
    // a second post does not move it
    await ingestPost(s.t.deps, {
      chat: { chatId: "-1002220002", type: "channel", title: "Big", username: "bigchannel" },
      messageId: 78,
      text: `Again: ${p.links[0].trackingUrl}`,
    });
    expect((await req("GET", `/api/placements/${p.id}`, alice)).json.post_url).toBe("https://t.me/bigchannel/77");
  });
});

test("another account's placement is 404 on every route; another account's link or invite cannot be bound", async () => {
  const p = (await req("POST", "/api/placements", alice, { venue: "@bigchannel" })).json;
  const bobs = (await req("POST", "/api/placements", bob, { venue: "@bobs_channel" })).json;
  const bobLink = (await req("POST", "/api/links", bob, { url: "https://bob.example/" })).json;
  // bob's own channel and invite: ids that exist, only not alice's
  const BOB_CHANNEL = { id: -1001110009, type: "channel", title: "Bob's", username: "bobsclub" };
  s.fake.addChat(BOB_CHANNEL);
  s.fake.members.set(`${BOB_CHANNEL.id}:${BOB_TG}`, { status: "creator" });
  const bobChannel = (await req("POST", "/api/channels", bob, { chat: "@bobsclub" })).json;
  const bobInvite = (await req("POST", `/api/channels/${bobChannel.id}/invites`, bob, { name: "Bob's ad" })).json;
  expect([bobChannel.id, bobInvite.id].every((id) => Number.isInteger(id))).toBe(true);
  for (const [method, path, body] of [
    ["GET", "", undefined],
    ["PATCH", "", { notes: "mine now" }],
    ["DELETE", "", undefined],
    ["GET", "/views", undefined],
    ["POST", "/links", { link_id: bobLink.id }],
    ["POST", "/invites", { invite_id: bobInvite.id }],
  ] as const)
    expect({ method, path, status: (await req(method, `/api/placements/${p.id}${path}`, bob, body)).status }).toEqual({
      method,
      path,
      status: 404,
    });
  expect((await req("GET", "/api/placements?period=all", bob)).json.map((x: { id: number }) => x.id)).toEqual([bobs.id]);
  // alice binding bob's link to her own placement: 404, as if it did not exist
  expect((await req("POST", `/api/placements/${p.id}/links`, alice, { link_id: bobLink.id })).status).toBe(404);
  expect((await req("POST", `/api/placements/${p.id}/invites`, alice, { invite_id: bobInvite.id })).status).toBe(404);
  const invitesMade = s.fake.callsOf("createChatInviteLink").length;
  expect((await req("POST", "/api/placements", alice, { venue: "x", channel_ids: [bobChannel.id] })).status).toBe(404);
  // nothing was made in bob's channel, and bob's invite counts for no placement of alice's
  expect(s.fake.callsOf("createChatInviteLink")).toHaveLength(invitesMade);
  expect((await req("GET", "/api/placements?period=all", alice)).json.map((x: { id: number }) => x.id)).toEqual([p.id]);
  expect((await req("GET", `/api/placements/${p.id}`, alice)).json).toMatchObject({ links: [], invites: [] });
  expect((await req("GET", `/api/placements/${p.id}`, alice)).json.notes).toBeNull();
});

test("API tokens: write:links makes placements and links; making or binding invites needs write:channels too; read:links sees them", async () => {
  const channel = await aliceChannel();
  const token = async (scopes: string[]) =>
    (await req("POST", "/api/tokens", alice, { name: scopes.join(","), scopes })).json.token as string;
  const links = await token(["write:links"]);
  const both = await token(["write:links", "write:channels"]);
  const reader = await token(["read:links"]);
  const invitesMade = () => s.fake.callsOf("createChatInviteLink").length;
  const made = invitesMade();
  const own = { text: "shop.example t.me/adsclub", entities: [e("url", 0, 12), e("url", 13, 12)] };
  for (const body of [
    { venue: "@bigchannel", channel_ids: [channel.id] },
    { venue: "@bigchannel", post: own },
  ]) {
    const refused = await req("POST", "/api/placements", links, body);
    expect(refused).toMatchObject({ status: 403, json: { error: "insufficient_scope" } });
  }
  expect(invitesMade()).toBe(made);
  expect((await req("GET", "/api/placements?period=all", alice)).json).toEqual([]);
  expect((await req("GET", "/api/links", alice)).json).toEqual([]);
  // links only: write:links is enough
  const plain = await req("POST", "/api/placements", links, {
    venue: "@bigchannel",
    post: { text: "shop.example", entities: [e("url", 0, 12)] },
  });
  expect(plain.status).toBe(201);
  const withInvite = await req("POST", "/api/placements", both, { venue: "@bigchannel", post: own });
  expect(withInvite.status).toBe(201);
  expect(withInvite.json.invites).toHaveLength(1);
  const invite = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "By hand" })).json;
  expect((await req("POST", `/api/placements/${plain.json.id}/invites`, links, { invite_id: invite.id })).status).toBe(403);
  expect((await req("POST", `/api/placements/${plain.json.id}/invites`, both, { invite_id: invite.id })).status).toBe(201);
  // a placement's invites are part of it: read:links sees them
  expect((await req("GET", `/api/placements/${withInvite.json.id}`, reader)).json.invites).toHaveLength(1);
});

test("the channel's primary invite link (made in Telegram, not by the service) is the owner's: a new invite, not a short link", async () => {
  const primary = { ...CHANNEL, invite_link: "https://t.me/+PrImArY123" };
  s.fake.addChat(primary);
  const channel = await aliceChannel();
  const text = "Join t.me/joinchat/PrImArY123 or t.me/+SomeoneElse9";
  const post = { text, entities: [e("url", 5, 24), e("url", text.indexOf("t.me/+Some"), 18)] };
  const p = (await req("POST", "/api/placements", alice, { venue: "@bigchannel", post })).json;
  expect(p.invites).toMatchObject([{ channel_id: channel.id }]);
  // a link Telegram cannot name the chat of stays a tracked link
  expect(p.links.map((l: { original_url: string }) => l.original_url)).toEqual(["https://t.me/+SomeoneElse9"]);
  expect(p.post.text).toBe(`Join ${p.invites[0].invite_link} or ${p.links[0].trackingUrl}`);
  // asked once for a second post within minutes
  const asked = s.fake.callsOf("getChat").length;
  await req("POST", "/api/placements", alice, { venue: "@other_channel", post });
  expect(s.fake.callsOf("getChat")).toHaveLength(asked);
});

test("two binds of one link (or invite) to two placements at once: one binds it, the other is a 409", async () => {
  const channel = await aliceChannel();
  const [p1, p2] = await Promise.all(
    ["@one_channel", "@two_channel"].map(async (venue) => (await req("POST", "/api/placements", alice, { venue })).json),
  );
  const link = (await req("POST", "/api/links", alice, { url: "https://shop.example/both" })).json;
  const invite = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "Both" })).json;
  for (const [path, body] of [
    ["links", { link_id: link.id, invite_id: undefined }],
    ["invites", { invite_id: invite.id, link_id: undefined }],
  ] as const) {
    // side by side in one process, so both find the link unbound before either binds it
    const bind = path === "links" ? bindLink : bindInvite;
    const answers = await Promise.allSettled([p1, p2].map((p) => bind(s.t.deps, aliceId, p.id, body.link_id ?? body.invite_id)));
    expect({ path, answers: answers.map((a) => (a.status === "fulfilled" ? 201 : (a.reason as AppError).status)).sort() }).toEqual({
      path,
      answers: [201, 409],
    });
  }
  // binding again to the placement that has it is fine
  const owner = (await req("GET", `/api/placements/${p1.id}`, alice)).json.links.length ? p1 : p2;
  expect((await req("POST", `/api/placements/${owner.id}/links`, alice, { link_id: link.id })).status).toBe(201);
});

test("a tracking link in front of an invite counts once: bound directly to another placement it is a 409, either way round", async () => {
  const channel = await aliceChannel();
  const [a, b] = await Promise.all(
    ["@one_channel", "@two_channel"].map(async (venue) => (await req("POST", "/api/placements", alice, { venue })).json),
  );
  const invite = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "Fronted", link: true })).json;
  expect(invite.link_id).toBeNumber();
  expect((await req("POST", `/api/placements/${b.id}/invites`, alice, { invite_id: invite.id })).status).toBe(201);
  const direct = await req("POST", `/api/placements/${a.id}/links`, alice, { link_id: invite.link_id });
  expect([direct.status, direct.json.error, direct.json.message]).toEqual([
    409,
    "already_bound",
    "This link stands in front of an invite link that counts for another placement",
  ]);
  // its own placement may have it directly too: the click still counts there once
  expect((await req("POST", `/api/placements/${b.id}/links`, alice, { link_id: invite.link_id })).status).toBe(201);
  // the other way round: a link bound directly, then its invite to another placement
  const second = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "Fronted 2", link: true })).json;
  expect((await req("POST", `/api/placements/${a.id}/links`, alice, { link_id: second.link_id })).status).toBe(201);
  const viaInvite = await req("POST", `/api/placements/${b.id}/invites`, alice, { invite_id: second.id });
  expect([viaInvite.status, viaInvite.json.error]).toEqual([409, "already_bound"]);
  // one click on the first invite's link: counted by its placement alone
  const code = (await req("GET", `/api/links/${invite.link_id}`, alice)).json.code as string;
  await s.t.request("GET", `/${code}`, {
    headers: { "user-agent": "Mozilla/5.0 (Windows NT 10.0) Chrome/124.0", "x-forwarded-for": "203.0.113.9" },
  });
  await s.t.deps.clicks.flush();
  const clicks = async (id: number) => (await req("GET", `/api/placements/${id}`, alice)).json.stats.clicks;
  expect([await clicks(a.id), await clicks(b.id)]).toEqual([0, 1]);
});

test("publish_at: a day the calendar lacks, a typo or a year out of range is a 400 that keeps the date; null clears it", async () => {
  const p = (await req("POST", "/api/placements", alice, { venue: "@bigchannel", publish_at: "2026-11-25" })).json;
  for (const bad of ["2026-13-01", "2026-02-31", "2026-11-31T10:00:00Z", "0001-01-01", "9999-12-31", "tomorrow", ""]) {
    const res = await req("PATCH", `/api/placements/${p.id}`, alice, { publish_at: bad });
    expect({ bad, status: res.status, field: res.json.details?.[0]?.field }).toEqual({ bad, status: 400, field: "publish_at" });
    expect((await req("GET", `/api/placements/${p.id}`, alice)).json.publish_at).toBe("2026-11-25T00:00:00.000Z");
    expect((await req("POST", "/api/placements", alice, { venue: "@bigchannel", publish_at: bad })).status).toBe(400);
  }
  expect((await req("PATCH", `/api/placements/${p.id}`, alice, { publish_at: null })).json.publish_at).toBeNull();
});

test("a bare publish_at date is that day in the account's time zone, and names the placement by it", async () => {
  expect((await req("PATCH", "/api/settings", alice, { time_zone: "America/New_York" })).status).toBe(200);
  const p = (await req("POST", "/api/placements", alice, { venue: "@bigchannel", publish_at: "2026-11-30" })).json;
  expect(p).toMatchObject({ name: "@bigchannel 30.11", publish_at: "2026-11-30T05:00:00.000Z" });
  // a date-time keeps its own offset (UTC without one)
  const q = (await req("POST", "/api/placements", alice, { venue: "@bigchannel", publish_at: "2026-11-30T10:00:00Z" })).json;
  expect(q.publish_at).toBe("2026-11-30T10:00:00.000Z");
});

test("prices in every written form; a number alone in the account's currency (RUB in Russian, else USD, or the one chosen)", async () => {
  const price = async (cost: unknown) => {
    const res = await req("POST", "/api/placements", alice, { venue: "Somewhere", cost });
    return res.status === 201 ? res.json.cost : res.json.error;
  };
  expect(await price("5000")).toEqual({ amount: 5000, currency: "USD" });
  expect((await req("PATCH", "/api/settings", alice, { language: "ru" })).json).toMatchObject({ currency: "RUB", currency_chosen: null });
  const written: [string, number, string][] = [
    ["5000", 5000, "RUB"],
    ["5 000 ₽", 5000, "RUB"],
    ["5000 руб", 5000, "RUB"],
    ["5000 р.", 5000, "RUB"],
    ["5000 RUB", 5000, "RUB"],
    ["$50", 50, "USD"],
    ["50 usd", 50, "USD"],
    ["50 $", 50, "USD"],
    ["1 500,50 €", 1500.5, "EUR"],
    ["5,000.50", 5000.5, "RUB"],
  ];
  for (const [text, amount, currency] of written) expect({ text, cost: await price(text) }).toEqual({ text, cost: { amount, currency } });
  expect(await price({ amount: 10, currency: "eur" })).toEqual({ amount: 10, currency: "EUR" });
  // above a trillion is a typo, not a price (it would make every cost per view absurd)
  expect(await price({ amount: 1e13, currency: "USD" })).toBe("validation_error");
  expect(await price({ amount: 1e12, currency: "USD" })).toEqual({ amount: 1e12, currency: "USD" });
  for (const bad of ["five thousand", "5000 xyz", "$50 usd", "-5", "", "99999999999999999999999 ₽"])
    expect({ bad, error: await price(bad) }).toEqual({ bad, error: "validation_error" });
  expect((await req("PATCH", "/api/settings", alice, { currency: "eur" })).json).toMatchObject({ currency: "EUR", currency_chosen: "EUR" });
  expect(await price("300")).toEqual({ amount: 300, currency: "EUR" });
  expect((await req("PATCH", "/api/settings", alice, { currency: "ABC" })).status).toBe(400);
  expect((await req("PATCH", "/api/settings", alice, { currency: null })).json.currency).toBe("RUB");
});
