import { afterEach, beforeEach, expect, test } from "bun:test";
import { startBotApp } from "./helpers";
import { BOT_ADMIN, FAKE_BOT } from "../helpers/fake-bot-api";
import { eventually } from "../helpers/eventually";
import { botRunner } from "../../bot/runtime";

const CHANNEL = { id: -1001110003, type: "channel", title: "Ads Club", username: "adsclub" };
const ADMIN = BOT_ADMIN;
const OWNER = { id: 42, is_bot: false, first_name: "Alice", username: "alice" };

let s: Awaited<ReturnType<typeof startBotApp>>;
beforeEach(async () => (s = await startBotApp()));
afterEach(() => s.stop());

const now = () => Math.floor(s.t.clock.now().getTime() / 1000);
const sent = (pred: (text: string) => boolean) => s.fake.waitFor("sendMessage", (c) => pred(String(c.params.text)));
const shown = (pred: (text: string) => boolean) =>
  eventually(
    () =>
      [...s.fake.calls]
        .reverse()
        .find((c) => (c.method === "sendMessage" || c.method === "editMessageText") && pred(String(c.params.text))),
    "a screen",
  );

test("made an administrator → /channels → channel → new invite → price → figures → revoke; deep links; another account's invite is not found", async () => {
  s.fake.pushMessage("/start", OWNER);
  await sent((t) => t.startsWith("👋 Welcome"));
  s.fake.pushUpdate({
    my_chat_member: {
      chat: CHANNEL,
      from: OWNER,
      date: now(),
      old_chat_member: { status: "left", user: FAKE_BOT },
      new_chat_member: ADMIN,
    },
  });
  const told = await sent((t) => t.includes("Ads Club") && t.includes("invite tracking"));
  expect(told.params.chat_id).toBe(OWNER.id);

  s.fake.pushMessage("/channels", OWNER);
  await shown((t) => t.startsWith("📣 <b>Your channels</b>"));
  s.fake.press("📣 Ads Club", OWNER);
  const channel = await shown((t) => t.startsWith("📣 <b>Ads Club</b>"));
  expect(String(channel.params.text)).toContain("Members: 1,234"); // numbers in the user's locale
  expect(String(channel.params.text)).toContain("Today: +0 / −0");
  expect(String(channel.params.text)).toContain("join requests: every join through them is counted");

  s.fake.press("➕ New invite", OWNER);
  await sent((t) => t.startsWith("🔗 New invite link."));
  s.fake.pushMessage("An ad name that is far too long for Telegram", OWNER);
  await sent((t) => t.startsWith("That name has 44 characters; Telegram allows 32."));
  s.fake.pushMessage("Crypto Daily", OWNER);
  await sent((t) => t === "How do people join through it? With requests every join is counted, even in a public channel.");
  s.fake.press("They join at once", OWNER);
  await sent((t) => t.startsWith("💰 What did the ad cost?"));
  s.fake.press("No price yet", OWNER);
  const made = await shown((t) => t.startsWith("✅ Invite link made."));
  expect(String(made.params.text)).toContain("<b>Crypto Daily</b>");
  expect(String(made.params.text)).toContain("Joined: 0 · left: 0 · net: 0");
  const link = s.fake.callsOf("createChatInviteLink")[0]!;
  expect(link.params).toMatchObject({ chat_id: String(CHANNEL.id), name: "Crypto Daily", creates_join_request: false });
  const inviteLink = link.result.invite_link as string;

  s.fake.press("💰 Price", OWNER);
  await sent((t) => t.startsWith("💰 Price: Send what the ad cost"));
  s.fake.pushMessage("100 XYZ", OWNER);
  await sent((t) => t.includes("ISO 4217") && t.includes("Try again"));
  s.fake.pushMessage("100 usd", OWNER);
  await shown((t) => t.startsWith("✅ Saved: Price."));

  // two join through the link, one leaves
  s.fake.pushChatMember(CHANNEL, { id: 901, first_name: "Ann" }, "left", "member", now() - 3600, { inviteLink });
  s.fake.pushChatMember(CHANNEL, { id: 902, first_name: "Ben" }, "left", "member", now() - 3000, { inviteLink });
  s.fake.pushChatMember(CHANNEL, { id: 902, first_name: "Ben" }, "member", "left", now() - 60);
  const { channelJoins } = s.t.deps.asyncDb.tables;
  await eventually(async () => (await s.t.deps.asyncDb.select().from(channelJoins)).some((j) => j.leftAt), "the leave");
  const inviteId = (await s.t.deps.asyncDb.select().from(s.t.deps.asyncDb.tables.channelInvites))[0]!.id;
  s.fake.pushMessage(`/start invite_${inviteId}`, OWNER);
  const figures = await shown((t) => t.startsWith("🔗 <b>Crypto Daily</b>") && t.includes("Joined: 2"));
  expect(String(figures.params.text)).toContain("Joined: 2 · left: 1 · net: 1");
  expect(String(figures.params.text)).toContain("Price: 100 USD · per join: 50.00 USD");

  s.fake.press("🚫 Revoke", OWNER);
  await shown((t) => t.startsWith("Revoke “Crypto Daily”?"));
  s.fake.press("🚫 Yes, revoke it", OWNER);
  await shown((t) => t.startsWith("🚫 Revoked"));
  expect(s.fake.callsOf("revokeChatInviteLink")[0]!.params.invite_link).toBe(inviteLink);

  const channelId = (await s.t.deps.asyncDb.select().from(s.t.deps.asyncDb.tables.channels))[0]!.id;
  s.fake.pushMessage(`/start channel_${channelId}`, OWNER);
  await shown((t) => t.startsWith("📣 <b>Ads Club</b>") && t.includes("In total: +2 / −1"));
  s.fake.pushMessage(`/start invite_${inviteId}`, { id: 43, username: "mallory", first_name: "Mallory" });
  await sent((t) => t.startsWith("⚠️ Invite not found"));
  s.fake.pushMessage("/help", OWNER);
  await sent((t) => t.includes("/channels — Your channels"));
});

