/**
 * A chat is the account's to run through the bot only while its Telegram user runs it: the creator,
 * or an administrator with the right to invite users. Driven through the fake Bot API: Telegram's
 * `chat_member` updates about the owner (demoted, left, removed), its getChatMember answers, and
 * every power tried afterwards in the API and in the bot.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Api } from "grammy";
import { startBotApp } from "../bot/helpers";
import { FAKE_BOT, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { eventually } from "../helpers/eventually";
import { deliveryWorker } from "../../app/delivery-routes";
import { queueBotMessage } from "../../core/delivery/outbox";
import { STANDING_TTL_MS } from "../../core/channels/standing";

const GROUP = { id: -1002220001, type: "supergroup", title: "Private Deals" };
const ALICE = { id: 42, is_bot: false, first_name: "Alice", username: "alice" };
const ADMIN_BOT = {
  status: "administrator",
  user: FAKE_BOT,
  can_be_edited: false,
  is_anonymous: false,
  can_manage_chat: true,
  can_delete_messages: true,
  can_manage_video_chats: false,
  can_restrict_members: true,
  can_promote_members: false,
  can_change_info: false,
  can_invite_users: true,
  can_post_stories: false,
  can_edit_stories: false,
  can_delete_stories: false,
};

// each test walks a whole story through the bot and the API: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

let s: Awaited<ReturnType<typeof startBotApp>>;
let alice: string;
beforeEach(async () => {
  s = await startBotApp();
  s.fake.addChat(GROUP);
  alice = (await s.t.telegramUser(ALICE.id, "alice")).token;
});
afterEach(() => s.stop());

const req = (method: string, path: string, body?: unknown, token = alice) => s.t.request(method, path, { token, body });
const now = () => Math.floor(s.t.clock.now().getTime() / 1000);
/** What Telegram sent alice, delivered from the outbox first. */
async function toldAlice(pred: (text: string) => boolean) {
  await s.fake.handledAll();
  await deliveryWorker(s.t.deps).drain();
  return s.fake.waitFor("sendMessage", (c) => c.params.chat_id === ALICE.id && pred(String(c.params.text)));
}
const shown = (pred: (text: string) => boolean) =>
  eventually(
    () =>
      [...s.fake.calls]
        .reverse()
        .find((c) => (c.method === "sendMessage" || c.method === "editMessageText") && pred(String(c.params.text))),
    "a screen",
  );

/** alice makes the bot an administrator of GROUP, standing as `standing` there (Telegram's word). */
function aliceAddsTheBot(standing: { status: string; can_invite_users?: boolean }) {
  s.fake.members.set(`${GROUP.id}:${ALICE.id}`, standing);
  s.fake.pushUpdate({
    my_chat_member: {
      chat: GROUP,
      from: ALICE,
      date: now(),
      old_chat_member: { status: "left", user: FAKE_BOT },
      new_chat_member: ADMIN_BOT,
    },
  });
}

/** alice's channel, her invites (open and manual), a waiting request, a chat tracker and a plain one. */
async function aliceRunsGroup() {
  aliceAddsTheBot({ status: "administrator", can_invite_users: true });
  await s.fake.waitFor("sendMessage", (c) => c.params.chat_id === ALICE.id && String(c.params.text).includes("invite tracking"));
  const [channel] = (await req("GET", "/api/channels")).json as { id: number }[];
  const open = (await req("POST", `/api/channels/${channel!.id}/invites`, { name: "Open ad" })).json;
  const manual = (await req("POST", `/api/channels/${channel!.id}/invites`, { name: "Asked ad", join_request: true, approve: "manual" }))
    .json;
  expect([open.id, manual.id].every(Number.isInteger)).toBe(true);
  s.fake.pushUpdate({
    chat_join_request: {
      chat: GROUP,
      from: { id: 501, is_bot: false, first_name: "Eve" },
      user_chat_id: 501,
      date: now(),
      invite_link: s.fake.inviteLinks.get(manual.invite_link),
    },
  });
  await toldAlice((t) => t.includes("Eve") && t.includes("Asked ad"));
  const [request] = (await req("GET", `/api/channels/${channel!.id}/requests`)).json as { id: number }[];
  const inChat = (await req("POST", "/api/tracking", { name: "Team", keyword: "ethereum", notify_via: "chat", notify_chat_id: GROUP.id }))
    .json;
  const plain = (await req("POST", "/api/tracking", { name: "BTC", keyword: "bitcoin" })).json;
  // while she runs it, the group's messages reach her trackers
  postInGroup(1, "bitcoin is up");
  await eventually(async () => (await req("GET", `/api/tracking/${plain.id}/matches`)).json.items.length === 1 || null, "a match");
  return { channel: channel!, open, manual, request: request!, inChat, plain };
}

