/** @both-databases: postbacks out through the outbox, from the bot's real channel path and the redirect, and the Meta format. */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { startBotApp } from "../bot/helpers";
import { eventually } from "../helpers/eventually";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { createDeps } from "../../app";
import { deliveryWorker } from "../../app/delivery-routes";
import { claimDue } from "../../core/delivery/outbox";

setDefaultTimeout(30_000);

const CHANNEL = { id: -1001110002, type: "channel", title: "Deals", username: "deals" };
const OWNER_TG = 42;
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

let s: Awaited<ReturnType<typeof startBotApp>>;
let rx: WebhookReceiver;
let owner: string;
let channelId: number;
const closing: (() => void)[] = [];
beforeEach(async () => {
  rx = new WebhookReceiver().start();
  s = await startBotApp({ META_GRAPH_URL: `${rx.url}/graph`, TRUST_PROXY: "true" });
  s.fake.addChat(CHANNEL);
  owner = (await s.t.telegramUser(OWNER_TG, "alice")).token;
  s.fake.members.set(`${CHANNEL.id}:${OWNER_TG}`, { status: "creator" });
  channelId = (await s.t.request("POST", "/api/channels", { token: owner, body: { chat: CHANNEL.id } })).json.id;
});
afterEach(async () => {
  for (const close of closing.splice(0)) close();
  await s.stop();
  rx.stop();
});

const req = (method: string, path: string, body?: unknown, token = owner) => s.t.request(method, path, { token, body });
const now = () => Math.floor(s.t.clock.now().getTime() / 1000);

/** The service started again on the same database (another process's view of it: only what was committed). */
function reopen() {
  const deps = createDeps({ ...s.t.config, databaseUrl: null }, { clock: s.t.clock, log: s.t.deps.log });
  if (s.t.deps.asyncDb.engine === "postgres") deps.asyncDb = s.t.deps.asyncDb;
  closing.push(() => deps.handle.close());
  return deps;
}

async function visit(code: string, query = "") {
  const res = await s.t.request("GET", `/${code}${query}`, { headers: { "user-agent": CHROME, "x-forwarded-for": "81.2.69.160" } });
  expect(res.status).toBe(302);
  return res.headers.get("location")!;
}

