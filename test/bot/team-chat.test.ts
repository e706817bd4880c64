/**
 * A tracker's matches go into a team group, picked by name and then by forum topic: the bot learns
 * the groups it administers for the person who made it an administrator, and the topics from
 * Telegram's service messages; nobody types a chat id. In English and in Russian, on the fake Bot API.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { FakeBotApi, BOT_ADMIN, FAKE_BOT, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { createBot } from "../../bot/bot";
import { eventually } from "../helpers/eventually";
import { chatTopics } from "../../core/tracking/team-chats";

let fake: FakeBotApi;
let t: TestApp;
let bot: ReturnType<typeof createBot>;
let running: Promise<void>;

beforeEach(async () => {
  fake = new FakeBotApi().start();
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  bot = createBot({ ...t.deps, config: { ...t.config, botToken: FAKE_BOT_TOKEN } });
  running = bot.start().catch(() => undefined);
});
afterEach(async () => {
  await bot.stop();
  await running;
  await fake.stop();
  t.close();
});

const FORUM = { id: -1009876543210, type: "supergroup", title: "Sales team", is_forum: true };
const now = () => Math.floor(Date.now() / 1000);
const ADMIN = BOT_ADMIN;

/** Alice (42) makes the bot an administrator of the forum; a topic is created, another renamed, one closed. */
async function forumWithTopics() {
  await t.telegramUser(42, "alice");
  fake.pushUpdate({
    my_chat_member: {
      chat: FORUM,
      from: { id: 42, is_bot: false, first_name: "Alice" },
      date: now(),
      old_chat_member: { status: "left", user: FAKE_BOT },
      new_chat_member: ADMIN,
    },
  });
  const service = (thread: number, extra: Record<string, unknown>) =>
    fake.pushUpdate({
      message: {
        message_id: thread,
        message_thread_id: thread,
        is_topic_message: true,
        date: now(),
        chat: FORUM,
        from: { id: 42, is_bot: false, first_name: "Alice" },
        ...extra,
      },
    });
  service(7, { forum_topic_created: { name: "Leads", icon_color: 7322096 } });
  service(9, { forum_topic_created: { name: "Old", icon_color: 7322096 } });
  service(11, { forum_topic_created: { name: "Draft", icon_color: 7322096 } });
  service(11, { forum_topic_edited: { name: "Partners" } });
  service(9, { forum_topic_closed: {} });
  await fake.handledAll(30_000);
  return (await t.telegramUser(42, "alice")).user;
}

const buttons = (c: { params: Record<string, any> }) =>
  (c.params.reply_markup?.inline_keyboard ?? []).flat().map((b: { text: string }) => b.text) as string[];

describe("notifications into a team group, picked by name", () => {
  test("the bot learns the forum's topics: created, renamed, closed; General is always there", async () => {
    const user = await forumWithTopics();
    expect(await chatTopics(t.deps, user.id, String(FORUM.id))).toEqual([
      { threadId: null, name: "General" },
      { threadId: 7, name: "Leads" },
      { threadId: 11, name: "Partners" },
    ]);
  }, 60_000);

  test("en: /track → Into a group or channel of mine → the group by name → the topic by name; the card names both", async () => {
    const { token } = await t.telegramUser(42, "alice");
    await forumWithTopics();
    fake.pushMessage("/track bitcoin");
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Match whole words only?"));
    fake.press("Whole words");
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Minus words"));
    fake.pushMessage("/skip");
    await fake.waitFor("sendMessage", (c) => c.params.text === "Where should I look?");
    fake.press("Channels and chats");
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Only specific sources?"));
    fake.pushMessage("/skip");
    const via = await fake.waitFor("sendMessage", (c) => c.params.text === "How should I notify you?");
    expect(buttons(via)).toEqual(["Message from this bot", "Into a group or channel of mine", "Webhook (HTTP POST)", "Cancel"]);
    fake.press("Into a group or channel of mine");
    const chats = await fake.waitFor("sendMessage", (c) => c.params.text === "Which group or channel should get the matches?");
    expect(buttons(chats)).toEqual(["👥 Sales team", "Cancel"]);
    fake.press("👥 Sales team");
    const topics = await fake.waitFor("sendMessage", (c) => c.params.text === "Which topic of the forum?");
    // a closed topic is not offered
    expect(buttons(topics)).toEqual(["# General", "# Leads", "# Partners", "Cancel"]);
    fake.press("# Leads");
    const done = await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("✅ Tracker created"));
    expect(done.params.text).toContain("chat Sales team, topic Leads");
    const [created] = (await t.request("GET", "/api/tracking", { token })).json;
    expect(created).toMatchObject({ notify_via: "chat", notify_chat_id: String(FORUM.id), notify_thread_id: 7 });
  }, 60_000);

  test("ru: the card's 📬 option → В мою группу или канал → the group → Общая тема; a person who is no longer an admin is offered nothing", async () => {
    const { token } = await t.telegramUser(42, "alice");
    await forumWithTopics();
    const { json: tracker } = await t.request("POST", "/api/tracking", { token, body: { name: "эфир", keyword: "эфир" } });
    const ru = { language_code: "ru" } as never;
    fake.pushMessage("/start", ru);
    await fake.handledAll();
    fake.pushMessage("/trackers", ru);
    await fake.waitFor("sendMessage", (c) => buttons(c).some((b) => b.includes("эфир")));
    fake.press(/эфир/, ru);
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("эфир"));
    fake.press(/📬/, ru);
    const ask = await fake.waitFor("sendMessage", (c) => String(c.params.text).includes("Куда присылать упоминания этого трекера"));
    expect(buttons(ask)).toContain("В мою группу или канал");
    fake.press("В мою группу или канал", ru);
    await fake.waitFor("sendMessage", (c) => c.params.text === "В какую группу или канал присылать упоминания?");
    fake.press("👥 Sales team", ru);
    await fake.waitFor("sendMessage", (c) => c.params.text === "В какую тему форума?");
    fake.press("# Общая тема", ru);
    await eventually(
      async () => ((await t.request("GET", `/api/tracking/${tracker.id}`, { token })).json.notify_via === "chat" ? true : undefined),
      "the tracker notifies the group",
    );
    const saved = (await t.request("GET", `/api/tracking/${tracker.id}`, { token })).json;
    expect(saved).toMatchObject({ notify_chat_id: String(FORUM.id), notify_thread_id: null });
    // the card, drawn again, names the group
    await eventually(
      async () => (fake.calls.some((c) => String(c.params.text).includes("Уведомления: чат Sales team")) ? true : undefined),
      "the card",
    );

    // Alice is no longer an administrator there: the group is not offered, and she is told how to get one
    fake.members.set(`${FORUM.id}:42`, { status: "member" });
    t.deps.chatStandings.drop();
    fake.press(/📬/, ru);
    const asked = (c: { params: Record<string, unknown> }) => String(c.params.text).includes("Куда присылать упоминания этого трекера");
    await eventually(async () => (fake.callsOf("sendMessage").filter(asked).length === 2 ? true : undefined), "the question asked again");
    fake.press("В мою группу или канал", ru);
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("У вас пока нет группы или канала"));
  }, 60_000);
});
