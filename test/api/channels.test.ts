import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { startBotApp } from "../bot/helpers";
import { FAKE_BOT } from "../helpers/fake-bot-api";
import { eventually } from "../helpers/eventually";
import { mergeAccounts } from "../../core/accounts/merge";
import { channelMembersJob } from "../../jobs/channel-members";
import { JOBS } from "../../jobs";
import { joinSeries } from "../../core/channels/export";

const CHANNEL = { id: -1001110001, type: "channel", title: "Ads Club", username: "adsclub" };
const ALICE_TG = 42;
const BOB_TG = 43;

let s: Awaited<ReturnType<typeof startBotApp>>;
let alice: string;
let bob: string;
beforeEach(async () => {
  s = await startBotApp();
  s.fake.addChat(CHANNEL);
  alice = (await s.t.telegramUser(ALICE_TG, "alice")).token;
  bob = (await s.t.telegramUser(BOB_TG, "bob")).token;
});
afterEach(() => s.stop());

const req = (method: string, path: string, token: string, body?: unknown) => s.t.request(method, path, { token, body });

/** alice, an administrator of CHANNEL, adds it to her account. */
async function aliceChannel() {
  s.fake.members.set(`${CHANNEL.id}:${ALICE_TG}`, { status: "creator" });
  const res = await req("POST", "/api/channels", alice, { chat: "@adsclub" });
  expect(res.status).toBe(201);
  return res.json as { id: number };
}

const secs = (d: Date) => Math.floor(d.getTime() / 1000);

describe("channels", () => {
  test("an administrator adds a chat where the bot is one; anyone else is told why not; another account sees 404", async () => {
    // alice is no administrator there
    let res = await req("POST", "/api/channels", alice, { chat: "@adsclub" });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe("not_chat_admin");
    // the bot is a plain member there
    s.fake.members.set(`${CHANNEL.id}:${FAKE_BOT.id}`, { status: "member" });
    s.fake.members.set(`${CHANNEL.id}:${ALICE_TG}`, { status: "administrator" });
    res = await req("POST", "/api/channels", alice, { chat: "@adsclub" });
    expect(res.status).toBe(409);
    expect(res.json.error).toBe("bot_not_admin");
    expect((await req("GET", "/api/channels", alice)).json).toEqual([]);
    // Telegram does not know the chat: its own words, never a 500
    s.fake.failNext.set("getChat", { error_code: 400, description: "Bad Request: chat not found" });
    res = await req("POST", "/api/channels", alice, { chat: "@nosuchchat" });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: "telegram_refused", message: "Bad Request: chat not found" });
    res = await req("POST", "/api/channels", alice, { chat: "not a chat" });
    expect(res.status).toBe(400);

    s.fake.members.delete(`${CHANNEL.id}:${FAKE_BOT.id}`);
    const channel = await aliceChannel();
    expect(channel).toMatchObject({
      chat_id: String(CHANNEL.id),
      type: "channel",
      title: "Ads Club",
      username: "adsclub",
      members: 1234,
      can_invite: true,
    });
    expect((await req("GET", "/api/channels", alice)).json.map((c: { id: number }) => c.id)).toEqual([channel.id]);
    expect((await req("GET", `/api/channels/${channel.id}`, alice)).json.title).toBe("Ads Club");
    for (const [method, path] of [
      ["GET", ""],
      ["GET", "/stats"],
      ["GET", "/members"],
      ["GET", "/requests"],
      ["GET", "/invites"],
      ["DELETE", ""],
    ] as const)
      expect((await req(method, `/api/channels/${channel.id}${path}`, bob)).status).toBe(404);
    expect((await req("POST", `/api/channels/${channel.id}/invites`, bob, { name: "Mine" })).status).toBe(404);
    expect((await req("GET", "/api/channels", bob)).json).toEqual([]);
    // a read-only token reads but does not change
    const ro = (await req("POST", "/api/tokens", alice, { name: "ro", scopes: ["read:channels"] })).json.token;
    expect((await req("GET", "/api/channels", ro)).status).toBe(200);
    expect((await req("POST", `/api/channels/${channel.id}/invites`, ro, { name: "x" })).status).toBe(403);
    expect((await req("DELETE", `/api/channels/${channel.id}`, alice)).json).toEqual({ success: true });
    expect((await req("GET", `/api/channels/${channel.id}`, alice)).status).toBe(404);
  });
});

