/**
 * The smaller parts of a marketer's day in the bot, in English and Russian: the report's settings
 * button opens the report settings, /help@bot answers in a group, a voice message is told why it is
 * not taken, a share link's screen names its file, an untitled link is headed by where it leads, and
 * the join journal's XLSX holds its times as date cells on the user's wall clock.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import ExcelJS from "exceljs";
import { unitBot } from "./unit";
import { plainOf } from "../helpers/fake-bot-api";
import { callbackData } from "../../core/deep-link";
import { t } from "../../core/i18n/translate";

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

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

for (const language of ["en", "ru"] as const) {
  test(`${language}: an untitled link is headed by where it leads, never by its code`, async () => {
    b = unitBot({ SHORT_URL: "https://s.example" }, { language_code: language });
    await b.send("https://shop.example/spring-sale");
    const card = lastText();
    const [notice, heading] = card.split("\n\n");
    expect(heading).toStartWith("🔗 <b>https://shop.example/spring-sale</b>");
    // the new short link is code in the notice too: a tap copies it, never opens it and counts a click
    expect(notice).toMatch(/<code>https:\/\/s\.example\/\w+<\/code>/);
  });

  test(`${language}: the join journal's XLSX holds its times as date cells on the user's wall clock`, async () => {
    const { upsertTelegramUser } = await import("../../core/accounts/users");
    const { updateSettings } = await import("../../core/reports/settings");
    b = unitBot({}, { language_code: language });
    const deps = b.t.deps;
    const user = await upsertTelegramUser(deps, { id: 42, username: "alice", firstName: "Alice" });
    await updateSettings(deps, user.id, { time_zone: "Europe/Moscow" });
    const db = deps.asyncDb;
    const [channel] = await db
      .insert(db.tables.channels)
      .values({ userId: user.id, chatId: "-100777", type: "channel", title: "Клуб", botIsAdmin: true, canInvite: true })
      .returning();
    b.fake.members.set("-100777:42", { status: "creator" });
    await db.insert(db.tables.channelJoins).values({
      chatId: "-100777",
      memberId: 901,
      firstName: "Ann",
      via: "none",
      joinedAt: new Date("2026-11-20T15:30:00Z"),
    });
    await b.send(`/start channel_${channel!.id}`);
    await b.press("📤 XLSX");
    const doc = b.calls.findLast((c) => c.method === "sendDocument")!;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(doc.files.document!.bytes) as unknown as ArrayBuffer);
    const cell = wb.worksheets[0]!.getRow(2).getCell(1);
    expect(cell.type).toBe(ExcelJS.ValueType.Date);
    // 15:30 UTC is 18:30 in Moscow: the cell holds the wall clock the heading names
    expect((cell.value as Date).toISOString()).toBe("2026-11-20T18:30:00.000Z");
    expect(String(wb.worksheets[0]!.getRow(1).getCell(1).value)).toContain(language === "en" ? "Moscow" : "Москва");
  });
}

test("a share link's screen names its file", async () => {
  const { findUserByIdentity } = await import("../../core/accounts/users");
  const { createFolder } = await import("../../core/secure/folders");
  const { createFile } = await import("../../core/secure/files");
  const { createShareLink } = await import("../../core/secure/share-links");
  b = unitBot({}, { language_code: "ru" });
  await b.send("/start");
  const user = (await findUserByIdentity(b.t.deps, "telegram", "42"))!;
  const folder = await createFolder(b.t.deps, user.id, { name: "Договоры" });
  const file = await createFile(b.t.deps, user.id, { folderId: folder.id, name: "договор.pdf", contentType: "text", textContent: "…" });
  const link = await createShareLink(b.t.deps, user.id, { fileId: file.id, expiresInHours: 24, maxViews: null });
  await b.send(link.url);
  expect(lastText()).toStartWith("📄 <b>договор.pdf</b>");
  // a small file takes room: the storage line never says 0 with files stored
  await b.send("/settings");
  // as the user reads it: the "<" is escaped in the HTML sent (a bare one Telegram refuses)
  expect(plainOf(b.last("sendMessage").params).text).toContain("💾 Хранилище: < 0,1 из");
});
