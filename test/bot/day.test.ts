/**
 * The smaller parts of a marketer's day in the bot, in English and Russian: the report's settings
 * button opens the report settings, /help@bot answers in a group, a voice message is told why it is
 * not taken, and a share link's screen names its file.
 */
import { afterEach, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { callbackData } from "../../core/deep-link";
import { t } from "../../core/i18n/translate";

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;

for (const language of ["en", "ru"] as const) {
  test(`${language}: the report's ⚙️ Report settings opens the report settings, not general Settings`, async () => {
    b = unitBot({}, { language_code: language });
    await b.send("/start");
    await b.tap(callbackData({ kind: "reports" }), 77, { text: "📬 …" });
    expect(lastText()).toStartWith(t(language, "reports-title"));
  });

  test(`${language}: a voice message is told why it is not taken`, async () => {
    b = unitBot({}, { language_code: language });
    const from = { id: 42, is_bot: false, first_name: "Alice", language_code: language };
    await b.update({
      message: {
        message_id: 11,
        date: 0,
        chat: { id: 42, type: "private" },
        from,
        voice: { file_id: "v1", file_unique_id: "v1", duration: 3 },
      },
    });
    expect(lastText()).toStartWith(t(language, "unknown-voice").split(".")[0]!);
  });

  test(`${language}: /help@bot in a group answers there`, async () => {
    b = unitBot({}, { language_code: language });
    const from = { id: 42, is_bot: false, first_name: "Alice", language_code: language };
    await b.update({
      message: {
        message_id: 10,
        date: 0,
        chat: { id: -100500, type: "supergroup", title: "Team" },
        from,
        text: `/help@${b.bot.botInfo.username}`,
        entities: [{ type: "bot_command", offset: 0, length: 6 + b.bot.botInfo.username.length }],
      },
    });
    const answer = b.last("sendMessage");
    expect(answer.params.chat_id).toBe(-100500);
    expect(answer.params.text).toBe(t(language, "help-group", { bot: b.bot.botInfo.username }));
  });
}

test("a share link's screen names its file", async () => {
  const { findUserByIdentity } = await import("../../core/accounts/users");
  const { createFolder } = await import("../../core/secure/folders");
  const { createFile } = await import("../../core/secure/files");
  const { createLink } = await import("../../core/secure/links");
  b = unitBot({}, { language_code: "ru" });
  await b.send("/start");
  const user = (await findUserByIdentity(b.t.deps, "telegram", "42"))!;
  const folder = await createFolder(b.t.deps, user.id, { name: "Договоры" });
  const file = await createFile(b.t.deps, user.id, { folderId: folder.id, name: "договор.pdf", contentType: "text", textContent: "…" });
  const link = await createLink(b.t.deps, user.id, { fileId: file.id, expiresInHours: 24, maxViews: null });
  await b.send(link.url);
  expect(lastText()).toStartWith("📄 <b>договор.pdf</b>");
  // a small file takes room: the storage line never says 0 with files stored
  await b.send("/settings");
  expect(lastText()).toContain("💾 Хранилище: < 0,1 из");
});
