import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";
import { FakeBotApi, BOT_ADMIN, FAKE_BOT, FAKE_BOT_TOKEN, type RecordedCall } from "../helpers/fake-bot-api";
import { createBot } from "../../bot/bot";
import { readChoice } from "../../bot/conversations/team-chat";
import { eventually } from "../helpers/eventually";
import { createTracker } from "../../core/tracking/trackers";
import { setSourceMetadata, upsertSource } from "../../core/tracking/sources";
import { trackingSourcesJob } from "../../jobs/tracking-sources";
import { deliveryWorker } from "../../app/delivery-routes";

let fake: FakeBotApi;
let t: TestApp;
let bot: ReturnType<typeof createBot>;
let running: Promise<void>;
let startError: unknown;

beforeEach(async () => {
  fake = new FakeBotApi().start();
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  bot = createBot({ ...t.deps, config: { ...t.config, botToken: FAKE_BOT_TOKEN } });
  startError = undefined;
  running = bot.start().catch((e) => void (startError = e));
});
afterEach(async () => {
  await bot.stop();
  await running;
  // stopping during start-up aborts grammY's retry delay; anything else is a real failure
  if (startError && !String(startError).includes("Aborted delay")) throw startError;
  await fake.stop();
  t.close();
});

const CHANNEL = { id: -1001234567890, type: "channel", title: "Rust Weekly", username: "rustweekly" };
const now = () => Math.floor(Date.now() / 1000);

function addBotToChannel() {
  fake.pushUpdate({
    my_chat_member: {
      chat: CHANNEL,
      from: { id: 7, is_bot: false, first_name: "Owner" },
      date: now(),
      old_chat_member: { status: "left", user: FAKE_BOT },
      new_chat_member: {
        status: "administrator",
        user: FAKE_BOT,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: false,
        can_manage_video_chats: false,
        can_restrict_members: false,
        can_promote_members: false,
        can_change_info: false,
        can_invite_users: false,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
      },
    },
  });
}

