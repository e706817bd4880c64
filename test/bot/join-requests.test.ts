/**
 * Join requests as the owner sees them, in English and Russian, on the fake Bot API: one message per
 * channel naming it with the count (a new request replaces it below), "Approve all", the count on
 * the channel's Requests button, and a request settled from the Requests screen updates that message
 * so no copy keeps a button for it. The rights checks stay: someone who no longer runs the channel
 * cannot approve.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { unitBot } from "./unit";
import { upsertTelegramUser } from "../../core/accounts/users";
import { t } from "../../core/i18n/translate";
import { expectRussian } from "../helpers/russian";

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const CHAT = { id: -100777, type: "channel" as const, title: "Клуб рекламы" };
const LINK = "https://t.me/+ad";

async function setup(language: "en" | "ru") {
  b = unitBot({}, { language_code: language });
  const deps = b.t.deps;
  const user = await upsertTelegramUser(deps, { id: 42, username: "alice", firstName: "Alice" });
  const db = deps.asyncDb;
  const [channel] = await db
    .insert(db.tables.channels)
    .values({ userId: user.id, chatId: String(CHAT.id), type: "channel", title: CHAT.title, botIsAdmin: true, canInvite: true })
    .returning();
  await db.insert(db.tables.channelInvites).values({
    userId: user.id,
    channelId: channel!.id,
    chatId: String(CHAT.id),
    name: "Весна",
    inviteLink: LINK,
    joinRequest: true,
    approve: "manual",
  });
  b.fake.members.set(`${CHAT.id}:42`, { status: "creator" });
  await b.send("/start");
  return { db, channel: channel! };
}

let date = 1_800_000_000;
const ask = (id: number, first_name: string) =>
  b.update({
    chat_join_request: {
      chat: CHAT,
      from: { id, is_bot: false, first_name },
      user_chat_id: id,
      date: date++,
      invite_link: {
        invite_link: LINK,
        creator: { id: 42, is_bot: false, first_name: "Alice" },
        creates_join_request: true,
        is_primary: false,
        is_revoked: false,
      },
    },
  });

const notices = () => b.calls.filter((c) => c.method === "sendMessage" && String(c.params.text).startsWith(`🙋 <b>${CHAT.title}</b>`));
const labelsOf = (c: { params: Record<string, any> }) =>
  (c.params.reply_markup?.inline_keyboard ?? []).map((r: { text: string }[]) => r.map((x) => x.text));

for (const language of ["en", "ru"] as const) {
  test(`${language}: requests come as one message per channel with the count; Approve all settles them and says so`, async () => {
    const { db } = await setup(language);
    const before = b.calls.length;
    await ask(601, "Finn");
    await ask(602, "Gil");
    await ask(603, "Hal");
    const sent = notices();
    expect(sent).toHaveLength(3);
    const last = sent.at(-1)!;
    expect(last.params.text).toStartWith(t(language, "requests-notice-head", { channel: CHAT.title, count: 3 }));
    expect(last.params.text).toContain(t(language, "requests-notice-line", { who: "Hal", invite: "Весна" }));
    // the earlier ones went: one message per channel
    const deleted = b.calls.filter((c) => c.method === "deleteMessage").map((c) => c.params.message_id);
    expect(deleted).toEqual([sent[0]!.result.message_id, sent[1]!.result.message_id]);
    expect(labelsOf(last)).toEqual([
      ["✅ Finn", "❌"],
      ["✅ Gil", "❌"],
      ["✅ Hal", "❌"],
      [t(language, "requests-approve-all", { count: 3 })],
      [t(language, "requests-notice-open")],
    ]);
    await b.press(t(language, "requests-approve-all", { count: 3 }));
    expect(b.calls.filter((c) => c.method === "approveChatJoinRequest").map((c) => c.params.user_id)).toEqual([601, 602, 603]);
    const edited = b.last("editMessageText");
    expect(edited.params.message_id).toBe(last.result.message_id);
    expect(edited.params.text).toBe(
      `${t(language, "requests-approved-all", { count: 3, refused: 0 })}\n\n${t(language, "requests-notice-none", { channel: CHAT.title })}`,
    );
    expect(labelsOf(edited)).toEqual([]);
    const pending = await db.select().from(db.tables.channelJoinRequests).where(eq(db.tables.channelJoinRequests.status, "pending"));
    expect(pending).toEqual([]);
    if (language === "ru") expectRussian(b.calls, before);
  });

  test(`${language}: the Requests button counts them; one approved from the list updates the channel's message`, async () => {
    const { channel } = await setup(language);
    await ask(601, "Finn");
    await ask(602, "Gil");
    const notice = notices().at(-1)!;
    await b.send(`/start channel_${channel.id}`);
    await b.press(t(language, "channel-requests", { count: 2 }));
    await b.press("✅ Finn");
    expect(b.calls.filter((c) => c.method === "approveChatJoinRequest").map((c) => c.params.user_id)).toEqual([601]);
    const update = b.calls.find((c) => c.method === "editMessageText" && c.params.message_id === notice.result.message_id)!;
    expect(update.params.text).toBe(
      `${t(language, "request-approved", { name: "Finn" })}\n\n${t(language, "requests-notice-head", { channel: CHAT.title, count: 1 })}\n${t(language, "requests-notice-line", { who: "Gil", invite: "Весна" })}`,
    );
    // Gil alone is left, with his own buttons; Finn's are gone from every message
    expect(labelsOf(update)).toEqual([
      [t(language, "join-request-approve"), t(language, "join-request-decline")],
      [t(language, "join-request-open-invite")],
    ]);
    // the list itself: one left, no Approve all for one
    const list = b.calls.findLast((c) => c.method === "editMessageText" && c.params.message_id !== notice.result.message_id)!;
    expect(list.params.text).toStartWith(t(language, "request-approved", { name: "Finn" }));
    expect(labelsOf(list).flat()).not.toContain("✅ Finn");
    await b.send(`/start channel_${channel.id}`);
    expect(labelsOf(b.last("sendMessage")).flat()).toContain(t(language, "channel-requests", { count: 1 }));
  });
}

test("someone who no longer runs the channel cannot approve from the message", async () => {
  await setup("en");
  await ask(601, "Finn");
  b.fake.members.set(`${CHAT.id}:42`, { status: "left" });
  b.t.deps.chatStandings.drop(); // as a chat_member update would tell
  await b.press(t("en", "join-request-approve"));
  expect(b.calls.filter((c) => c.method === "approveChatJoinRequest")).toEqual([]);
  expect(b.last("answerCallbackQuery").params.show_alert).toBe(true);
});