describe("invites", () => {
  test("bad input is a 400 and Telegram's refusal a 409 with its words; nothing is made either way", async () => {
    const channel = await aliceChannel();
    const bad: [Record<string, unknown>, string][] = [
      [{ name: "x".repeat(33) }, "name"],
      [{ name: "" }, "name"],
      [{ name: "Ad", join_request: true, member_limit: 10 }, "member_limit"],
      [{ name: "Ad", member_limit: 0 }, "member_limit"],
      [{ name: "Ad", member_limit: 100_000 }, "member_limit"],
      [{ name: "Ad", cost: { amount: -1, currency: "USD" } }, "cost.amount"],
      [{ name: "Ad", cost: { amount: 10, currency: "ABC" } }, "cost.currency"],
      [{ name: "Ad", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
      [{ name: "Ad", welcome: "w".repeat(1001), join_request: true }, "welcome"],
    ];
    for (const [body, field] of bad) {
      const res = await req("POST", `/api/channels/${channel.id}/invites`, alice, body);
      expect(res.status).toBe(400);
      expect(res.json.details?.[0]?.field ?? res.json.message).toContain(field);
    }
    expect(s.fake.callsOf("createChatInviteLink")).toHaveLength(0);
    s.fake.failNext.set("createChatInviteLink", {
      error_code: 400,
      description: "Bad Request: not enough rights to manage chat invite links",
    });
    const refused = await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "Ad", link: true });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ error: "telegram_refused", message: "Bad Request: not enough rights to manage chat invite links" });
    expect((await req("GET", `/api/channels/${channel.id}/invites`, alice)).json).toEqual([]);
    expect((await req("GET", "/api/links", alice)).json).toEqual([]);
  });

  test("an invite with a price and a tracking link; edit through editChatInviteLink; revoke keeps it; another account's is 404", async () => {
    const channel = await aliceChannel();
    const res = await req("POST", `/api/channels/${channel.id}/invites`, alice, {
      name: "Crypto Daily ad",
      cost: { amount: 150, currency: "usd" },
      member_limit: 500,
      link: true,
    });
    expect(res.status).toBe(201);
    const invite = res.json;
    const made = s.fake.callsOf("createChatInviteLink")[0]!;
    expect(made.params).toMatchObject({
      chat_id: String(CHANNEL.id),
      name: "Crypto Daily ad",
      creates_join_request: false,
      member_limit: 500,
    });
    expect(invite).toMatchObject({
      channel_id: channel.id,
      name: "Crypto Daily ad",
      invite_link: made.result.invite_link,
      join_request: false,
      approve: "auto",
      member_limit: 500,
      cost: { amount: 150, currency: "USD" },
      is_revoked: false,
      stats: { joins: 0, leaves: 0, net: 0, pending: 0 },
    });
    expect(invite.trackingUrl).toMatch(/\/[A-Za-z0-9_-]+$/);
    const link = (await req("GET", `/api/links/${invite.link_id}`, alice)).json;
    expect(link.original_url).toBe(made.result.invite_link);

    const edited = await req("PATCH", `/api/invites/${invite.id}`, alice, {
      name: "Crypto Daily, May",
      cost: { amount: 200, currency: "EUR" },
    });
    expect(edited.json).toMatchObject({ name: "Crypto Daily, May", cost: { amount: 200, currency: "EUR" } });
    expect(s.fake.callsOf("editChatInviteLink")[0]!.params).toMatchObject({
      invite_link: invite.invite_link,
      name: "Crypto Daily, May",
      member_limit: 500,
    });
    expect((await req("PATCH", `/api/invites/${invite.id}`, alice, { name: "y".repeat(40) })).status).toBe(400);
    expect((await req("GET", `/api/invites/${invite.id}`, alice)).json.name).toBe("Crypto Daily, May");

    for (const [method, path] of [
      ["GET", ""],
      ["GET", "/stats"],
      ["PATCH", ""],
      ["DELETE", ""],
    ] as const)
      expect((await req(method, `/api/invites/${invite.id}${path}`, bob, method === "PATCH" ? { name: "mine" } : undefined)).status).toBe(
        404,
      );

    const revoked = await req("DELETE", `/api/invites/${invite.id}`, alice);
    expect(revoked.json.is_revoked).toBe(true);
    expect(s.fake.callsOf("revokeChatInviteLink")[0]!.params.invite_link).toBe(invite.invite_link);
    expect(
      (await req("GET", `/api/channels/${channel.id}/invites`, alice)).json.map((i: { id: number; is_revoked: boolean }) => [
        i.id,
        i.is_revoked,
      ]),
    ).toEqual([[invite.id, true]]);
    expect((await req("PATCH", `/api/invites/${invite.id}`, alice, { name: "again" })).json.error).toBe("invite_revoked");
  });
});