describe("the bot as a source, end to end", () => {
  test("added to a channel → a post arrives → the match is in the API and the owner's notification is queued", async () => {
    const { user, token } = await t.telegramUser(42, "alice");
    const { json: tracker } = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "Rust news", keyword: "rust 2.0", exact_match: true },
    });

    addBotToChannel();
    await fake.waitFor("getChatMemberCount", (c) => c.params.chat_id === CHANNEL.id);
    const source = await eventually(
      async () => (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources))[0],
      "the source row",
    );
    expect(source).toMatchObject({
      chatId: String(CHANNEL.id),
      type: "channel",
      title: "Rust Weekly",
      username: "rustweekly",
      memberCount: 1234,
      isActive: true,
      via: "bot",
    });

    fake.pushUpdate({
      channel_post: { message_id: 55, date: now(), chat: CHANNEL, text: "Breaking: <Rust 2.0> is announced! Trusted sources confirm." },
    });
    fake.pushUpdate({ channel_post: { message_id: 56, date: now(), chat: CHANNEL, text: "Nothing about it here" } });
    fake.pushUpdate({
      channel_post: {
        message_id: 57,
        date: now(),
        chat: CHANNEL,
        photo: [{ file_id: "p", file_unique_id: "p", width: 1, height: 1 }],
        caption: "Photo: RUST 2.0 launch party",
      },
    });

    const { items } = await eventually(async () => {
      const res = await t.request("GET", `/api/tracking/${tracker.id}/matches`, { token });
      return res.json.total === 2 ? res.json : null;
    }, "two matches");
    expect(items.map((m: { source_message_id: number }) => m.source_message_id)).toEqual([57, 55]);
    expect(items[1]).toMatchObject({
      tracker_id: tracker.id,
      source_title: "Rust Weekly",
      source_username: "rustweekly",
      text_snippet: "Breaking: <Rust 2.0> is announced! Trusted sources confirm.",
      matched_keyword: "Rust 2.0",
      post_url: "https://t.me/rustweekly/55",
      is_deleted: false,
      is_read: false,
    });

    const queued = await t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.outbox)
      .where(eq(t.deps.asyncDb.tables.outbox.topic, "tracker_notify"))
      .orderBy(asc(t.deps.asyncDb.tables.outbox.id));
    expect(queued).toHaveLength(1); // the caption match is inside the burst window, grouped later
    expect(queued[0]).toMatchObject({ userId: user.id, kind: "bot", target: "42", method: "sendMessage", refId: items[1].id });
    expect(queued[0]!.payload).toEqual({
      text: "🔔 <b>Rust news</b>: new match\n📣 Rust Weekly (@rustweekly)\n\nBreaking: &lt;<b>Rust 2.0</b>&gt; is announced! Trusted sources confirm.",
      link_preview_options: { is_disabled: true },
      reply_markup: {
        inline_keyboard: [
          [{ text: "Open post", url: "https://t.me/rustweekly/55" }],
          [
            { text: "✓ Mark read", callback_data: `go:read_${items[1].id}` },
            { text: "🔎 Tracker", callback_data: `go:tracker_${tracker.id}` },
          ],
        ],
      },
    });

    // an edit that keeps the match updates the snippet; no second match
    fake.pushUpdate({
      edited_channel_post: { message_id: 55, date: now(), edit_date: now(), chat: CHANNEL, text: "Update: Rust 2.0 is delayed" },
    });
    await eventually(
      async () =>
        (await t.request("GET", `/api/tracking/${tracker.id}/matches`, { token })).json.items[1].text_snippet ===
        "Update: Rust 2.0 is delayed",
      "the edited snippet",
    );
    expect((await t.request("GET", `/api/tracking/${tracker.id}`, { token })).json.total_matches).toBe(2);

    // the person who added the bot is told
    const told = await fake.waitFor("sendMessage", (c) => c.params.chat_id === 7);
    expect(told.params.text).toContain("I was added to the channel “Rust Weekly”");

    // the notification's buttons act in place: ✓ Mark read is a toast and an edit, 🔎 Tracker sends its screen
    await deliveryWorker(t.deps).drain();
    const sent = await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("🔔"));
    let before = fake.calls.length;
    fake.press("✓ Mark read");
    expect((await fake.waitFor("answerCallbackQuery", (c) => fake.calls.indexOf(c) >= before)).params.text).toBe("✓ Marked as read.");
    const edited = await fake.waitFor("editMessageText", (c) => fake.calls.indexOf(c) >= before);
    expect(edited.params).toMatchObject({
      chat_id: 42,
      message_id: sent.result.message_id,
      text: "🔔 Rust news: new match\n📣 Rust Weekly (@rustweekly)\n\nBreaking: <Rust 2.0> is announced! Trusted sources confirm.\n\n✓ Read",
    });
    expect(edited.params.reply_markup.inline_keyboard).toEqual([
      [{ text: "Open post", url: "https://t.me/rustweekly/55" }],
      [{ text: "🔎 Tracker", callback_data: `go:tracker_${tracker.id}` }],
    ]);
    expect(fake.calls.slice(before).filter((c) => c.method === "sendMessage")).toEqual([]);
    expect((await t.request("GET", `/api/tracking/${tracker.id}/matches/unread`, { token })).json).toEqual({ count: 1 });
    before = fake.calls.length;
    fake.press("🔎 Tracker");
    await fake.waitFor(
      "sendMessage",
      (c) => fake.calls.indexOf(c) >= before && String(c.params.text).includes("Keyword: <code>rust 2.0</code>"),
    );
    fake.press("⏸ Disable");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("⏸ paused"));
    expect((await t.request("GET", `/api/tracking/${tracker.id}`, { token })).json.is_enabled).toBe(false);
    fake.press("▶️ Enable");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("🟢 active"));
    expect((await t.request("GET", `/api/tracking/${tracker.id}`, { token })).json.is_enabled).toBe(true);
  });

  test("an edited post that no longer matches is marked and shows its new text; edited back, it matches again", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const { json: tracker } = await t.request("POST", "/api/tracking", { token, body: { name: "Rust", keyword: "rust" } });
    addBotToChannel();
    await fake.waitFor("getChatMemberCount", (c) => c.params.chat_id === CHANNEL.id);
    const matches = async () =>
      (await t.request("GET", `/api/tracking/${tracker.id}/matches`, { token })).json.items as {
        text_snippet: string;
        matched_keyword: string | null;
        no_longer_matches: boolean;
      }[];
    fake.pushUpdate({ channel_post: { message_id: 70, date: now(), chat: CHANNEL, text: "We rewrote it in Rust" } });
    await eventually(async () => (await matches()).length === 1, "the match");
    expect((await matches())[0]).toMatchObject({ text_snippet: "We rewrote it in Rust", no_longer_matches: false });

    fake.pushUpdate({ edited_channel_post: { message_id: 70, date: now(), edit_date: now(), chat: CHANNEL, text: "We rewrote it in Go" } });
    await fake.handledAll();
    expect(await matches()).toEqual([
      expect.objectContaining({ text_snippet: "We rewrote it in Go", matched_keyword: null, no_longer_matches: true }),
    ]);

    fake.pushUpdate({
      edited_channel_post: { message_id: 70, date: now(), edit_date: now(), chat: CHANNEL, text: "We rewrote it in Rust after all" },
    });
    await fake.handledAll();
    const [back] = await matches();
    expect(back).toMatchObject({ no_longer_matches: false, matched_keyword: "Rust" });
    expect(back!.text_snippet).toContain("Rust after all");
    expect(await matches()).toHaveLength(1);
  });

  test("removed from a chat → the source is inactive and the remover is told; another user's deep link is refused", async () => {
    const { token } = await t.telegramUser(42, "alice");
    await t.telegramUser(43, "mallory");
    const { json: tracker } = await t.request("POST", "/api/tracking", { token, body: { name: "x", keyword: "x" } });
    addBotToChannel();
    await eventually(async () => (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources))[0], "the source row");
    fake.pushUpdate({
      my_chat_member: {
        chat: CHANNEL,
        from: { id: 7, is_bot: false, first_name: "Owner" },
        date: now(),
        old_chat_member: { status: "administrator", user: FAKE_BOT },
        new_chat_member: { status: "left", user: FAKE_BOT },
      },
    });
    await eventually(
      async () => (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources))[0]?.isActive === false,
      "the source to be inactive",
    );
    await fake.waitFor(
      "sendMessage",
      (c) => c.params.chat_id === 7 && String(c.params.text).includes("I was removed from the channel “Rust Weekly”"),
    );
    fake.pushMessage(`/start tracker_${tracker.id}`, { id: 43, username: "mallory" });
    await fake.waitFor("sendMessage", (c) => c.params.chat_id === 43 && String(c.params.text).startsWith("⚠️ Tracker not found"));
    expect((await t.request("GET", `/api/tracking/${tracker.id}`, { token })).json.is_enabled).toBe(true);
  });
});

