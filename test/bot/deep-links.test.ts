/**
 * Buttons of the messages core sends act in place: a press answers with a toast and edits the message
 * (or sends a screen below it), in the presser's language, for the owner only.
 */
import { afterEach, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { seed } from "../api/secure/helpers";
import { callbackData } from "../../core/deep-link";
import { eq } from "drizzle-orm";
import { createTracker } from "../../core/tracking/trackers";
import { ingestPost } from "../../core/tracking/ingest";

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

/** A share link of user `tgId` and the view notification's buttons, as core queues them. */
async function shareLink(tgId: number) {
  const { token, image } = await seed(b.t, tgId);
  const link = (
    await b.t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 2, notifyOnView: true } })
  ).json;
  const keyboard = [
    [
      { text: "⛔ Revoke", callback_data: callbackData({ kind: "revoke", id: link.id }) },
      { text: "⚙️ Manage", callback_data: callbackData({ kind: "sharelink", id: link.id }) },
    ],
  ];
  const state = async () =>
    ((await b.t.request("GET", `/api/secure/links?fileId=${image.id}`, { token })).json as { id: number; state: string }[]).find(
      (l) => l.id === link.id,
    )!.state;
  return {
    state,
    link,
    shown: {
      text: "👁 pic was opened\nViews left: unlimited",
      entities: [{ type: "bold", offset: 2, length: 3 }],
      reply_markup: { inline_keyboard: keyboard },
    },
  };
}

test("⛔ Revoke pressed by a Russian-speaking owner: a Russian toast, the message marked in Russian with its formatting, the link revoked", async () => {
  b = unitBot({}, { language_code: "ru" });
  const { state, link, shown } = await shareLink(42);
  const calls = await b.tap(callbackData({ kind: "revoke", id: link.id }), 77, shown);
  expect(calls.map((c) => c.method)).toEqual(["answerCallbackQuery", "editMessageText"]);
  expect(calls[0]!.params.text).toBe("⛔ Отозвана: ссылка больше не открывается.");
  expect(calls[1]!.params).toMatchObject({
    message_id: 77,
    text: "👁 pic was opened\nViews left: unlimited\n\n⛔ Отозвана: эта ссылка больше не открывается.",
    entities: [{ type: "bold", offset: 2, length: 3 }],
    reply_markup: { inline_keyboard: [[{ text: "⚙️ Manage", callback_data: `go:sharelink_${link.id}` }]] },
  });
  expect(await state()).toBe("revoked");
});

test("a press on someone else's object is refused with a toast and changes nothing", async () => {
  b = unitBot();
  await seed(b.t, 42);
  const { state, link, shown } = await shareLink(43);
  const calls = await b.tap(callbackData({ kind: "revoke", id: link.id }), 77, shown);
  expect(calls.map((c) => [c.method, c.params.text, c.params.show_alert])).toEqual([
    ["answerCallbackQuery", "That share link no longer exists.", true],
  ]);
  expect(await state()).toBe("active");
  const open = await b.tap(callbackData({ kind: "sharelink", id: link.id }), 77, shown);
  expect(open.map((c) => [c.method, c.params.text])).toEqual([["answerCallbackQuery", "That share link no longer exists."]]);
  const read = await b.tap(callbackData({ kind: "read", id: 999 }), 78, { text: "🔔 x" });
  expect(read.map((c) => [c.method, c.params.text, c.params.show_alert])).toEqual([["answerCallbackQuery", "Match not found", true]]);
});

test("outside the owner's private chat the buttons do nothing and say why", async () => {
  b = unitBot();
  const { state, link, shown } = await shareLink(42);
  const before = b.calls.length;
  await b.update({
    callback_query: {
      id: "9",
      from: { id: 42, is_bot: false, first_name: "Alice" },
      chat_instance: "2",
      data: callbackData({ kind: "revoke", id: link.id }),
      message: { message_id: 5, date: 1, chat: { id: -100123, type: "supergroup", title: "Team" }, ...shown },
    },
  });
  expect(b.calls.slice(before).map((c) => [c.method, c.params.text, c.params.show_alert])).toEqual([
    ["answerCallbackQuery", "This button works only in the owner's chat with the bot.", true],
  ]);
  expect(await state()).toBe("active");
});

test("t.me start links of messages sent before still work, through the one /start router; a start link cannot revoke", async () => {
  b = unitBot({ PLAN_LIMITS: '{"free":{"trackers":5}}' }, { language_code: "ru" });
  const { user } = await b.t.telegramUser(42, "alice");
  await createTracker(b.t.deps, user.id, { name: "Rust", keyword: "rust" });
  const chat = { chatId: "-1001000000001", type: "channel" as const, title: "News", username: "news" };
  const [one] = await ingestPost(b.t.deps, { chat, messageId: 1, text: "rust one" });
  const [two] = await ingestPost(b.t.deps, { chat, messageId: 2, text: "rust two" });
  const [three] = await ingestPost(b.t.deps, { chat, messageId: 3, text: "rust three" });
  await b.send(`/start read_${one!.id}`);
  expect(b.last("sendMessage").params.text).toStartWith("✓ Отмечено прочитанным.\n\n");
  await b.send(`/start readr_${two!.id}-${three!.id}`);
  expect(b.last("sendMessage").params.text).toStartWith("✓ Отмечено прочитанными: 2.\n\n");
  expect(
    await b.t.deps.asyncDb
      .select()
      .from(b.t.deps.asyncDb.tables.trackerMatches)
      .where(eq(b.t.deps.asyncDb.tables.trackerMatches.isRead, false)),
  ).toEqual([]);

  const { link, state } = await shareLink(42);
  await b.send(`/start revoke_${link.id}`);
  expect(b.last("sendMessage").params.text).toStartWith("👋"); // an unknown payload greets
  expect(await state()).toBe("active");
});
