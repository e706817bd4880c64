/**
 * Keyword tracking end to end: posts arrive through the real bot (fake Bot API) or the MTProto
 * source, and the delivery worker actually sends the notifications: Bot API messages to the owner
 * and signed webhooks to a real receiver.
 */
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { useHarness, eventually } from "./harness";
import { FAKE_BOT } from "../helpers/fake-bot-api";
import { signatureMatches } from "../helpers/webhook-fixtures";
import { BURST_WINDOW_MS, flushTrackerNotifications } from "../../core/tracking/notify";
import { markMatchesRead } from "../../core/tracking/matches";
import { createMtprotoSource, type MtprotoClient, type MtprotoPost } from "../../core/tracking/mtproto";

const h = useHarness({ PLAN_LIMITS: JSON.stringify({ free: { trackers: 10 } }) });
const CHANNEL = { id: -1001234567890, type: "channel", title: "Rust Weekly", username: "rustweekly" };
const unix = () => Math.floor(Date.now() / 1000);

function addBotToChannel() {
  h.fake.pushUpdate({
    my_chat_member: {
      chat: CHANNEL,
      from: { id: 7, is_bot: false, first_name: "Owner" },
      date: unix(),
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
  return h.fake.waitFor("getChatMemberCount", (c) => c.params.chat_id === CHANNEL.id);
}

const post = (message_id: number, text: string) => h.fake.pushUpdate({ channel_post: { message_id, date: unix(), chat: CHANNEL, text } });

async function matchesOf(token: string, trackerId: number, n: number) {
  return eventually(async () => {
    const r = await h.api("GET", `/api/tracking/${trackerId}/matches?limit=100`, { token });
    return r.json.total === n ? (r.json.items as any[]) : null;
  }, `${n} matches`);
}

const botNotifications = (chatId: number) =>
  h.fake.callsOf("sendMessage").filter((c) => c.params.chat_id === chatId && String(c.params.text).startsWith("🔔"));

/** A Telegram user client for the MTProto source, driven by the test. */
function fakeMtproto(chats: Awaited<ReturnType<MtprotoClient["listChats"]>>) {
  const handlers: { post?: (p: MtprotoPost) => void | Promise<void>; deleted?: (chatId: string, ids: number[]) => void | Promise<void> } =
    {};
  const client: MtprotoClient = {
    connect: async () => {},
    disconnect: async () => {},
    listChats: async () => chats,
    subscribe: (hs) => Object.assign(handlers, hs),
  };
  return { client, handlers };
}

describe("keyword tracking notifications are delivered", () => {
  test("bot: a matching channel post becomes a sendMessage to the owner with the outbox row's text, parse_mode and buttons", async () => {
    const { user, token } = await h.t.telegramUser(4242, "owner");
    const created = await h.api("POST", "/api/tracking", { token, body: { name: "Rust news", keyword: "rust 2.0", exact_match: true } });
    expect(created.status).toBe(201);
    await addBotToChannel();
    post(55, "Breaking: Rust 2.0 is announced");
    const [match] = await matchesOf(token, created.json.id, 1);

    const row = (
      await h.t.deps.asyncDb.select().from(h.t.deps.asyncDb.tables.outbox).where(eq(h.t.deps.asyncDb.tables.outbox.topic, "tracker_notify"))
    )[0]!;
    expect(row).toMatchObject({ userId: user.id, status: "pending" });
    await h.drain();

    const sent = botNotifications(4242);
    expect(sent).toHaveLength(1);
    const payload = row.payload as Record<string, any>;
    expect(sent[0]!.params).toMatchObject({ chat_id: 4242, text: payload.text, parse_mode: "HTML" });
    expect(sent[0]!.params.text).toContain("<b>Rust 2.0</b>");
    expect(sent[0]!.params.reply_markup.inline_keyboard[0]).toEqual([{ text: "Open post", url: "https://t.me/rustweekly/55" }]);
    // the buttons act in place (callback data, well under Telegram's 64 bytes)
    expect(sent[0]!.params.reply_markup.inline_keyboard[1]).toEqual([
      { text: "✓ Mark read", callback_data: `go:read_${match.id}` },
      { text: "🔎 Tracker", callback_data: `go:tracker_${created.json.id}` },
    ]);
    expect(
      (await h.t.deps.asyncDb.select().from(h.t.deps.asyncDb.tables.outbox).where(eq(h.t.deps.asyncDb.tables.outbox.id, row.id)))[0]!
        .status,
    ).toBe("done");

    // a second drain sends nothing again
    await h.drain();
    expect(botNotifications(4242)).toHaveLength(1);
  });

  test("webhook: the exact {event, tracker, match} body arrives signed with the user's secret, and is retried after a failure", async () => {
    const { token } = await h.t.telegramUser(4242, "owner");
    const url = `${h.rx.url}/tracker-hook`;
    const created = await h.api("POST", "/api/tracking", {
      token,
      body: { name: "Rust hook", keyword: "rust", notify_via: "webhook", webhook_url: url },
    });
    expect(created.status).toBe(201);
    const { json: secret } = await h.api("GET", "/api/webhooks/secret", { token });
    expect(secret.secret).toBeString();

    let failuresLeft = 1;
    h.rx.respond = (r) => (r.headers["x-webhook-event"] === "keyword_match" && failuresLeft-- > 0 ? 503 : 200);
    await addBotToChannel();
    post(70, "We rewrote it in Rust");
    const [match] = await matchesOf(token, created.json.id, 1);
    const { json: tracker } = await h.api("GET", `/api/tracking/${created.json.id}`, { token });

    await h.drain();
    const events = h.rx.received.filter((r) => r.path === "/tracker-hook" && r.headers["x-webhook-event"] === "keyword_match");
    expect(events).toHaveLength(2); // the 503, then the immediate first retry
    for (const e of events) {
      expect(e.method).toBe("POST");
      expect(JSON.parse(e.body)).toEqual({ event: "keyword_match", tracker, match });
      expect(signatureMatches(secret.secret, e.headers, e.body)).toBe(true);
    }
    expect(events[1]!.headers["x-webhook-id"]).toBe(events[0]!.headers["x-webhook-id"]!);
    expect(
      (
        await h.t.deps.asyncDb
          .select()
          .from(h.t.deps.asyncDb.tables.outbox)
          .where(eq(h.t.deps.asyncDb.tables.outbox.topic, "tracker_webhook"))
      )[0]!.status,
    ).toBe("done");
  });

  test("post_deleted: a deleted post reported by the MTProto source is delivered by webhook and by bot when notify_on_delete", async () => {
    const { token } = await h.t.telegramUser(4242, "owner");
    const hook = await h.api("POST", "/api/tracking", {
      token,
      body: { name: "Hooked", keyword: "launch", notify_via: "webhook", webhook_url: `${h.rx.url}/del`, notify_on_delete: true },
    });
    const chat = await h.api("POST", "/api/tracking", { token, body: { name: "Chatty", keyword: "launch", notify_on_delete: true } });
    const quiet = await h.api("POST", "/api/tracking", {
      token,
      body: { name: "Quiet", keyword: "launch", notify_via: "webhook", webhook_url: `${h.rx.url}/quiet` },
    });
    expect([hook.status, chat.status, quiet.status]).toEqual([201, 201, 201]);

    const mt = fakeMtproto([{ chatId: "-1009876543210", type: "channel", title: "Space News", username: "spacenews", memberCount: 5000 }]);
    const source = createMtprotoSource(h.t.deps, mt.client);
    await source.start();
    await mt.handlers.post!({ chatId: "-1009876543210", messageId: 9, text: "The launch is tomorrow" });
    await h.drain();
    const { json: secret } = await h.api("GET", "/api/webhooks/secret", { token });

    await mt.handlers.deleted!("-1009876543210", [9]);
    await h.drain();

    const deleted = h.rx.received.filter((r) => r.headers["x-webhook-event"] === "post_deleted");
    expect(deleted.map((r) => r.path)).toEqual(["/del"]);
    const [m] = (await h.api("GET", `/api/tracking/${hook.json.id}/matches`, { token })).json.items;
    expect(m.is_deleted).toBe(true);
    const { json: tracker } = await h.api("GET", `/api/tracking/${hook.json.id}`, { token });
    expect(JSON.parse(deleted[0]!.body)).toEqual({ event: "post_deleted", tracker, match: m });
    expect(signatureMatches(secret.secret, deleted[0]!.headers, deleted[0]!.body)).toBe(true);

    const botDeleted = h.fake.callsOf("sendMessage").filter((c) => c.params.chat_id === 4242 && String(c.params.text).startsWith("🗑"));
    expect(botDeleted).toHaveLength(1);
    expect(botDeleted[0]!.params).toMatchObject({ parse_mode: "HTML" });
    expect(botDeleted[0]!.params.text).toContain("<b>Chatty</b>: a matched post was deleted");
    expect(botDeleted[0]!.params.text).toContain("<b>launch</b>");
    await source.stop();
  });

  test("a match read while it waits for the burst window is left out of the grouped message; all read, nothing is sent", async () => {
    const { user, token } = await h.t.telegramUser(4242, "owner");
    const created = await h.api("POST", "/api/tracking", { token, body: { name: "Burst", keyword: "rust" } });
    await addBotToChannel();
    post(1, "rust one");
    await matchesOf(token, created.json.id, 1);
    await h.drain();
    post(2, "rust two");
    post(3, "rust three");
    post(4, "rust four");
    const items = (await matchesOf(token, created.json.id, 4)).sort((a, b) => a.id - b.id);
    // "two" is read (its ✓ Mark read) before the window closes
    const two = items.find((m) => m.text_snippet === "rust two")!;
    expect(await markMatchesRead(h.t.deps, user.id, [two.id])).toBe(1);
    h.t.clock.advance(BURST_WINDOW_MS * 2);
    expect(await flushTrackerNotifications(h.t.deps)).toBe(1);
    await h.drain();
    const grouped = botNotifications(4242).at(-1)!.params.text as string;
    expect(grouped).toStartWith("🔔 <b>2 new matches</b>");
    expect(grouped).not.toContain("<b>rust</b> two");

    post(5, "rust five");
    await matchesOf(token, created.json.id, 5);
    expect((await h.api("POST", `/api/tracking/${created.json.id}/matches/read-all`, { token })).status).toBe(200);
    h.t.clock.advance(BURST_WINDOW_MS * 2);
    expect(await flushTrackerNotifications(h.t.deps)).toBe(0);
    await h.drain();
    expect(botNotifications(4242)).toHaveLength(2);
  });

  test("a burst: matches inside the window become exactly one grouped sendMessage once the window has passed", async () => {
    const { token } = await h.t.telegramUser(4242, "owner");
    const created = await h.api("POST", "/api/tracking", { token, body: { name: "Burst", keyword: "rust" } });
    await addBotToChannel();
    post(1, "rust one");
    await matchesOf(token, created.json.id, 1);
    await h.drain();
    expect(botNotifications(4242)).toHaveLength(1); // the first match goes out at once

    post(2, "rust two");
    post(3, "rust three");
    post(4, "rust four");
    const items = await matchesOf(token, created.json.id, 4);
    h.t.clock.advance(BURST_WINDOW_MS / 2);
    expect(await flushTrackerNotifications(h.t.deps)).toBe(0); // the window is still open
    await h.drain();
    expect(botNotifications(4242)).toHaveLength(1);

    h.t.clock.advance(BURST_WINDOW_MS);
    expect(await flushTrackerNotifications(h.t.deps)).toBe(1);
    await h.drain();
    const sent = botNotifications(4242);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.params.text).toStartWith("🔔 <b>3 new matches</b>");
    for (const w of ["two", "three", "four"]) expect(sent[1]!.params.text).toContain(`<b>rust</b> ${w}`);
    const ids = items
      .map((m) => m.id)
      .sort((a, b) => a - b)
      .slice(1);
    expect(sent[1]!.params.reply_markup.inline_keyboard[0][0]).toEqual({
      text: "✓ Mark these read",
      callback_data: `go:readr_${ids[0]}-${ids[2]}`,
    });
    // pressed by a Russian-speaking owner: a toast and the grouped message marked, in Russian
    const before = h.fake.calls.length;
    h.fake.press("✓ Mark these read", { id: 4242, username: "owner", language_code: "ru" });
    expect((await h.fake.waitFor("answerCallbackQuery", (c) => h.fake.calls.indexOf(c) >= before)).params.text).toBe(
      "✓ Отмечено прочитанными: 3.",
    );
    const edited = await h.fake.waitFor("editMessageText", (c) => h.fake.calls.indexOf(c) >= before);
    expect(edited.params.text).toStartWith("🔔 3 new matches\n");
    expect(edited.params.text).toEndWith("\n\n✓ Всё прочитано");
    expect(edited.params.reply_markup.inline_keyboard).toEqual([[{ text: "🔎 My trackers", callback_data: "go:trackers" }]]);
    expect((await h.api("GET", `/api/tracking/${created.json.id}/matches/unread`, { token })).json).toEqual({ count: 1 }); // the first match, sent on its own, is still unread

    // nothing more is pending
    h.t.clock.advance(BURST_WINDOW_MS * 2);
    expect(await flushTrackerNotifications(h.t.deps)).toBe(0);
    await h.drain();
    expect(botNotifications(4242)).toHaveLength(2);
    expect(
      (
        await h.t.deps.asyncDb
          .select()
          .from(h.t.deps.asyncDb.tables.outbox)
          .where(eq(h.t.deps.asyncDb.tables.outbox.topic, "tracker_notify"))
          .orderBy(asc(h.t.deps.asyncDb.tables.outbox.id))
      ).map((r) => r.status),
    ).toEqual(["done", "done"]);
  });
});