describe("private chats feed only their owners' trackers", () => {
  const PRIVATE = { id: -1009999000001, type: "supergroup", title: "Mallory's friends" };
  const ADMIN = BOT_ADMIN;
  const MALLORY = { id: 43, is_bot: false, first_name: "Mallory", username: "mallory" };

  test("a stranger's private group never reaches another user's tracker; its owner's tracker sees it", async () => {
    const alice = await t.telegramUser(42, "alice");
    const { json: aliceTracker } = await t.request("POST", "/api/tracking", {
      token: alice.token,
      body: { name: "BTC", keyword: "bitcoin" },
    });
    // mallory adds the bot to his private group as a plain member: nobody's trackers read it
    fake.pushUpdate({
      my_chat_member: {
        chat: PRIVATE,
        from: MALLORY,
        date: now(),
        old_chat_member: { status: "left", user: FAKE_BOT },
        new_chat_member: { status: "member", user: FAKE_BOT },
      },
    });
    const told = await fake.waitFor("sendMessage", (c) => c.params.chat_id === 43);
    expect(String(told.params.text)).toContain("It is private, so I search its messages only for the keywords of people who own it");
    fake.pushUpdate({
      message: { message_id: 1, date: now(), chat: PRIVATE, from: MALLORY, text: "I finally bought bitcoin, don't tell anyone, PIN 4321" },
    });
    // he makes the bot an administrator: now it is his channel, and only his trackers read it
    fake.pushUpdate({
      my_chat_member: {
        chat: PRIVATE,
        from: MALLORY,
        date: now(),
        old_chat_member: { status: "member", user: FAKE_BOT },
        new_chat_member: ADMIN,
      },
    });
    const promoted = await fake.waitFor(
      "sendMessage",
      (c) => c.params.chat_id === 43 && String(c.params.text).includes("I am an administrator"),
    );
    expect(String(promoted.params.text)).toContain(
      "searched only for your keywords and those of other administrators who add it, never for anyone else's",
    );
    const mallory = await t.telegramUser(43, "mallory");
    const { json: malloryTracker } = await t.request("POST", "/api/tracking", {
      token: mallory.token,
      body: { name: "BTC", keyword: "bitcoin" },
    });
    fake.pushUpdate({ message: { message_id: 2, date: now(), chat: PRIVATE, from: MALLORY, text: "bitcoin again, PIN 1234" } });
    await eventually(
      async () => (await t.request("GET", `/api/tracking/${malloryTracker.id}/matches`, { token: mallory.token })).json.total === 1,
      "mallory's own match",
    );
    // a public channel still feeds everyone: alice's tracker works, yet saw nothing of the private group
    addBotToChannel();
    fake.pushUpdate({ channel_post: { message_id: 3, date: now(), chat: CHANNEL, text: "bitcoin is up" } });
    const aliceMatches = await eventually(async () => {
      const res = await t.request("GET", `/api/tracking/${aliceTracker.id}/matches`, { token: alice.token });
      return res.json.total >= 1 ? res.json : null;
    }, "alice's match in the public channel");
    expect(aliceMatches.items.map((m: { source_title: string; text_snippet: string }) => [m.source_title, m.text_snippet])).toEqual([
      ["Rust Weekly", "bitcoin is up"],
    ]);
    const queuedForAlice = await t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.outbox)
      .where(eq(t.deps.asyncDb.tables.outbox.userId, alice.user.id));
    expect(queuedForAlice.length).toBeGreaterThan(0);
    expect(queuedForAlice.some((row) => JSON.stringify(row.payload).includes("PIN"))).toBe(false);
  });
});