describe("joins and leaves", () => {
  test("attributed by the invite link, the rest with the reason; a leave goes to the latest join; a repeat counts once", async () => {
    const channel = await aliceChannel();
    const a = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "Ad A", cost: { amount: 100, currency: "USD" } }))
      .json;
    const b = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: "Ad B" })).json;
    const now = s.t.clock.now();
    const at = (hoursAgo: number) => secs(new Date(now.getTime() - hoursAgo * 3_600_000));
    // through A: 1, 2, 3 (3 leaves after 2 h, 1 leaves after 10 days); through B: 4
    s.fake.pushChatMember(CHANNEL, { id: 1001, first_name: "Ann", username: "ann" }, "left", "member", at(40 * 24), {
      inviteLink: a.invite_link,
    });
    s.fake.pushChatMember(CHANNEL, { id: 1002, first_name: "Ben" }, "left", "member", at(8 * 24), { inviteLink: a.invite_link });
    s.fake.pushChatMember(CHANNEL, { id: 1003, first_name: "Cat" }, "kicked", "member", at(30), { inviteLink: a.invite_link });
    s.fake.pushChatMember(CHANNEL, { id: 1003, first_name: "Cat" }, "member", "left", at(28));
    s.fake.pushChatMember(CHANNEL, { id: 1001, first_name: "Ann", username: "ann" }, "member", "left", at(30 * 24));
    s.fake.pushChatMember(CHANNEL, { id: 1004, first_name: "Dan" }, "left", "member", at(5), { inviteLink: b.invite_link });
    // unattributed: someone else's link, a folder, a join request without our link, by the public name
    s.fake.pushChatMember(CHANNEL, { id: 2001 }, "left", "member", at(4), { inviteLink: "https://t.me/+someoneelse" });
    s.fake.pushChatMember(CHANNEL, { id: 2002 }, "left", "member", at(4), { via_chat_folder_invite_link: true });
    s.fake.pushChatMember(CHANNEL, { id: 2003 }, "left", "member", at(4), { via_join_request: true });
    s.fake.pushChatMember(CHANNEL, { id: 2004 }, "left", "member", at(3));
    // a restricted member who is a member is one: no change; one who is not leaves
    s.fake.pushChatMember(CHANNEL, { id: 2004 }, "member", "restricted", at(2));
    s.fake.pushChatMember(CHANNEL, { id: 2002 }, "member", "restricted-out", at(2));
    // the same change again (a retry, another node): counted once
    s.fake.pushChatMember(CHANNEL, { id: 1004, first_name: "Dan" }, "left", "member", at(5), { inviteLink: b.invite_link });
    // someone who joined before the bot watched leaves
    s.fake.pushChatMember(CHANNEL, { id: 3001 }, "member", "left", at(1));

    const stats = await eventually(async () => {
      const r = (await req("GET", `/api/channels/${channel.id}/stats`, alice)).json;
      return r.leaves === 4 ? r : null;
    }, "four leaves");
    expect(stats).toEqual({
      joins: 8,
      leaves: 4,
      net: 4,
      members: 1234,
      by_invite: [
        { invite_id: a.id, name: "Ad A", joins: 3, leaves: 2, net: 1 },
        { invite_id: b.id, name: "Ad B", joins: 1, leaves: 0, net: 1 },
      ],
      unattributed: { joins: 4, leaves: 2 },
    });
    const journal = (await req("GET", `/api/channels/${channel.id}/members?limit=100`, alice)).json;
    expect(journal.total).toBe(9);
    expect(journal.data.map((r: { user_id: number; via: string }) => [r.user_id, r.via])).toEqual([
      [2004, "none"],
      [2003, "request"],
      [2002, "folder"],
      [2001, "other_link"],
      [1004, "invite"],
      [1003, "invite"],
      [1002, "invite"],
      [1001, "invite"],
      [3001, "none"],
    ]);
    expect(journal.data.find((r: { user_id: number }) => r.user_id === 1003)).toMatchObject({
      invite_id: a.id,
      first_name: "Cat",
      joined_at: new Date(at(30) * 1000).toISOString(),
      left_at: new Date(at(28) * 1000).toISOString(),
    });
    expect(journal.data.at(-1)).toMatchObject({ user_id: 3001, joined_at: null, left_at: new Date(at(1) * 1000).toISOString() });
    const onlyA = (await req("GET", `/api/channels/${channel.id}/members?invite_id=${a.id}&limit=2&page=2`, alice)).json;
    expect(onlyA).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(onlyA.data.map((r: { user_id: number }) => r.user_id)).toEqual([1001]);
    expect((await req("GET", `/api/channels/${channel.id}/members?invite_id=999999`, alice)).status).toBe(404);

    // retention of A: Ann (40 d ago, left after 10 d), Ben (8 d ago, stays), Cat (30 h ago, left after 2 h)
    const figures = (await req("GET", `/api/invites/${a.id}/stats`, alice)).json;
    expect(figures).toEqual({
      clicks: 0,
      unique_clicks: 0,
      joins: 3,
      leaves: 2,
      net: 1,
      conversion: null,
      retention: {
        h24: { eligible: 3, stayed: 2, rate: 0.6667 },
        d7: { eligible: 2, stayed: 2, rate: 1 },
        d30: { eligible: 1, stayed: 0, rate: 0 },
      },
      cost_per_join: 33.33,
      cost_per_retained: 50,
      // each join through the invite is a join conversion of its own
      conversions: { count: 3, value: {}, by_event: { join: 3 } },
    });
    expect((await req("GET", `/api/invites/${a.id}`, alice)).json.stats).toEqual({ joins: 3, leaves: 2, net: 1, pending: 0 });
    // a week later Dan (B) becomes eligible for 7 days
    s.t.clock.advance((7 * 24 - 4) * 3_600_000); // Dan (B, 5 h ago) is now 7 days and an hour in
    expect((await req("GET", `/api/invites/${b.id}/stats`, alice)).json).toMatchObject({
      retention: { d7: { eligible: 1, stayed: 1, rate: 1 } },
      cost_per_join: null,
      cost_per_retained: null,
    });
  });

  test("a chat no account holds is not journaled, and chat_member reaches the bot only because it asks for it", async () => {
    await eventually(() => s.fake.allowedUpdates, "the first getUpdates");
    expect(s.fake.allowedUpdates).toContain("chat_member");
    expect(s.fake.allowedUpdates).toContain("chat_join_request");
    expect(s.fake.allowedUpdates).toContain("message");
    s.fake.pushChatMember(CHANNEL, { id: 5 }, "left", "member", secs(s.t.clock.now()));
    await s.fake.handledAll(); // the join of 5 is handled while no account holds the chat
    const channel = await aliceChannel();
    s.fake.pushChatMember(CHANNEL, { id: 6 }, "left", "member", secs(s.t.clock.now()));
    const stats = await eventually(async () => {
      const r = (await req("GET", `/api/channels/${channel.id}/stats`, alice)).json;
      return r.joins ? r : null;
    }, "a join");
    expect(stats.joins).toBe(1);
  });
});