function postInGroup(messageId: number, text: string) {
  s.fake.pushUpdate({
    message: { message_id: messageId, date: now(), chat: GROUP, from: { id: 900, is_bot: false, first_name: "Member" }, text },
  });
}

/** Every power in the API, tried by someone who no longer runs the chat: each the same refusal. */
async function everyPowerRefused(a: Awaited<ReturnType<typeof aliceRunsGroup>>, code: string, why: RegExp) {
  const tries = [
    ["POST", `/api/channels/${a.channel.id}/invites`, { name: "One more" }],
    ["PATCH", `/api/invites/${a.open.id}`, { name: "Renamed" }],
    ["DELETE", `/api/invites/${a.open.id}`],
    ["GET", `/api/channels/${a.channel.id}/requests`],
    ["POST", `/api/requests/${a.request.id}/approve`],
    ["POST", `/api/requests/${a.request.id}/decline`],
    ["GET", `/api/channels/${a.channel.id}/members`],
    ["GET", `/api/channels/${a.channel.id}/stats`],
    ["GET", `/api/channels/${a.channel.id}/series`],
    ["POST", `/api/channels/${a.channel.id}/export`, { format: "csv" }],
    ["POST", `/api/channels/${a.channel.id}/chart`, {}],
    ["PATCH", `/api/tracking/${a.inChat.id}`, { notify_thread_id: 5 }],
    ["PATCH", `/api/tracking/${a.plain.id}`, { notify_via: "chat", notify_chat_id: GROUP.id }],
    ["POST", "/api/channels", { chat: GROUP.id }],
  ] as const;
  for (const [method, path, body] of tries) {
    const res = await req(method, path, body);
    expect([method, path, res.status, res.json.error]).toEqual([method, path, 403, code]);
    expect(res.json.message).toMatch(why);
  }
  // nothing reached Telegram on her behalf
  expect(s.fake.callsOf("createChatInviteLink")).toHaveLength(2);
  expect(s.fake.callsOf("editChatInviteLink")).toHaveLength(0);
  expect(s.fake.callsOf("revokeChatInviteLink")).toHaveLength(0);
  expect(s.fake.callsOf("approveChatJoinRequest")).toHaveLength(0);
  expect(s.fake.callsOf("declineChatJoinRequest")).toHaveLength(0);
}