test("skip_reposts: a forwarded channel post (forward_origin) does not match; the original after it does", async () => {
  const { token } = await t.telegramUser(42, "alice");
  const { json: tracker } = await t.request("POST", "/api/tracking", {
    token,
    body: { name: "BTC", keyword: "bitcoin", skip_reposts: true },
  });
  addBotToChannel();
  await fake.waitFor("getChatMemberCount", (c) => c.params.chat_id === CHANNEL.id);
  const origin = { type: "channel", date: now(), chat: { id: -1009999, type: "channel", title: "Elsewhere" }, message_id: 9 };
  fake.pushUpdate({
    channel_post: { message_id: 1, date: now(), chat: CHANNEL, text: "Forwarded: bitcoin is up", forward_origin: origin },
  });
  fake.pushUpdate({ channel_post: { message_id: 2, date: now(), chat: CHANNEL, text: "Our own take: bitcoin is up" } });
  const { items } = await eventually(async () => {
    const res = await t.request("GET", `/api/tracking/${tracker.id}/matches`, { token });
    return res.json.total >= 1 ? res.json : null;
  }, "the original's match");
  expect(items.map((m: { source_message_id: number }) => m.source_message_id)).toEqual([2]);
});

test("POST /api/tracking/:id/test queues a sample bot message; email-only owners get a clear 400", async () => {
  const { user, token } = await t.telegramUser(42, "alice");
  const { json: tr } = await t.request("POST", "/api/tracking", { token, body: { name: "Rust", keyword: "rust" } });
  expect((await t.request("POST", `/api/tracking/${tr.id}/test`, { token })).json).toEqual({ success: true });
  const row = (
    await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox).where(eq(t.deps.asyncDb.tables.outbox.topic, "tracker_test"))
  )[0]!;
  expect(row).toMatchObject({ userId: user.id, kind: "bot", target: "42", refId: tr.id, method: "sendMessage" });
  expect(row.payload).toEqual({
    text: "🧪 Test\n🔔 <b>Rust</b>: new match\n📣 Test channel\n\nThis is a test notification for <b>rust</b>",
  });

  const email = await t.emailUser("e@example.com");
  const { json: etr } = await t.request("POST", "/api/tracking", { token: email.token, body: { name: "x", keyword: "x" } });
  const refused = await t.request("POST", `/api/tracking/${etr.id}/test`, { token: email.token });
  expect(refused.status).toBe(400);
  expect(refused.json.details[0].field).toBe("notify_via");
});