test("the card of a tracking link in front of an invite shows the invite's joins", async () => {
  s.fake.addChat(CHANNEL);
  const { token } = await s.t.telegramUser(OWNER.id, "alice");
  s.fake.members.set(`${CHANNEL.id}:${OWNER.id}`, { status: "creator" });
  const channel = (await s.t.request("POST", "/api/channels", { token, body: { chat: "@adsclub" } })).json;
  const invite = (await s.t.request("POST", `/api/channels/${channel.id}/invites`, { token, body: { name: "Bitcoin News", link: true } }))
    .json;
  s.fake.pushChatMember(CHANNEL, { id: 77 }, "left", "member", now(), { inviteLink: invite.invite_link });
  await eventually(async () => (await s.t.request("GET", `/api/invites/${invite.id}`, { token })).json.stats.joins === 1, "the join");
  s.fake.pushMessage(`/start link_${invite.link_id}`, OWNER);
  await shown((t) => t.includes("📣 Invite “Bitcoin News”: joined 1 · left 0 · net 1"));
});

test("an invite link posted elsewhere: a watch_links tracker finds it, and the invite's screen and the API say where", async () => {
  s.fake.addChat(CHANNEL);
  const { token } = await s.t.telegramUser(OWNER.id, "alice");
  s.fake.members.set(`${CHANNEL.id}:${OWNER.id}`, { status: "creator" });
  const channel = (await s.t.request("POST", "/api/channels", { token, body: { chat: "@adsclub" } })).json;
  const invite = (await s.t.request("POST", `/api/channels/${channel.id}/invites`, { token, body: { name: "Partner post" } })).json;
  await s.t.request("POST", "/api/tracking", { token, body: { name: "My links", keyword: "zzqq", watch_links: true } });
  const partner = { id: -1001110009, type: "channel", title: "Partner News", username: "partnernews" };
  const hash = String(invite.invite_link).split("+")[1];
  s.fake.pushUpdate({ channel_post: { message_id: 70, date: now(), chat: partner, text: `Friends of ours: t.me/joinchat/${hash}` } });
  const placed = await eventually(async () => {
    const res = await s.t.request("GET", `/api/invites/${invite.id}/placements`, { token });
    return res.json.posts === 1 ? res.json : null;
  }, "the placement");
  expect(placed.items.map((p: { source_title: string; post_url: string }) => [p.source_title, p.post_url])).toEqual([
    ["Partner News", "https://t.me/partnernews/70"],
  ]);
  s.fake.pushMessage(`/start invite_${invite.id}`, OWNER);
  await shown(
    (t) =>
      t.startsWith("🔗 <b>Partner post</b>") &&
      t.includes('📍 Posted in 1 channel: <a href="https://t.me/partnernews/70">Partner News</a>'),
  );
});

test("in webhook mode the bot asks for chat_member too, with the whole list of update types", async () => {
  await botRunner(s.bot, s.t.deps).registerWebhook();
  const set = await s.fake.waitFor("setWebhook");
  expect(set.params.allowed_updates).toEqual(
    expect.arrayContaining(["message", "callback_query", "my_chat_member", "chat_join_request", "chat_member"]),
  );
  expect(s.fake.allowedUpdates).toEqual(set.params.allowed_updates);
});

for (const lang of ["en", "ru"] as const)
  test(`${lang}: the bot removed from a channel: the card says joins are no longer counted and offers no new invite`, async () => {
    const owner = { ...OWNER, id: lang === "en" ? 4201 : 4202, language_code: lang };
    const { t } = await import("../../core/i18n/translate");
    s.fake.pushMessage("/start", owner);
    await sent((x) => x.startsWith(lang === "en" ? "👋 Welcome" : "👋"));
    const membership = (old: object, now_: object) => ({
      my_chat_member: { chat: CHANNEL, from: owner, date: now(), old_chat_member: old, new_chat_member: now_ },
    });
    s.fake.pushUpdate(membership({ status: "left", user: FAKE_BOT }, ADMIN));
    await sent((x) => x.includes("Ads Club"));
    s.fake.pushUpdate(membership(ADMIN, { status: "left", user: FAKE_BOT }));
    await sent((x) => x === t(lang, "source-removed", { kind: "channel", title: "Ads Club" }));
    expect(t(lang, "source-removed", { kind: "channel", title: "Ads Club" })).toContain(
      lang === "en" ? "no longer counted" : "больше не считаются",
    );
    const removed = t(lang, "channel-not-admin");
    const listed = s.fake.calls.length;
    s.fake.pushMessage("/channels", owner);
    await s.fake.waitFor(
      "sendMessage",
      (c) => s.fake.calls.indexOf(c) >= listed && JSON.stringify(c.params.reply_markup ?? null).includes("⚠️ Ads Club"),
    );
    s.fake.press("⚠️ Ads Club", owner);
    const card = await shown((x) => x.startsWith("📣 <b>Ads Club</b>"));
    expect(String(card.params.text)).toContain(removed);
    const buttons = (card.params.reply_markup.inline_keyboard as { text: string }[][]).flat().map((b) => b.text);
    expect(buttons).not.toContain(t(lang, "channel-new-invite"));
    expect(removed).toContain(lang === "en" ? "no longer counted" : "больше не считаются");
  });