describe("an owner who stops running the chat", () => {
  for (const [to, why, said] of [
    ["member", /not an administrator/, "you are no longer an administrator there"],
    ["left", /have left this chat/, "you left it"],
    ["kicked", /were removed from this chat/, "you were removed from it"],
  ] as const)
    test(`${to === "member" ? "demoted" : to}: told at once; every power refused in the API and the bot; their invites' figures stay; made an administrator again, all comes back`, async () => {
      const a = await aliceRunsGroup();
      s.fake.pushChatMember(GROUP, { id: ALICE.id, first_name: "Alice", username: "alice" }, "administrator", to, now());
      const lost = await toldAlice((t) => t.includes("no longer yours"));
      expect(String(lost.params.text)).toBe(
        `⚠️ “Private Deals” is no longer yours to run through me: Telegram says ${said}. From now on I make no invite links and settle no join requests there for you, its messages no longer reach your trackers, your notifications no longer go into it, and its list of who joined is closed to you. Your invite links keep their figures in /channels. If you are made an administrator with the right to invite users again, all of it comes back.`,
      );
      const askedOfAlice = () => s.fake.callsOf("getChatMember").filter((c) => c.params.user_id === ALICE.id).length;
      const asked = askedOfAlice();
      await everyPowerRefused(a, "not_chat_admin", why);
      // the update said so: Telegram was not asked again within the minute, but by the claim, which always asks
      expect(askedOfAlice() - asked).toBe(1);

      // her own invites and their figures stay readable
      const open = await req("GET", `/api/invites/${a.open.id}`);
      expect([open.status, open.json.name, open.json.stats]).toEqual([200, "Open ad", { joins: 0, leaves: 0, net: 0, pending: 0 }]);
      expect((await req("GET", `/api/invites/${a.open.id}/stats`)).status).toBe(200);
      expect((await req("GET", `/api/channels/${a.channel.id}/invites`)).json.map((i: { name: string }) => i.name).sort()).toEqual([
        "Asked ad",
        "Open ad",
      ]);

      // the group's messages no longer reach her trackers
      postInGroup(2, "bitcoin and ethereum again");
      await s.fake.handledAll();
      expect((await req("GET", `/api/tracking/${a.plain.id}/matches`)).json.items.length).toBe(1);
      expect((await req("GET", `/api/tracking/${a.inChat.id}/matches`)).json.items).toEqual([]);
      // a notification queued for the chat before is not posted into it
      await queueBotMessage(s.t.deps.asyncDb, s.t.clock.now(), {
        userId: (await s.t.telegramUser(ALICE.id)).user.id,
        topic: "tracker_chat",
        chatId: String(GROUP.id),
        params: { text: "🔔 Team: new match" },
      });
      await deliveryWorker(s.t.deps).drain();
      expect(s.fake.callsOf("sendMessage").filter((c) => String(c.params.chat_id) === String(GROUP.id))).toEqual([]);
      // a new request through her invite waits for the chat's administrators: she is not asked, nothing is settled
      s.fake.pushUpdate({
        chat_join_request: {
          chat: GROUP,
          from: { id: 502, is_bot: false, first_name: "Finn" },
          user_chat_id: 502,
          date: now() + 1,
          invite_link: s.fake.inviteLinks.get(a.manual.invite_link),
        },
      });
      await s.fake.handledAll();
      await deliveryWorker(s.t.deps).drain();
      expect(s.fake.callsOf("sendMessage").filter((c) => String(c.params.text).includes("Finn"))).toEqual([]);

      // the bot: Approve under the old request message says why; the channel's screen offers her invites only
      s.fake.press("✅ Approve", ALICE);
      const alert = await s.fake.waitFor("answerCallbackQuery", (c) => c.params.show_alert === true);
      expect(alert.params.text).toMatch(why);
      s.fake.pushMessage("/channels", ALICE);
      await shown((t) => t.startsWith("📣 <b>Your channels</b>"));
      s.fake.press("📣 Private Deals", ALICE);
      const screen = await shown((t) => t.startsWith("📣 <b>Private Deals</b>"));
      expect(String(screen.params.text)).toMatch(why);
      expect(String(screen.params.text)).toContain(
        "New invite links, join requests, the list of who joined and the chart are closed to you",
      );
      const labels = (screen.params.reply_markup?.inline_keyboard ?? []).flat().map((b: { text: string }) => b.text);
      expect(labels).toContain("🔗 Open ad");
      expect(labels).not.toContain("➕ New invite");
      expect(labels).not.toContain("🙋 Requests");
      expect(s.fake.callsOf("approveChatJoinRequest")).toHaveLength(0);

      // made an administrator with the right to invite users again: told, and every power is back
      s.fake.pushChatMember(
        GROUP,
        { id: ALICE.id, first_name: "Alice", username: "alice" },
        to === "member" ? "member" : "left",
        "administrator",
        now() + 2,
      );
      await toldAlice((t) => t.startsWith("✅ You run “Private Deals” again"));
      expect((await req("POST", `/api/channels/${a.channel.id}/invites`, { name: "Back" })).status).toBe(201);
      expect((await req("GET", `/api/channels/${a.channel.id}/members`)).status).toBe(200);
      expect((await req("POST", `/api/requests/${a.request.id}/approve`)).status).toBe(200);
    });
});