test("member counts are refreshed daily; a group upgraded to a supergroup keeps its source metadata", async () => {
  await upsertSource(
    t.deps,
    { chatId: String(CHANNEL.id), type: "channel", title: "Rust Weekly", username: "rustweekly" },
    { memberCount: 10 },
  );
  await upsertSource(t.deps, { chatId: "-555", type: "group", title: "Old group" }, { memberCount: 3 });
  await setSourceMetadata(t.deps, "-555", { geo: "DE" });
  fake.on("getChatMemberCount", (p) => (String(p.chat_id) === String(CHANNEL.id) ? 20000 : 3));
  await trackingSourcesJob(t.deps);
  expect(
    (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources).orderBy(t.deps.asyncDb.tables.trackingSources.id)).map(
      (s) => [s.chatId, s.memberCount],
    ),
  ).toEqual([
    [String(CHANNEL.id), 20000],
    ["-555", 3],
  ]);

  fake.pushUpdate({
    message: {
      message_id: 3,
      date: now(),
      chat: { id: -555, type: "group", title: "Old group" },
      from: { id: 7, is_bot: false, first_name: "O" },
      migrate_to_chat_id: -1005550000000,
    },
  });
  const moved = await eventually(
    async () =>
      (
        await t.deps.asyncDb
          .select()
          .from(t.deps.asyncDb.tables.trackingSources)
          .where(eq(t.deps.asyncDb.tables.trackingSources.chatId, "-1005550000000"))
      )[0],
    "the migrated source",
  );
  expect(moved).toMatchObject({ type: "supergroup", geo: "DE", memberCount: 3, title: "Old group" });
});

/** Answers every /track question in turn (texts and button choices); resolves with the final message. */
async function runTrack(a: { keyword: string; exact: string; minus: string; where: string; sources: string; via: string }) {
  fake.pushMessage("/track");
  await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("🔎 New keyword tracker"));
  fake.pushMessage(a.keyword);
  await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Match whole words only?"));
  fake.press(a.exact === "exact" ? "Whole words" : "Anywhere in the text");
  await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Minus words"));
  fake.pushMessage(a.minus);
  await fake.waitFor("sendMessage", (c) => c.params.text === "Where should I look?");
  fake.press({ both: "Channels and chats", channels: "Only channels", chats: "Only chats" }[a.where]!);
  await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Only specific sources?"));
  fake.pushMessage(a.sources);
  await fake.waitFor("sendMessage", (c) => c.params.text === "How should I notify you?");
  fake.press(a.via === "bot" ? "Message from this bot" : "Webhook (HTTP POST)");
  // the card comes with its preview, matched in the matcher's thread (word forms load the dictionaries there): slow on a busy machine
  return fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("✅ Tracker created"), 60_000);
}

