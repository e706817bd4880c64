import { afterEach, beforeEach, expect, test } from "bun:test";
import { startBotApp } from "../bot/helpers";
import { eventually } from "../helpers/eventually";
import { deliveryWorker } from "../../app/delivery-routes";

const CHANNEL = { id: -1001110002, type: "channel", title: "Deals", username: "deals" };
const OWNER_TG = 42;

let s: Awaited<ReturnType<typeof startBotApp>>;
let owner: string;
let bob: string;
let channelId: number;
beforeEach(async () => {
  s = await startBotApp();
  s.fake.addChat(CHANNEL);
  owner = (await s.t.telegramUser(OWNER_TG, "alice")).token;
  bob = (await s.t.telegramUser(43, "bob")).token;
  s.fake.members.set(`${CHANNEL.id}:${OWNER_TG}`, { status: "creator" });
  channelId = (await s.t.request("POST", "/api/channels", { token: owner, body: { chat: CHANNEL.id } })).json.id;
});
afterEach(() => s.stop());

const req = (method: string, path: string, token: string, body?: unknown) => s.t.request(method, path, { token, body });
const now = () => Math.floor(s.t.clock.now().getTime() / 1000);

function askToJoin(inviteLink: string, person: { id: number; first_name: string; username?: string }, date = now()) {
  s.fake.pushUpdate({
    chat_join_request: {
      chat: CHANNEL,
      from: { is_bot: false, ...person },
      user_chat_id: person.id,
      date,
      invite_link: s.fake.inviteLinks.get(inviteLink),
    },
  });
}

test("automatic approval: the welcome goes to the person at once, the request is approved, the join that follows is the invite's", async () => {
  const invite = (
    await req("POST", `/api/channels/${channelId}/invites`, owner, {
      name: "Public ad",
      join_request: true,
      welcome: "Welcome to Deals! Pinned post has the rules.",
    })
  ).json;
  expect(invite).toMatchObject({ join_request: true, approve: "auto", member_limit: null });
  expect(s.fake.callsOf("createChatInviteLink")[0]!.params.creates_join_request).toBe(true);
  askToJoin(invite.invite_link, { id: 501, first_name: "Eve" });
  askToJoin(invite.invite_link, { id: 501, first_name: "Eve" }); // the same request again
  const approved = await s.fake.waitFor("approveChatJoinRequest", (c) => c.params.user_id === 501);
  expect(approved.params.chat_id).toBe(String(CHANNEL.id));
  await deliveryWorker(s.t.deps).drain();
  const welcome = s.fake.callsOf("sendMessage").filter((c) => c.params.chat_id === 501);
  expect(welcome.map((c) => c.params.text)).toEqual(["Welcome to Deals! Pinned post has the rules."]);
  expect(s.fake.callsOf("approveChatJoinRequest")).toHaveLength(1);
  // Telegram's join after the approval carries no link of ours here, only via_join_request
  s.fake.pushChatMember(CHANNEL, { id: 501, first_name: "Eve" }, "left", "member", now() + 1, { via_join_request: true });
  const journal = await eventually(async () => {
    const r = (await req("GET", `/api/channels/${channelId}/members`, owner)).json;
    return r.total ? r : null;
  }, "the join");
  expect(journal.data[0]).toMatchObject({ user_id: 501, invite_id: invite.id, via: "invite", via_join_request: true });
  expect((await req("GET", `/api/channels/${channelId}/requests`, owner)).json).toEqual([]);
});

