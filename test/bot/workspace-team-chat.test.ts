/**
 * A team group connected with /connect (in a forum, inside a topic) receives the team workspace's
 * tracker notifications, reports and join requests, in that topic, through the outbox and the fake Bot API
 * (which refuses a topic a chat does not have, as Telegram does); a member approves a request there.
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startBotApp } from "./helpers";
import { eventually } from "../helpers/eventually";
import { FAKE_BOT, type FakeChat, type RecordedCall } from "../helpers/fake-bot-api";
import { deliveryWorker } from "../../app/delivery-routes";
import { createTracker } from "../../core/tracking/trackers";
import { ingestPost } from "../../core/tracking/ingest";
import type { ChatInfo } from "../../core/tracking/sources";
import { createWorkspace, createInvite, joinWorkspace, setCurrentWorkspace } from "../../core/workspaces";
import { setUserLanguage, upsertTelegramUser } from "../../core/accounts/users";
import { deliveryChats } from "../../core/team-chat/destinations";
import { updateSettings } from "../../core/reports/settings";
import { sendDueReports } from "../../core/reports/report";
import { t } from "../../core/i18n/translate";

setDefaultTimeout(60_000);

const ALICE = { id: 42, first_name: "Alice", username: "alice" };
const BOB = { id: 43, first_name: "Bob", username: "bob" };
const CREW: FakeChat = { id: -1009990001, type: "supergroup", title: "Agency crew", is_forum: true, topics: [5] };
const NEWS: ChatInfo = { chatId: "-1001000000001", type: "channel", title: "Crypto News", username: "cryptonews" };

let s: Awaited<ReturnType<typeof startBotApp>>;
let team: number;
let alice: number;
let bob: number;
beforeEach(async () => {
  s = await startBotApp();
  s.fake.addChat(CREW);
  alice = (await upsertTelegramUser(s.t.deps, { id: ALICE.id, username: ALICE.username, firstName: ALICE.first_name })).id;
  bob = (await upsertTelegramUser(s.t.deps, { id: BOB.id, username: BOB.username, firstName: BOB.first_name })).id;
  team = (await createWorkspace(s.t.deps, alice, "Agency")).id;
  await setCurrentWorkspace(s.t.deps, alice, team);
  const { token } = await createInvite(s.t.deps, alice, team, "editor");
  await joinWorkspace(s.t.deps, bob, token);
  await setCurrentWorkspace(s.t.deps, bob, team);
});
afterEach(() => s.stop());

const textOf = (c: RecordedCall) => String(c.params.text ?? "");
const intoCrew = (pred: (text: string) => boolean, what: string) =>
  eventually(() => s.fake.calls.find((c) => c.method === "sendMessage" && Number(c.params.chat_id) === CREW.id && pred(textOf(c))), what);

async function connect() {
  s.fake.members.set(`${CREW.id}:${ALICE.id}`, { status: "administrator" });
  s.fake.pushGroupMessage("/connect", CREW, ALICE, 5);
  return intoCrew((t) => t.startsWith("✅"), "the answer to /connect");
}

test("/connect inside a forum topic makes it the team's destination; who may connect is checked", async () => {
  // a member of the team who is not an administrator of the group
  s.fake.pushGroupMessage("/connect", CREW, BOB, 5);
  const refused = await intoCrew((t) => t.includes("Only the group's administrators"), "the refusal");
  expect(refused.params.message_thread_id).toBe(5);
  // Bob is an administrator of the group but only an editor of the team
  s.fake.members.set(`${CREW.id}:${BOB.id}`, { status: "administrator" });
  s.fake.pushGroupMessage("/connect", CREW, BOB, 5);
  await intoCrew((t) => t.includes("This needs the admin role in this workspace; you are an editor"), "the role refusal");

  const done = await connect();
  expect(textOf(done)).toBe("✅ This topic is now where <b>Agency</b> gets its reports, alerts, tracker notifications and join requests.");
  expect(done.params.message_thread_id).toBe(5);
  expect(await deliveryChats(s.t.deps.asyncDb, team)).toEqual([{ chatId: String(CREW.id), lang: "en", threadId: 5, group: true }]);
  // a personal workspace's messages still go to its person
  expect(await deliveryChats(s.t.deps.asyncDb, bob)).toEqual([{ chatId: BOB.id, lang: "en", threadId: null, group: false }]);

  // the Team screen says where the messages go
  s.fake.pushMessage("/settings", ALICE);
  await eventually(() => s.fake.calls.find((c) => c.method === "sendMessage" && textOf(c).startsWith("<b>⚙️ Settings")), "Settings");
  s.fake.press("👥 Team", ALICE);
  await eventually(
    () => s.fake.calls.find((c) => c.method === "editMessageText" && textOf(c).includes("💬 Team group: a topic of <b>Agency crew</b>")),
    "the Team screen",
  );
});

test("without a group, a team's tracker notification goes to its owners and admins; with one, into the topic", async () => {
  const tracker = await createTracker(s.t.deps, team, { name: "Bitcoin", keyword: "bitcoin" });
  await ingestPost(s.t.deps, { chat: NEWS, messageId: 1, text: "Bitcoin breaks a record" });
  await deliveryWorker(s.t.deps).drain();
  // Alice is the owner; Bob, an editor, is not told
  const toAlice = await eventually(
    () => s.fake.calls.find((c) => c.method === "sendMessage" && textOf(c).startsWith("🔔 <b>Bitcoin</b>")),
    "the notification",
  );
  expect(toAlice.params.chat_id).toBe(ALICE.id);
  expect(s.fake.calls.filter((c) => textOf(c).startsWith("🔔") && c.params.chat_id === BOB.id)).toEqual([]);

  await connect();
  s.t.clock.advance(120_000); // past the burst window
  await ingestPost(s.t.deps, { chat: NEWS, messageId: 2, text: "Bitcoin falls again" });
  await deliveryWorker(s.t.deps).drain();
  const inTopic = await intoCrew((t) => t.startsWith("🔔 <b>Bitcoin</b>"), "the notification in the group");
  expect(inTopic.params.message_thread_id).toBe(5);
  expect(textOf(inTopic)).toContain("<b>Bitcoin</b> falls again");
  // buttons that act for whoever presses become links into each person's own chat with the bot
  const buttons = (inTopic.params.reply_markup.inline_keyboard as { text: string; url?: string; callback_data?: string }[][]).flat();
  expect(buttons.every((b) => b.callback_data === undefined)).toBe(true);
  expect(buttons.find((b) => b.text === "🔎 Tracker")!.url).toBe(`https://t.me/${s.bot.botInfo.username}?start=tracker_${tracker.id}`);
  const rows = await s.t.deps.asyncDb
    .select()
    .from(s.t.deps.asyncDb.tables.outbox)
    .where(eq(s.t.deps.asyncDb.tables.outbox.topic, "tracker_notify"));
  expect(rows.map((r) => r.status)).toEqual(["done", "done"]);
});

test("a topic the forum no longer has is refused by Telegram, and the delivery is not marked done", async () => {
  await connect();
  await s.t.deps.asyncDb.update(s.t.deps.asyncDb.tables.teamChats).set({ threadId: 99 });
  await createTracker(s.t.deps, team, { name: "Bitcoin", keyword: "bitcoin" });
  await ingestPost(s.t.deps, { chat: NEWS, messageId: 1, text: "Bitcoin breaks a record" });
  await deliveryWorker(s.t.deps).drain();
  const [row] = await s.t.deps.asyncDb
    .select()
    .from(s.t.deps.asyncDb.tables.outbox)
    .where(eq(s.t.deps.asyncDb.tables.outbox.topic, "tracker_notify"));
  expect(row!.status).not.toBe("done");
  expect(row!.lastError).toContain("message thread not found");
});

test("a join request through a team's invite reaches the group's topic, and a member of the team approves it there", async () => {
  const CHANNEL = { id: -1001230001, type: "channel", title: "Agency channel" };
  s.fake.addChat(CHANNEL);
  s.fake.members.set(`${CHANNEL.id}:${ALICE.id}`, { status: "creator" }); // the team's owner runs the channel
  const db = s.t.deps.asyncDb;
  const [channel] = await db
    .insert(db.tables.channels)
    .values({ userId: team, chatId: String(CHANNEL.id), type: "channel", title: CHANNEL.title, members: 10, canInvite: true })
    .returning();
  await db.insert(db.tables.channelInvites).values({
    userId: team,
    channelId: channel!.id,
    chatId: String(CHANNEL.id),
    name: "Ad in News",
    inviteLink: "https://t.me/+agency1",
    joinRequest: true,
    approve: "manual",
  });
  await connect();
  const link = {
    invite_link: "https://t.me/+agency1",
    creator: FAKE_BOT,
    creates_join_request: true,
    is_primary: false,
    is_revoked: false,
  };
  const date = Math.floor(s.t.clock.now().getTime() / 1000);
  s.fake.pushUpdate({
    chat_join_request: { chat: CHANNEL, from: { id: 777, is_bot: false, first_name: "Dave" }, user_chat_id: 777, date, invite_link: link },
  });
  // the channel's one message about its waiting requests, in the group's topic
  const asked = await intoCrew((t) => t.startsWith("🙋 <b>Agency channel</b>"), "the request in the group");
  expect(asked.params.message_thread_id).toBe(5);
  expect(textOf(asked)).toStartWith(t("en", "requests-notice-head", { channel: "Agency channel", count: 1 }));
  expect(textOf(asked)).toContain(t("en", "requests-notice-line", { who: "Dave", invite: "Ad in News" }));
  const rows = asked.params.reply_markup.inline_keyboard as { text: string; url?: string; callback_data?: string }[][];
  expect(rows.map((r) => r.map((b) => b.text))).toEqual([
    [t("en", "join-request-approve"), t("en", "join-request-decline")],
    [t("en", "join-request-open-invite")],
  ]);
  // in the group, the invite opens in the presser's own chat with the bot
  expect(rows[1]![0]!.url).toMatch(/^https:\/\/t\.me\/\w+\?start=invite_\d+$/);

  // Bob, an editor of the team (not an administrator of the channel), approves it in the group
  s.fake.pushCallback(rows[0]![0]!.callback_data!, BOB, asked.result.message_id, {
    text: textOf(asked),
    chat: { id: CREW.id, type: "supergroup", title: CREW.title, is_forum: true },
    reply_markup: asked.params.reply_markup,
  });
  await s.fake.waitFor("approveChatJoinRequest", (c) => Number(c.params.user_id) === 777);
  const edited = await s.fake.waitFor("editMessageText", (c) => Number(c.params.chat_id) === CREW.id);
  expect(textOf(edited)).toBe(
    `${t("en", "request-approved", { name: "Dave" })}\n\n${t("en", "requests-notice-none", { channel: "Agency channel" })}`,
  );
  // Bob's toast comes once the approval is done and written down
  await s.fake.waitFor("answerCallbackQuery", (c) => c.params.text === t("en", "request-approved-toast"));
  const audit = await db.select().from(db.tables.auditLog).where(eq(db.tables.auditLog.workspaceId, team));
  expect(audit.map((a) => [a.action, a.actorId])).toContainEqual(["requests.approve", bob]);
});

test("the team's daily report goes into the topic, written in the language of who connected the group", async () => {
  s.t.clock.set("2026-11-25T12:00:00Z");
  await updateSettings(s.t.deps, team, { time_zone: "UTC", report_every: "day", report_hour: 9 });
  await setUserLanguage(s.t.deps, alice, "ru");
  expect(textOf(await connect())).toBe(
    "✅ Теперь в эту тему приходят отчёты, оповещения, уведомления трекеров и заявки на вступление <b>Agency</b>.",
  );
  s.t.clock.set("2026-11-26T09:00:30Z");
  expect(await sendDueReports(s.t.deps)).toBe(1);
  await deliveryWorker(s.t.deps).drain();
  const report = await intoCrew((t) => t.includes("👆 Переходы"), "the report in the group");
  expect(report.params.message_thread_id).toBe(5);
  // its buttons open the team's links and settings in the presser's own chat with the bot
  const buttons = (report.params.reply_markup.inline_keyboard as { url?: string; callback_data?: string }[][]).flat();
  expect(buttons.map((b) => b.url?.replace(/^https:\/\/t\.me\/\w+\?start=/, ""))).toEqual(["links", "reports"]);
  // Alice's own chat gets none of it
  expect(s.fake.calls.filter((c) => c.method === "sendMessage" && c.params.chat_id === ALICE.id && textOf(c).includes("👆"))).toEqual([]);
});

test("/connect, /disconnect and the reports' schedule set in the bot each leave one audit entry naming who and what", async () => {
  const db = s.t.deps.asyncDb;
  const { auditLog } = db.tables;
  const entries = async () =>
    (await db.select().from(auditLog).where(eq(auditLog.workspaceId, team))).map((e) => ({
      action: e.action,
      actor: e.actorId,
      subject: `${e.subjectType} ${e.subjectId}`,
      details: e.details,
    }));
  /** What `run` added to the team's log. */
  async function added(run: () => Promise<unknown>) {
    const before = (await entries()).length;
    await run();
    return (await entries()).slice(before);
  }
  const group = `team_chat ${CREW.id}`;
  expect(await added(connect)).toEqual([
    { action: "team_chat.connect", actor: alice, subject: group, details: { title: CREW.title, thread_id: 5 } },
  ]);
  expect(
    await added(async () => {
      s.fake.pushGroupMessage("/disconnect", CREW, ALICE, 5);
      await intoCrew((t) => t.startsWith("This group no longer gets the messages"), "the answer to /disconnect");
    }),
  ).toEqual([{ action: "team_chat.disconnect", actor: alice, subject: group, details: { title: CREW.title, thread_id: 5 } }]);

  // Bob, an editor, sets the team's reports in the bot: the action the API names a change of settings with
  const screen = (pred: (text: string) => boolean, what: string) =>
    eventually(
      () => s.fake.calls.find((c) => Number(c.params.chat_id) === BOB.id && pred(textOf(c)) && c.method !== "getChatMember"),
      what,
    );
  s.fake.pushMessage("/settings", BOB);
  await screen((t) => t.startsWith("<b>⚙️ Settings"), "Settings");
  s.fake.press("📬 Reports and time zone", BOB);
  await screen((t) => t.startsWith("<b>📬 Reports</b>"), "the reports");
  const daily = await added(async () => {
    s.fake.press("Daily", BOB);
    await screen((t) => t.startsWith("<b>📬 Reports</b>") && t.includes("Every day at"), "the daily report");
  });
  expect(daily).toEqual([
    { action: "settings.update", actor: bob, subject: `setting ${team}`, details: { input: { report_every: "day" } } },
  ]);
  const zone = await added(async () => {
    s.fake.press("🌍 Time zone", BOB);
    await screen((t) => t.startsWith("Send your time zone"), "the question");
    s.fake.pushMessage("Almaty", BOB);
    await screen((t) => t.startsWith("✅ Time zone:"), "the zone set");
  });
  expect(zone).toEqual([
    { action: "settings.update", actor: bob, subject: `setting ${team}`, details: { input: { time_zone: "Asia/Almaty" } } },
  ]);
  // Bob's own settings did not change: the schedule is the team's
  const mine = await db.select().from(db.tables.userSettings).where(eq(db.tables.userSettings.userId, bob));
  expect(mine.map((r) => r.reportEvery)).not.toContain("day");
});