describe("bot screens", () => {
  test("/track creates a tracker through the conversation", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const done = await runTrack({
      keyword: "Продам гараж",
      exact: "exact",
      minus: "куплю, аренда",
      where: "channels",
      sources: "@rustweekly t.me/c/123",
      via: "bot",
    });
    const [created] = (await t.request("GET", "/api/tracking", { token })).json;
    expect(created).toMatchObject({
      name: "Продам гараж",
      keyword: "Продам гараж",
      exact_match: true,
      minus_words: ["куплю", "аренда"],
      search_channels: true,
      search_chats: false,
      include_sources: ["@rustweekly", "t.me/c/123"],
      notify_via: "bot",
    });
    // the result is the tracker's screen
    expect(done.params.text).toContain("Keyword: <code>Продам гараж</code>");
    expect(done.params.reply_markup.inline_keyboard[0].map((x: { text: string }) => x.text)).toEqual([
      "⏸ Disable",
      "📰 Matches",
      "✓ Mark all read",
    ]);
    // each answered question lost its buttons
    expect(fake.callsOf("editMessageReplyMarkup").filter((c) => !c.params.reply_markup)).toHaveLength(3);
  });

  test("/track: minus words are separated by commas as asked, so a minus phrase stays whole", async () => {
    const { token } = await t.telegramUser(42, "alice");
    await runTrack({
      keyword: "деньги",
      exact: "substring",
      minus: "в кредит, быстрый займ,\nмикрозайм",
      where: "both",
      sources: "/skip",
      via: "bot",
    });
    const [created] = (await t.request("GET", "/api/tracking", { token })).json;
    expect(created).toMatchObject({
      keyword: "деньги",
      exact_match: false,
      minus_words: ["в кредит", "быстрый займ", "микрозайм"],
      include_sources: null,
    });
  });

  test("/track: typed choices are read by their own words (channels is only channels); /skip at a button step is answered and the dialog goes on", async () => {
    const { token } = await t.telegramUser(42, "alice");
    fake.pushMessage("/track");
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("🔎 New keyword tracker"));
    fake.pushMessage("rust");
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Match whole words only?"));
    fake.pushMessage("/skip");
    await fake.waitFor(
      "sendMessage",
      (c) => c.params.text === "Please press one of the buttons above, or type “exact”, “substring”; /cancel stops.",
    );
    fake.pushMessage("exact");
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Minus words"));
    fake.pushMessage("/skip");
    await fake.waitFor("sendMessage", (c) => c.params.text === "Where should I look?");
    fake.pushMessage("channels");
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("Only specific sources?"));
    fake.pushMessage("/skip");
    await fake.waitFor("sendMessage", (c) => c.params.text === "How should I notify you?");
    fake.pushMessage("bot");
    await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("✅ Tracker created"));
    const [created] = (await t.request("GET", "/api/tracking", { token })).json;
    expect(created).toMatchObject({ keyword: "rust", exact_match: true, search_channels: true, search_chats: false, notify_via: "bot" });
    // no keyboard of the dialog ends with an empty row
    const keyboards = fake
      .callsOf("sendMessage")
      .map((c) => c.params.reply_markup?.inline_keyboard)
      .filter(Boolean) as unknown[][][];
    expect(keyboards.length).toBeGreaterThanOrEqual(3);
    expect(keyboards.filter((rows) => rows.some((r) => r.length === 0))).toEqual([]);
    // nothing was offered for storage on the way
    expect(fake.callsOf("sendMessage").some((c) => /folder|note/i.test(String(c.params.text)))).toBe(false);
  });

  test("typed choices: each choice's word or whole label; a start shared by two labels is not a choice", () => {
    const where: [string, string][] = [
      ["Channels and chats", "both"],
      ["Only channels", "channels"],
      ["Only chats", "chats"],
    ];
    expect(
      ["channels", "Channels", "both", "chats", "only ch", "Channels and chats", "Only chats", "only channels"].map((x) =>
        readChoice(where, x),
      ),
    ).toEqual(["channels", "channels", "both", "chats", null, "both", "chats", "channels"]);
    expect(
      readChoice(
        [
          ["Message from this bot", "bot"],
          ["Webhook (HTTP POST)", "webhook"],
        ],
        "web",
      ),
    ).toBe("webhook");
    expect(readChoice(where, "")).toBeNull();
  });

  test("/track: the tracker's name is the keyword cut at 100 characters, never inside an emoji", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const keyword = `x${"🚀".repeat(60)}`;
    await runTrack({ keyword, exact: "substring", minus: "/skip", where: "both", sources: "/skip", via: "bot" });
    const [created] = (await t.request("GET", "/api/tracking", { token })).json;
    expect([created.name, created.keyword]).toEqual([keyword, keyword]);
  });

  test("the matches feed of a long-keyword tracker stays within 4096 characters and pages on from what it showed", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const phrase = Array.from({ length: 200 }, (_, i) => `w${i}xy`)
      .join(" ")
      .slice(0, 790)
      .trim();
    const { json: tr } = await t.request("POST", "/api/tracking", { token, body: { name: "Long", keyword: phrase } });
    addBotToChannel();
    await eventually(async () => (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources))[0], "the source row");
    for (let i = 1; i <= 6; i++)
      fake.pushUpdate({
        channel_post: { message_id: i, date: now(), chat: CHANNEL, text: `${"c".repeat(70)} ${phrase} ${"c".repeat(70)} ${i}` },
      });
    await eventually(
      async () => (await t.request("GET", `/api/tracking/${tr.id}/matches/unread`, { token })).json.count === 6,
      "6 matches",
    );
    fake.pushMessage(`/start tracker_${tr.id}`);
    await fake.waitFor("sendMessage", (c) => String(c.params.text).includes("Keyword:"));
    fake.press("📰 Matches");
    const page = await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("<b>Long</b>: matches 1–"));
    const text = String(page.params.text);
    expect(text.replace(/<[^>]+>/g, "").replace(/&(?:lt|gt|amp|quot);/g, "_").length).toBeLessThanOrEqual(4096);
    const shown = (text.match(/🆕/g) ?? []).length;
    expect(shown).toBeGreaterThanOrEqual(1);
    expect(text).toContain(`matches 1–${shown} of 6`);
    expect(page.params.reply_markup.inline_keyboard[0].map((x: { text: string }) => x.text)).toEqual(["Older »"]);
    fake.press("Older »");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes(`matches ${shown + 1}–`));
  });

  test("a business account's many trackers are listed 20 per page (Telegram takes at most 100 buttons)", async () => {
    const { user } = await t.telegramUser(42, "alice");
    await t.deps.asyncDb.update(t.deps.asyncDb.tables.users).set({ plan: "business" }).where(eq(t.deps.asyncDb.tables.users.id, user.id));
    for (let i = 1; i <= 45; i++) await createTracker(t.deps, user.id, { name: `T${i}`, keyword: `k${i}` });
    const labels = (c: RecordedCall): string[] => c.params.reply_markup.inline_keyboard.flat().map((b: { text: string }) => b.text);
    fake.pushMessage("/trackers");
    const first = labels(await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("🔎 <b>Your keyword trackers</b>")));
    expect(first.filter((x) => x.startsWith("🟢"))).toEqual(Array.from({ length: 20 }, (_, i) => `🟢 T${45 - i}`));
    expect(first).toEqual(expect.arrayContaining(["➕ New tracker", "📖 Add me to a channel", "More »", "⬅️ Menu"]));
    fake.press("More »");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("21–40 of 45"));
    fake.press("More »");
    const last = labels(await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("41–45 of 45")));
    expect(last.filter((x) => x.startsWith("🟢"))).toEqual(["🟢 T5", "🟢 T4", "🟢 T3", "🟢 T2", "🟢 T1"]);
    expect(last).toContain("« Previous");
    expect(last).not.toContain("More »");
  });

  test("a tracker card with the longest allowed lists stays within 4096 characters", async () => {
    const { user } = await t.telegramUser(42, "alice");
    const tr = await createTracker(t.deps, user.id, {
      name: "n".repeat(100),
      keyword: "k".repeat(800),
      minus_words: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, "m")),
      include_sources: Array.from({ length: 100 }, (_, i) => `https://t.me/channel_number_${i}`),
    });
    fake.pushMessage(`/start tracker_${tr.id}`);
    const card = await fake.waitFor("sendMessage", (c) => String(c.params.text).includes("Keyword:"));
    const text = String(card.params.text);
    expect(text.replace(/<[^>]+>/g, "").replace(/&(?:lt|gt|amp|quot);/g, "_").length).toBeLessThanOrEqual(4096);
    expect(text).toContain(`<code>${"k".repeat(800)}</code>`);
    expect(text).toContain("Minus words: 0mmm");
    expect(text).toContain("Only: https://t.me/channel_number_0, ");
    expect(card.params.reply_markup.inline_keyboard[0][0].text).toBe("⏸ Disable");
  });

  test("the tracking screen lists trackers; a tracker card toggles, shows the feed with paging, deletes after asking", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const { json: tr } = await t.request("POST", "/api/tracking", { token, body: { name: "Deals", keyword: "deal" } });
    addBotToChannel();
    await eventually(async () => (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources))[0], "the source row");
    for (let i = 1; i <= 7; i++)
      fake.pushUpdate({ channel_post: { message_id: i, date: now(), chat: CHANNEL, text: `Hot deal number ${i}` } });
    await eventually(
      async () => (await t.request("GET", `/api/tracking/${tr.id}/matches/unread`, { token })).json.count === 7,
      "7 matches",
    );

    fake.pushMessage("/start");
    await fake.waitFor("sendMessage", (c) => c.params.chat_id === 42);
    fake.press("🔎 Keyword tracking");
    const list = await fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("🔎 <b>Your keyword trackers</b>"));
    expect(list.params.reply_markup.inline_keyboard[0].map((x: { text: string }) => x.text)).toEqual(["🟢 Deals (7 new)"]);
    fake.press("🟢 Deals (7 new)");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("Matches: 7 (7 unread)"));
    fake.press("📰 Matches");
    const page1 = await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("matches 1–5 of 7"));
    expect(page1.params.text).toContain('🆕 <b>Rust Weekly</b> <a href="https://t.me/rustweekly/7">open</a>\nHot <b>deal</b> number 7');
    fake.press("Older »");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("matches 6–7 of 7"));
    fake.press("⬅️ Tracker");
    await fake.waitFor(
      "editMessageText",
      (c) => fake.calls.indexOf(c) > fake.calls.indexOf(page1) && String(c.params.text).includes("Matches: 7 (7 unread)"),
    );
    fake.press("✓ Mark all read");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("Matches: 7 (0 unread)"));
    fake.press("⏸ Disable");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("⏸ paused"));
    fake.press("🗑 Delete");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("Delete the tracker “Deals”"));
    fake.press("🗑 Yes, delete it and its matches");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("You have no keyword trackers yet"));
    expect((await t.request("GET", `/api/tracking/${tr.id}`, { token })).status).toBe(404);
  });
});