test("each event's postback is delivered once, with its macros, through a restart of the service", async () => {
  const template = `${rx.url}/pb?e={event}&c={click_id}&s={sub1}&v={value}&cur={currency}&x={external_id}&tg={tg_user_id}`;
  const made = await req("POST", "/api/postbacks", { url: template, events: ["click", "join_request", "join", "leave", "purchase"] });
  expect(made.status).toBe(201);
  expect(made.json).toMatchObject({ kind: "url", method: "GET", link_id: null, placement_id: null });
  // a postback of another account sees none of it
  const other = (await s.t.telegramUser(77, "mallory")).token;
  expect((await req("POST", "/api/postbacks", { url: `${rx.url}/theirs`, events: ["*"] }, other)).status).toBe(201);

  const link = (await req("POST", "/api/links", { url: "https://t.me/shop_bot?start={click_id}" })).json;
  const clickId = /start=(.+)$/.exec(await visit(link.code, "?sub1=net%20a"))![1]!;
  // Telegram's link preview fetches the link too: a bot click, which no click postback reports
  const preview = await s.t.request("GET", `/${link.code}`, { headers: { "user-agent": "TelegramBot (like TwitterBot)" } });
  expect(preview.status).toBe(302);
  await s.t.deps.clicks.flush();
  const invite = (await req("POST", `/api/channels/${channelId}/invites`, { name: "Ad", join_request: true })).json;
  s.fake.pushUpdate({
    chat_join_request: {
      chat: CHANNEL,
      from: { is_bot: false, id: 501, first_name: "Eve" },
      user_chat_id: 501,
      date: now(),
      invite_link: s.fake.inviteLinks.get(invite.invite_link),
    },
  });
  await s.fake.waitFor("approveChatJoinRequest", (c) => c.params.user_id === 501);
  s.fake.pushChatMember(CHANNEL, { id: 501, first_name: "Eve" }, "left", "member", now() + 1, { via_join_request: true });
  s.fake.pushChatMember(CHANNEL, { id: 501, first_name: "Eve" }, "member", "left", now() + 2);
  await eventually(async () => ((await req("GET", `/api/invites/${invite.id}/stats`)).json.leaves === 1 ? true : null), "the leave");
  const sale = await req("POST", "/api/conversions", {
    event: "purchase",
    click_id: clickId,
    value: 25,
    currency: "USD",
    external_id: "o-1",
  });
  expect(sale.status).toBe(201);

  // the service stops with two deliveries claimed but never sent; another start takes over
  await claimDue(s.t.deps, 2, { excludeHosts: ["bot"] });
  const deps = reopen();
  s.t.clock.advance(60_000); // past the dead node's claims
  const worker = deliveryWorker(deps);
  await worker.drain();
  await worker.drain();
  const got = rx.received.filter((r) => r.path === "/pb");
  expect(got.map((r) => r.query.e).sort()).toEqual(["click", "join", "join_request", "leave", "purchase"]);
  const by = Object.fromEntries(got.map((r) => [r.query.e, r.query]));
  expect(by.click).toMatchObject({ c: clickId, s: "net a", v: "", tg: "" });
  expect(by.purchase).toMatchObject({ c: clickId, s: "net a", v: "25", cur: "USD", x: "o-1" });
  expect(by.join_request).toMatchObject({ tg: "501", c: "" });
  expect(by.join).toMatchObject({ tg: "501" });
  expect(by.leave).toMatchObject({ tg: "501" });
  expect(new Set(got.map((r) => r.headers["x-webhook-id"])).size).toBe(5);
  expect(got.every((r) => /^t=\d+,v1=[0-9a-f]{64}$/.test(r.headers["x-webhook-signature"] ?? ""))).toBe(true);
  expect(rx.received.filter((r) => r.path === "/theirs")).toEqual([]);

  // the log shows each delivery done; draining again sends nothing twice
  const log = await req("GET", `/api/postbacks/${made.json.id}/deliveries`);
  expect(log.json.map((d: { status: string }) => d.status)).toEqual(["done", "done", "done", "done", "done"]);
  await deliveryWorker(s.t.deps).drain();
  expect(rx.received.filter((r) => r.path === "/pb")).toHaveLength(5);
});

test("a Meta postback sends a Conversions API event: the conversion's id, fbc from the click's fbclid, the visitor's address and agent, the value", async () => {
  const made = await req("POST", "/api/postbacks", {
    kind: "meta",
    pixel_id: "1234567890",
    access_token: "EAAB-secret",
    events: ["purchase"],
  });
  expect(made.status).toBe(201);
  expect(JSON.stringify(made.json)).not.toContain("EAAB-secret");
  const link = (await req("POST", "/api/links", { url: "https://shop.example/?cid={click_id}" })).json;
  const clickedAt = s.t.clock.now().getTime();
  const clickId = /cid=(.+)$/.exec(await visit(link.code, "?fbclid=IwAR0abc"))![1]!;
  await s.t.deps.clicks.flush();
  const sale = await req("POST", "/api/conversions", { event: "purchase", click_id: clickId, value: 49.9, currency: "EUR" });
  await deliveryWorker(s.t.deps).drain();
  const [sent] = rx.received.filter((r) => r.path.startsWith("/graph"));
  expect(sent!.method).toBe("POST");
  expect(sent!.path).toBe("/graph/v21.0/1234567890/events");
  expect(sent!.query.access_token).toBe("EAAB-secret");
  expect(JSON.parse(sent!.body)).toEqual({
    data: [
      {
        event_name: "Purchase",
        event_time: Math.floor(s.t.clock.now().getTime() / 1000),
        event_id: String(sale.json.id),
        action_source: "website",
        event_source_url: `${s.t.config.shortUrl}/${link.code}`,
        user_data: { fbc: `fb.1.${clickedAt}.IwAR0abc`, client_ip_address: "81.2.69.160", client_user_agent: CHROME },
        custom_data: { value: 49.9, currency: "EUR" },
      },
    ],
  });
});