test("an account merge folds a chat both accounts hold; the merged-in account's invites follow to the survivor's channel", async () => {
  const channel = await aliceChannel();
  const { user: mail, token: mailToken } = await s.t.emailUser("ads@example.com");
  const { channels } = s.t.deps.asyncDb.tables;
  const [other] = await s.t.deps.asyncDb
    .insert(channels)
    .values({ userId: mail.id, chatId: String(CHANNEL.id), type: "channel", title: "Ads Club", canInvite: true })
    .returning();
  // made while that account ran the chat (an account without a Telegram identity can no longer make one through the API)
  const [invite] = await s.t.deps.asyncDb
    .insert(s.t.deps.asyncDb.tables.channelInvites)
    .values({
      userId: mail.id,
      channelId: other!.id,
      chatId: String(CHANNEL.id),
      name: "From the old account",
      inviteLink: "https://t.me/+old",
    })
    .returning();
  expect((await req("POST", `/api/channels/${other!.id}/invites`, mailToken, { name: "Another" })).json.error).toBe("not_chat_admin");
  const aliceUser = (await s.t.telegramUser(ALICE_TG, "alice")).user;
  await mergeAccounts(s.t.deps, mail.id, aliceUser.id);
  expect((await req("GET", "/api/channels", alice)).json.map((c: { id: number }) => c.id)).toEqual([channel.id]);
  expect(
    (await req("GET", `/api/channels/${channel.id}/invites`, alice)).json.map((i: { id: number; name: string; channel_id: number }) => [
      i.id,
      i.name,
      i.channel_id,
    ]),
  ).toEqual([[invite!.id, "From the old account", channel.id]]);
});