test("manual approval: the owner gets Approve / Decline; the API lists and settles; settling twice is a 409; another account sees 404", async () => {
  const invite = (
    await req("POST", `/api/channels/${channelId}/invites`, owner, { name: "Closed club", join_request: true, approve: "manual" })
  ).json;
  askToJoin(invite.invite_link, { id: 601, first_name: "Finn", username: "finn" });
  askToJoin(invite.invite_link, { id: 602, first_name: "Gil" });
  const waiting = await eventually(async () => {
    const r = (await req("GET", `/api/channels/${channelId}/requests`, owner)).json;
    return r.length === 2 ? r : null;
  }, "two waiting requests");
  expect(waiting.map((r: { user_id: number; invite_id: number }) => [r.user_id, r.invite_id])).toEqual([
    [602, invite.id],
    [601, invite.id],
  ]);
  expect((await req("GET", `/api/invites/${invite.id}`, owner)).json.stats.pending).toBe(2);
  expect(s.fake.callsOf("approveChatJoinRequest")).toHaveLength(0);
  await deliveryWorker(s.t.deps).drain();
  // one message per channel, naming it with the count: the second request's replaces the first's
  await s.fake.waitFor("deleteMessage");
  await s.fake.waitFor("sendMessage", (c) => String(c.params.text).includes("2 requests"));
  const asked = s.fake.callsOf("sendMessage").filter((c) => c.params.chat_id === OWNER_TG);
  expect(asked.map((c) => c.params.text)).toEqual([
    "🙋 <b>Deals</b>: 1 request to join\n• Finn @finn — through “Closed club”",
    "🙋 <b>Deals</b>: 2 requests to join\n• Finn @finn — through “Closed club”\n• Gil — through “Closed club”",
  ]);
  // the first is deleted (by whichever of the two requests, handled at once, stored its message last)
  const deleted = s.fake.callsOf("deleteMessage").map((c) => c.params.message_id);
  expect(deleted.length).toBeGreaterThan(0);
  expect(deleted.every((id) => id === asked[0]!.result.message_id)).toBe(true);
  expect(asked[1]!.params.reply_markup.inline_keyboard.map((r: { text: string }[]) => r.map((b) => b.text))).toEqual([
    ["✅ Finn @finn", "❌"],
    ["✅ Gil", "❌"],
    ["✅ Approve all (2)"],
    ["📣 The channel"],
  ]);

  // through the API
  const finn = waiting.find((r: { user_id: number }) => r.user_id === 601);
  expect((await req("POST", `/api/requests/${finn.id}/approve`, bob)).status).toBe(404);
  expect((await req("GET", `/api/channels/${channelId}/requests`, bob)).status).toBe(404);
  const ok = await req("POST", `/api/requests/${finn.id}/approve`, owner);
  expect(ok.json).toMatchObject({ id: finn.id, status: "approved" });
  expect(s.fake.callsOf("approveChatJoinRequest").map((c) => c.params.user_id)).toEqual([601]);
  const twice = await req("POST", `/api/requests/${finn.id}/decline`, owner);
  expect(twice.status).toBe(409);
  expect(s.fake.callsOf("declineChatJoinRequest")).toHaveLength(0);
  // approved through the API, the channel's message is updated: Gil alone waits, with his own buttons
  const notice = asked[1]!.result.message_id;
  const updated = s.fake.callsOf("editMessageText").at(-1)!;
  expect(updated.params).toMatchObject({
    message_id: notice,
    text: "✅ Finn @finn was let in.\n\n🙋 <b>Deals</b>: 1 request to join\n• Gil — through “Closed club”",
  });

  // through the owner's button
  s.fake.press("❌ Decline", { id: OWNER_TG });
  await s.fake.waitFor("declineChatJoinRequest", (c) => c.params.user_id === 602);
  const done = await s.fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("❌ Gil was declined."));
  expect(done.params).toMatchObject({ message_id: notice, text: "❌ Gil was declined.\n\nNo one else is waiting to join <b>Deals</b>." });
  expect(done.params.reply_markup.inline_keyboard).toEqual([]);
  expect((await req("GET", `/api/channels/${channelId}/requests`, owner)).json).toEqual([]);
  // the button pressed again: already settled, nothing sent to Telegram
  s.fake.press("❌ Decline", { id: OWNER_TG });
  await s.fake.waitFor("answerCallbackQuery", (c) => c.params.text === "This request was already settled.");
  expect(s.fake.callsOf("declineChatJoinRequest")).toHaveLength(1);
});

test("Telegram refusing an approval leaves the request waiting and says why", async () => {
  const invite = (await req("POST", `/api/channels/${channelId}/invites`, owner, { name: "Closed", join_request: true, approve: "manual" }))
    .json;
  askToJoin(invite.invite_link, { id: 701, first_name: "Hal" });
  const [waiting] = await eventually(async () => {
    const r = (await req("GET", `/api/channels/${channelId}/requests`, owner)).json;
    return r.length ? r : null;
  }, "a waiting request");
  s.fake.failNext.set("approveChatJoinRequest", { error_code: 400, description: "Bad Request: HIDE_REQUESTER_MISSING" });
  const res = await req("POST", `/api/requests/${waiting.id}/approve`, owner);
  expect(res.status).toBe(409);
  expect(res.json).toEqual({ error: "telegram_refused", message: "Bad Request: HIDE_REQUESTER_MISSING" });
  expect((await req("GET", `/api/channels/${channelId}/requests`, owner)).json.map((r: { id: number }) => r.id)).toEqual([waiting.id]);
});