test("a postback per link or placement takes only their events; POST sends the values as JSON; a test send reports the answer; deleting cancels", async () => {
  const a = (await req("POST", "/api/links", { url: "https://a.example/?c={click_id}" })).json;
  const b = (await req("POST", "/api/links", { url: "https://b.example/?c={click_id}" })).json;
  const made = await req("POST", "/api/postbacks", { url: `${rx.url}/json/{event}`, method: "POST", events: ["lead"], link_id: a.id });
  expect(made.status).toBe(201);
  const ca = /c=(.+)$/.exec(await visit(a.code))![1]!;
  const cb = /c=(.+)$/.exec(await visit(b.code))![1]!;
  await req("POST", "/api/conversions", { event: "lead", click_id: ca });
  await req("POST", "/api/conversions", { event: "lead", click_id: cb });
  await deliveryWorker(s.t.deps).drain();
  const got = rx.received.filter((r) => r.path === "/json/lead");
  expect(got).toHaveLength(1);
  expect(got[0]!.headers["content-type"]).toBe("application/json");
  expect(JSON.parse(got[0]!.body)).toMatchObject({ event: "lead", click_id: ca, link_id: a.id, code: a.code });

  rx.respond = 500;
  const test1 = await req("POST", `/api/postbacks/${made.json.id}/test`);
  expect(test1.json).toMatchObject({ ok: false, status: 500, error: "the target answered 500" });
  rx.respond = 200;
  expect((await req("POST", `/api/postbacks/${made.json.id}/test`)).json).toMatchObject({ ok: true, status: 200, body: "ok" });

  await req("POST", "/api/conversions", { event: "lead", click_id: ca });
  expect((await req("DELETE", `/api/postbacks/${made.json.id}`)).json).toEqual({ success: true });
  const before = rx.received.length;
  await deliveryWorker(s.t.deps).drain();
  expect(rx.received.length).toBe(before);
  expect((await req("GET", `/api/postbacks/${made.json.id}`)).status).toBe(404);
  expect((await req("GET", "/api/postbacks")).json).toEqual([]);
  // another account's link cannot be chosen
  const other = (await s.t.telegramUser(77, "mallory")).token;
  expect((await req("POST", "/api/postbacks", { url: `${rx.url}/x`, events: ["click"], link_id: a.id }, other)).status).toBe(404);
  const bad = await req("POST", "/api/postbacks", { url: "ftp://x/{click_id}", events: ["click"] });
  expect([bad.status, bad.json.details[0].field]).toEqual([400, "url"]);
  // a misspelt macro would go out as it is: refused, naming it and the macros there are
  const typo = await req("POST", "/api/postbacks", { url: `${rx.url}/pb?c={clickid}`, events: ["click"] });
  expect([typo.status, typo.json.details[0].field]).toEqual([400, "url"]);
  expect(typo.json.details[0].message).toContain("{clickid} is not a macro");
  expect(typo.json.details[0].message).toContain("{click_id}");
});

test("after an account merge, click postbacks go out for the links each account brought, both ways round", async () => {
  const { mergeAccounts } = await import("../../core/accounts/merge");
  const links: number[] = [];
  // first the merged-in account has the click postback and the survivor the link, then the other way
  for (const [n, postbackOn] of [
    [1, "merged-in"],
    [2, "survivor"],
  ] as const) {
    const mail = await s.t.emailUser(`merge${n}@example.com`);
    const tg = await s.t.telegramUser(500 + n, `tguser${n}`);
    const [withPostback, withLink] = postbackOn === "merged-in" ? [mail.token, tg.token] : [tg.token, mail.token];
    expect(
      (await req("POST", "/api/postbacks", { url: `${rx.url}/pb?c={click_id}&l={link_id}`, events: ["click"] }, withPostback)).status,
    ).toBe(201);
    const link = (await req("POST", "/api/links", { url: `https://shop.example/${n}` }, withLink)).json;
    await mergeAccounts(s.t.deps, mail.user.id, tg.user.id);
    await visit(link.code);
    links.push(link.id);
  }
  await s.t.deps.clicks.flush();
  const worker = deliveryWorker(s.t.deps);
  await eventually(async () => {
    await worker.drain();
    return rx.received.filter((r) => r.path === "/pb").length === 2 ? true : null;
  }, "both click postbacks");
  expect(
    rx.received
      .filter((r) => r.path === "/pb")
      .map((r) => Number(r.query.l))
      .sort((a, b) => a - b),
  ).toEqual(links);
});