describe("watch_links through the bot", () => {
  test("the owner's link in a post's text, behind a text link and on a button is matched with that link; the link's card and the API list the placements; a stranger's link is not matched", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const stranger = await t.telegramUser(43, "mallory");
    const { json: link } = await t.request("POST", "/api/links", {
      token,
      body: { url: "https://example.org/spring", title: "Spring ad" },
    });
    const { json: theirs } = await t.request("POST", "/api/links", { token: stranger.token, body: { url: "https://example.org/other" } });
    const { json: tracker } = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "Where my links are", keyword: "zzqqxx", watch_links: true },
    });
    expect(tracker.watch_links).toBe(true);
    addBotToChannel();
    await eventually(async () => (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources))[0], "the source row");

    const teaser = "Spring sale: tap here";
    fake.pushUpdate({
      channel_post: { message_id: 11, date: now(), chat: CHANNEL, text: `Our partner's offer ${link.trackingUrl} — today only` },
    });
    fake.pushUpdate({
      channel_post: {
        message_id: 12,
        date: now(),
        chat: CHANNEL,
        text: teaser,
        entities: [{ type: "text_link", offset: teaser.indexOf("here"), length: 4, url: link.trackingUrl }],
      },
    });
    fake.pushUpdate({
      channel_post: {
        message_id: 13,
        date: now(),
        chat: CHANNEL,
        photo: [{ file_id: "p", file_unique_id: "p", width: 1, height: 1 }],
        caption: "New arrivals",
        reply_markup: { inline_keyboard: [[{ text: "Shop", url: link.trackingUrl }]] },
      },
    });
    fake.pushUpdate({
      channel_post: {
        message_id: 14,
        date: now(),
        chat: CHANNEL,
        text: `Someone else's: ${theirs.trackingUrl}`,
        reply_markup: { inline_keyboard: [[{ text: "Go", url: theirs.trackingUrl }]] },
      },
    });
    fake.pushUpdate({ channel_post: { message_id: 15, date: now(), chat: CHANNEL, text: "the last one" } });
    // updates are handled in order: once the last post was read, the stranger's link was too
    await eventually(async () => t.deps.trackerIndex.recent.list().some((p) => p.text === "the last one"), "the last post read");
    const { items } = await eventually(async () => {
      const res = await t.request("GET", `/api/tracking/${tracker.id}/matches`, { token });
      return res.json.total === 3 ? res.json : null;
    }, "three matches");
    expect(
      items.map((m: { source_message_id: number; matched_keyword: string; text_snippet: string }) => [
        m.source_message_id,
        m.matched_keyword,
        m.text_snippet,
      ]),
    ).toEqual([
      [13, link.trackingUrl, "New arrivals"],
      [12, link.trackingUrl, teaser],
      [11, link.trackingUrl, `Our partner's offer ${link.trackingUrl} — today only`],
    ]);

    const placements = await t.request("GET", `/api/links/${link.id}/placements`, { token });
    expect(placements.status).toBe(200);
    expect(placements.json).toMatchObject({ channels: 1, posts: 3 });
    expect(placements.json.items.map((p: { post_url: string }) => p.post_url)).toEqual(
      [13, 12, 11].map((n) => `https://t.me/rustweekly/${n}`),
    );
    expect(placements.json.items[0]).toEqual({
      source_chat_id: String(CHANNEL.id),
      source_title: "Rust Weekly",
      source_username: "rustweekly",
      source_message_id: 13,
      post_url: "https://t.me/rustweekly/13",
      detected_at: expect.any(String),
    });
    expect((await t.request("GET", `/api/links/${theirs.id}/placements`, { token: stranger.token })).json).toEqual({
      channels: 0,
      posts: 0,
      items: [],
    });
    expect((await t.request("GET", `/api/links/${link.id}/placements`, { token: stranger.token })).status).toBe(404);

    // the owner pastes the link: its card shows the placements next to the clicks
    fake.pushMessage(link.trackingUrl);
    const card = await fake.waitFor(
      "sendMessage",
      (c) => c.params.chat_id === 42 && String(c.params.text).startsWith("🔗 <b>Spring ad</b>"),
    );
    expect(card.params.text).toContain("👆 Clicks: <b>0</b>");
    expect(card.params.text).toContain('📍 Posted in 1 channel (3 posts): <a href="https://t.me/rustweekly/13">Rust Weekly</a>');
  });
});