test("the member-count job refreshes every administered chat once", async () => {
  const channel = await aliceChannel();
  let asked = 0;
  s.fake.on("getChatMemberCount", () => (asked++, 1300));
  await channelMembersJob(s.t.deps);
  expect(asked).toBe(1);
  expect((await req("GET", `/api/channels/${channel.id}`, alice)).json.members).toBe(1300);
  expect(JOBS.find((j) => j.name === "channel-members")?.run).toBe(channelMembersJob);
});

test("the join journal goes to the chat as CSV and XLSX, and a joins-and-leaves chart as a PNG", async () => {
  const channel = await aliceChannel();
  const invite = (await req("POST", `/api/channels/${channel.id}/invites`, alice, { name: 'Ad, "quoted"' })).json;
  expect((await req("POST", `/api/channels/${channel.id}/export`, alice, { format: "csv" })).json).toMatchObject({ ok: false, rows: 0 });
  const t0 = secs(s.t.clock.now());
  s.fake.pushChatMember(CHANNEL, { id: 11, first_name: "Ann", username: "ann" }, "left", "member", t0 - 2 * 86_400, {
    inviteLink: invite.invite_link,
  });
  s.fake.pushChatMember(CHANNEL, { id: 12, first_name: "=cmd" }, "left", "member", t0 - 86_400);
  s.fake.pushChatMember(CHANNEL, { id: 11, first_name: "Ann", username: "ann" }, "member", "left", t0 - 3600);
  await eventually(async () => (await req("GET", `/api/channels/${channel.id}/stats`, alice)).json.leaves === 1, "the leave");
  const sentCsv = await req("POST", `/api/channels/${channel.id}/export`, alice, { format: "csv" });
  expect(sentCsv.json).toMatchObject({ ok: true, rows: 2 });
  const doc = s.fake.callsOf("sendDocument").at(-1)!;
  expect(doc.params.chat_id).toBe(ALICE_TG);
  const csv = new TextDecoder()
    .decode(doc.files.document!.bytes)
    .replace(/^\uFEFF/, "")
    .split("\r\n");
  expect(csv[0]).toBe("Joined — UTC,Left — UTC,User id,Username,First name,Invite,Via,Via join request");
  expect(csv[1]).toContain(",12,,'=cmd,,no link,no");
  expect(csv[2]).toContain(`,11,ann,Ann,"Ad, ""quoted""",an invite of yours,no`);
  expect((await req("POST", `/api/channels/${channel.id}/export`, alice, { format: "xlsx" })).json.ok).toBe(true);
  const xlsx = s.fake.callsOf("sendDocument").at(-1)!.files.document!;
  expect([...xlsx.bytes.slice(0, 2)]).toEqual([0x50, 0x4b]); // a zip, as every xlsx
  expect((await req("POST", `/api/channels/${channel.id}/export`, alice, { format: "pdf" })).status).toBe(400);
  expect((await req("POST", `/api/channels/${channel.id}/export`, bob, { format: "csv" })).status).toBe(404);

  expect((await req("POST", `/api/channels/${channel.id}/chart`, alice, { days: 7 })).json.ok).toBe(true);
  const photo = s.fake.callsOf("sendPhoto").at(-1)!;
  expect([...photo.files.photo!.bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  expect(photo.params.caption).toBe("Joins and leaves per day, Ads Club, last 7 days");
  const series = await joinSeries(s.t.deps, (await s.t.telegramUser(ALICE_TG, "alice")).user.id, channel.id, 3);
  expect(series.joins).toEqual([
    { name: 'Ad, "quoted"', data: [1, 0, 0] },
    { name: "Unattributed", data: [0, 1, 0] },
  ]);
  expect(series.leaves).toEqual([0, 0, 1]);
});