describe("rights escalation: an administrator without the right to invite users", () => {
  test("cannot claim the chat by making the bot an administrator, nor through the API", async () => {
    aliceAddsTheBot({ status: "administrator", can_invite_users: false });
    const told = await s.fake.waitFor("sendMessage", (c) => c.params.chat_id === ALICE.id);
    expect(String(told.params.text)).toContain(
      "⚠️ It is not added to your channels, because you do not have the right to invite users there: only its creator or an administrator with the right to invite users can have me make invite links and read its messages for them.",
    );
    expect((await req("GET", "/api/channels")).json).toEqual([]);
    const res = await req("POST", "/api/channels", { chat: GROUP.id });
    expect([res.status, res.json.error]).toEqual([403, "no_invite_right"]);
    expect(res.json.message).toContain("without the right to invite users");
    // its messages reach none of her trackers
    const plain = (await req("POST", "/api/tracking", { name: "BTC", keyword: "bitcoin" })).json;
    postInGroup(1, "bitcoin");
    await s.fake.handledAll();
    expect((await req("GET", `/api/tracking/${plain.id}/matches`)).json.items).toEqual([]);
  });

  test("loses the right after claiming: Telegram's getChatMember answer, asked again after the minute, refuses invites and requests", async () => {
    const a = await aliceRunsGroup();
    // the right is taken away where the bot sees no update (Telegram's answer changes)
    s.fake.members.set(`${GROUP.id}:${ALICE.id}`, { status: "administrator", can_invite_users: false });
    // within the minute the last answer stands
    expect((await req("GET", `/api/channels/${a.channel.id}/requests`)).status).toBe(200);
    s.t.clock.advance(STANDING_TTL_MS);
    await everyPowerRefused(a, "no_invite_right", /without the right to invite users/);
    // the right given back: asked again after the minute, the powers return
    s.fake.members.set(`${GROUP.id}:${ALICE.id}`, { status: "administrator", can_invite_users: true });
    expect((await req("POST", `/api/channels/${a.channel.id}/invites`, { name: "Still cached" })).status).toBe(403);
    s.t.clock.advance(STANDING_TTL_MS);
    expect((await req("POST", `/api/channels/${a.channel.id}/invites`, { name: "Back" })).status).toBe(201);
  });

  test("the creator needs no separate right; Telegram unreachable or failing grants nothing and says so", async () => {
    const a = await aliceRunsGroup();
    s.t.clock.advance(STANDING_TTL_MS);
    const reachable = s.t.deps.telegram;
    s.t.deps.telegram = new Api(FAKE_BOT_TOKEN, { apiRoot: "http://127.0.0.1:9" }); // nothing listens there
    try {
      for (const [method, path, body] of [
        ["POST", `/api/channels/${a.channel.id}/invites`, { name: "Blind" }],
        ["POST", `/api/requests/${a.request.id}/approve`, undefined],
        ["GET", `/api/channels/${a.channel.id}/members`, undefined],
      ] as const) {
        const res = await req(method, path, body);
        expect([res.status, res.json.error]).toEqual([503, "rights_unconfirmed"]);
        expect(res.json.message).toBe(
          "Telegram could not be reached to confirm that you still administer this chat, so nothing was done; try again in a minute",
        );
      }
    } finally {
      s.t.deps.telegram = reachable;
    }
    s.fake.failNext.set("getChatMember", { error_code: 502, description: "Bad Gateway", times: 5 });
    expect((await req("GET", `/api/channels/${a.channel.id}/members`)).json.error).toBe("rights_unconfirmed");
    s.fake.failNext.delete("getChatMember");
    s.fake.members.set(`${GROUP.id}:${ALICE.id}`, { status: "creator" });
    expect((await req("GET", `/api/channels/${a.channel.id}/members`)).status).toBe(200);
    expect(s.fake.callsOf("approveChatJoinRequest")).toHaveLength(0);
  });
});

describe("a team's chat", () => {
  const BOB = { id: 43, is_bot: false, first_name: "Bob", username: "bob" };
  test("held through a member who administers it: that member demoted, the team's next invite is refused at once", async () => {
    const bob = (await s.t.telegramUser(BOB.id, "bob")).token;
    s.fake.members.set(`${GROUP.id}:${BOB.id}`, { status: "administrator", can_invite_users: true });
    s.fake.pushUpdate({
      my_chat_member: {
        chat: GROUP,
        from: BOB,
        date: now(),
        old_chat_member: { status: "left", user: FAKE_BOT },
        new_chat_member: ADMIN_BOT,
      },
    });
    await s.fake.waitFor("sendMessage", (c) => c.params.chat_id === BOB.id && String(c.params.text).includes("invite tracking"));
    const team = (await req("POST", "/api/workspaces", { name: "Agency" }, bob)).json.id as number;
    const headers = { "x-workspace": String(team) };
    const inTeam = (method: string, path: string, body?: unknown) => s.t.request(method, path, { token: bob, body, headers });
    const channel = await inTeam("POST", "/api/channels", { chat: GROUP.id });
    expect(channel.status).toBe(201);
    expect((await inTeam("POST", `/api/channels/${channel.json.id}/invites`, { name: "First" })).status).toBe(201);
    // Bob's own account lets the chat go: only the team holds it
    const [personal] = (await req("GET", "/api/channels", undefined, bob)).json as { id: number }[];
    expect((await req("DELETE", `/api/channels/${personal!.id}`, undefined, bob)).status).toBe(200);
    // Telegram says Bob is no longer an administrator: the team holds the chat through nobody now
    s.fake.members.set(`${GROUP.id}:${BOB.id}`, { status: "member" });
    s.fake.pushChatMember(GROUP, BOB, "administrator", "member", now());
    await s.fake.handledAll();
    const refused = await inTeam("POST", `/api/channels/${channel.json.id}/invites`, { name: "Second" });
    expect([refused.status, refused.json.error]).toEqual([403, "not_chat_admin"]);
    expect(s.fake.callsOf("createChatInviteLink")).toHaveLength(1);
  });
});
