/**
 * A user whose Telegram speaks Russian walks the main flows (start, help, a new link and its card,
 * stats, the link list, trackers and a new tracker, channels, settings) and sees no English: no
 * text of en.ftl (its sentences between variables), and no run of English words in any message,
 * toast, caption or button. Switching the language in Settings is kept on the user.
 */
import { pdfPages } from "../helpers/pdf";
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { unitBot, type ApiCall } from "./unit";
import { expectRussian, latinCells } from "../helpers/russian";
import { findUserByIdentity } from "../../core/accounts/users";
import { createLink } from "../../core/links/links";
import { notifyMatches } from "../../core/tracking/notify";
import { flushTrackerDigests } from "../../core/tracking/digests";
import { sendDueReports } from "../../core/reports/report";
import { queueViewNotice } from "../../core/secure/notify";
import { recordJoinRequest } from "../../core/channels/requests";
import { exportClicks } from "../../core/analytics/export";
import { sendSummary } from "../../core/analytics/summary";
import { exportJoinJournal, sendJoinChart } from "../../core/channels/export";
import { transaction } from "../../db/async";

// a test builds up to five apps (five fresh databases on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

describe("a Russian-speaking user (language_code ru)", () => {
  test("walks start, a new link, stats, trackers, channels and settings in Russian", async () => {
    b = unitBot({}, { language_code: "ru" });
    await b.send("/start");
    expect(b.last("sendMessage").params.text).toStartWith("👋 Добро пожаловать, Alice!");
    await b.send("/help");
    expect(b.last("sendMessage").params.text).toContain("Вот что я умею");

    // a link: pasted, its card, stats, back to the list
    await b.send("https://example.com/spring-sale");
    expect(b.last("sendMessage").params.text).toContain("✅ Ваша трекинговая ссылка");
    const stats = (await b.press("📊 Статистика")).find((c) => c.method === "editMessageText")!;
    expect(stats.params.text).toContain("за 30 дней");
    expect(stats.params.text).toContain("Переходы: 0");
    await b.press("⬅️ Ссылка");
    // options: times in examples and refusals, a password's rule, an A/B split and its weights
    await b.press("⌛️ Срок действия");
    await b.send("2020-01-01");
    expect(b.last("sendMessage").params.text).toStartWith("Это время уже прошло.");
    await b.send("завтра");
    await b.press("🔒 Пароль");
    await b.send("ab");
    expect(b.last("sendMessage").params.text).toStartWith("Пароль — от 4 до 128 символов.");
    await b.send("/cancel");
    await b.press("🅰️ A/B-тест");
    await b.send("https://example.com/b 30");
    expect(b.last("sendMessage").params.text).toContain("(вес 30,");
    await b.press("🅰️ A/B-тест");
    await b.send("вес 2 170");
    expect(b.last("sendMessage").params.text).toStartWith("Вариант 2, вес — целое число от 1 до 100.");
    await b.send("вес 2 70");
    expect(b.last("sendMessage").params.text).toContain("(вес 70,");
    await b.press("📊 Статистика");
    await b.press("⬅️ Ссылка");
    const list = (await b.press("⬅️ Мои ссылки")).find((c) => c.method === "editMessageText")!;
    expect(list.params.text).toContain("Ваши ссылки");
    // the same URL again: offered, in Russian, with a plural
    await b.send("https://example.com/spring-sale");
    expect(b.last("sendMessage").params.text).toContain("пока 0 переходов");
    await b.press("📂 Открыть её");

    // trackers: the list and a new tracker through its dialog
    await b.send("/trackers");
    expect(b.last("sendMessage").params.text).toContain("Трекеров пока нет");
    await b.press("➕ Новый трекер");
    await b.send("скидка");
    await b.press("Целые слова");
    await b.send("/skip");
    await b.press("В каналах и чатах");
    await b.send("/skip");
    await b.press("Сообщением от этого бота");
    expect(b.last("sendMessage").params.text).toContain("✅ Трекер создан: «скидка»");
    await b.press("📰 Упоминания");

    // channels and settings
    await b.send("/channels");
    expect(b.last("sendMessage").params.text).toContain("Каналов пока нет");
    await b.send("/settings");
    const settings = b.last("sendMessage").params.text as string;
    expect(settings).toContain("Язык: русский");
    expect(settings).toContain("🔗 Ссылки: 1 из");
    await b.press("🔑 API-токены");
    await b.press(/^➕/);
    await b.send("сайт");
    expect(b.labels(b.last("sendMessage")).flat()).toContain("▫️ ссылки: чтение");
    await b.press("▫️ ссылки: чтение");
    await b.press(/^✔️/);
    await b.send("/settings");
    await b.press("🔑 API-токены");
    await b.press("⬅️ Настройки");
    await b.press("🏷 Теги");
    await b.press("⬅️ Настройки");
    await b.send("/links");
    await b.press("👻 Переходы по несуществующим кодам");
    // /summary with a period typed in Russian; one it cannot read is refused before "sending photo…"
    const actions = b.calls.filter((c) => c.method === "sendChatAction").length;
    await b.send("/summary 2w");
    expect(b.last("sendMessage").params.text).toBe("⚠️ Период — одно из: 1д, 7д, 30д, 90д, год, всё.");
    expect(b.calls.filter((c) => c.method === "sendChatAction")).toHaveLength(actions);
    await b.send("/summary 7д");
    expect(b.last("sendPhoto").params.caption).toContain("за 7 дней");
    // every screen, prompt, refusal and button: no English word but proper names, links and code
    expectRussian(b.calls, 0, true);
  }, 30_000); // some forty screens, on a busy machine

  test("the language follows Telegram's (uk, be and kk read Russian) until one is chosen in Settings, and the choice is kept", async () => {
    for (const [code, greeting] of [
      ["uk", "👋 Добро пожаловать"],
      ["kk", "👋 Добро пожаловать"],
      ["de", "👋 Welcome"],
      ["en-GB", "👋 Welcome"],
    ] as const) {
      b = unitBot({}, { language_code: code });
      await b.send("/start");
      expect(b.last("sendMessage").params.text).toStartWith(greeting);
      await b.close();
    }
    b = unitBot({}, { language_code: "ru" });
    await b.send("/settings");
    const english = (await b.press("🇬🇧 English")).find((c) => c.method === "editMessageText")!;
    expect(english.params.text).toStartWith("Language: English.");
    expect(b.labels(english).flat()).toContain("🇷🇺 Русский");
    const { users } = b.t.deps.asyncDb.tables;
    expect((await b.t.deps.asyncDb.select().from(users).where(eq(users.username, "alice")))[0]?.language).toBe("en");
    // the next update, and every one after, is in English though the app still says ru
    await b.send("/start");
    expect(b.last("sendMessage").params.text).toStartWith("👋 Welcome, Alice!");
    await b.send("/settings");
    const back = (await b.press("🇷🇺 Русский")).find((c) => c.method === "editMessageText")!;
    expect(back.params.text).toStartWith("Язык: русский.");
    expect((await b.t.deps.asyncDb.select().from(users).where(eq(users.username, "alice")))[0]?.language).toBe("ru");
  });

  test("what the service sends on its own is in Russian too: notifications, digests, reports, notices, exports and charts", async () => {
    b = unitBot({ SHORT_URL: "https://s.example" }, { language_code: "ru" });
    await b.send("/start"); // the bot learns the app's language here
    const deps = b.t.deps;
    const db = deps.asyncDb;
    const user = (await findUserByIdentity(deps, "telegram", "42"))!;
    expect(user.appLanguage).toBe("ru");
    b.t.clock.set("2026-11-25T12:00:00Z");
    const link = await createLink(deps, user, { url: "https://shop.example/sale", title: "Распродажа" });
    const visit = (ip: string) =>
      b.t.request("GET", `/${link.code}`, {
        headers: { "x-forwarded-for": ip, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0" },
      });
    for (const ip of ["203.0.113.1", "203.0.113.2"]) expect((await visit(ip)).status).toBe(302);
    await deps.clicks.flush();

    // a match (instant, by the bot), a second tracker's digest, a deleted-post notice
    const now = deps.clock.now();
    const [instant] = await db
      .insert(db.tables.trackers)
      .values({ userId: user.id, name: "скидка", keyword: "скидка", createdAt: now })
      .returning();
    const [hourly] = await db
      .insert(db.tables.trackers)
      .values({ userId: user.id, name: "акция", keyword: "акция", notifyEvery: "hour", createdAt: now })
      .returning();
    const match = (trackerId: number, id: number) => ({
      trackerId,
      sourceChatId: "-100500",
      sourceTitle: "Новости",
      sourceMessageId: id,
      textSnippet: "большая скидка и акция",
      matchedKeyword: "скидка",
      postUrl: `https://t.me/news/${id}`,
      detectedAt: now,
    });
    const [m1, m2] = await db
      .insert(db.tables.trackerMatches)
      .values([match(instant!.id, 1), match(hourly!.id, 2)])
      .returning();
    await transaction(db, (tx) =>
      notifyMatches(tx, now, user.id, [
        { tracker: instant!, match: m1! },
        { tracker: hourly!, match: m2! },
      ]),
    );
    b.t.clock.set("2026-11-25T13:00:01Z");
    expect(await flushTrackerDigests(deps)).toBe(1);

    // the daily report
    await db
      .insert(db.tables.userSettings)
      .values({ userId: user.id, timeZone: "Europe/Moscow", reportEvery: "day", reportHour: 9, updatedAt: deps.clock.now() });
    b.t.clock.set("2026-11-26T06:00:30Z");
    expect(await sendDueReports(deps)).toBe(1);

    // a view of a shared file, and a request to join through an invite with approval by hand
    await queueViewNotice(
      db,
      deps,
      { id: 7, userId: user.id, code: "abc123", maxViews: 3, viewCount: 1 },
      { name: "договор.pdf" },
      { ip: "203.0.113.9", userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile" },
    );
    const [channel] = await db
      .insert(db.tables.channels)
      .values({ userId: user.id, chatId: "-100777", type: "channel", title: "Магазин" })
      .returning();
    await db.insert(db.tables.channelInvites).values({
      userId: user.id,
      channelId: channel!.id,
      chatId: "-100777",
      name: "Реклама у Пети",
      inviteLink: "https://t.me/+petya",
      joinRequest: true,
      approve: "manual",
    });
    b.fake.members.set("-100777:42", { status: "creator" }); // Telegram's word: the user runs the channel
    await recordJoinRequest(deps, {
      chatId: "-100777",
      member: { id: 99, firstName: "Вера" },
      userChatId: 99,
      date: Math.floor(deps.clock.now().getTime() / 1000),
      inviteLink: "https://t.me/+petya",
    });
    await db
      .insert(db.tables.channelJoins)
      .values({ chatId: "-100777", memberId: 99, via: "invite", joinedAt: deps.clock.now(), leftAt: null });

    const { outbox } = db.tables;
    const queued = (await db.select().from(outbox)).map(
      (row) => ({ method: "sendMessage", params: row.payload as Record<string, any>, files: {}, result: null }) as ApiCall,
    );
    expect(queued.map((c) => String(c.params.text ?? "").split("\n")[0])).toEqual([
      "🔔 <b>скидка</b>: новое совпадение",
      "🗓 <b>акция</b>: 1 совпадение за последний час",
      "📬 <b>Отчёт за день</b> · ср, 25 нояб. · Москва (UTC+3)",
      "👁 <b>договор.pdf</b> открыли",
    ]);
    expectRussian(queued);
    // the channel's message about its waiting requests goes straight to the chat (it is edited later)
    const notice = b.fake.calls.filter((c) => c.method === "sendMessage" && String(c.params.text).startsWith("🙋"));
    expect(notice.map((c) => String(c.params.text))).toEqual([
      "🙋 <b>Магазин</b>: 1 заявка на вступление\n• Вера — по ссылке «Реклама у Пети»",
    ]);
    expectRussian(notice);

    // files sent to the chat: a click export (its headings too), the summary card, the joins journal and chart
    const before = b.fake.calls.length;
    await exportClicks(deps, user.id, link.id, { format: "csv", period: "30d" });
    await sendSummary(deps, user.id, { linkId: link.id, period: "30d" });
    await exportJoinJournal(deps, user.id, channel!.id, { format: "csv" });
    await sendJoinChart(deps, user.id, channel!.id, { days: 7 });
    const sent = b.fake.calls.slice(before).filter((c) => c.method === "sendDocument" || c.method === "sendPhoto");
    expect(sent.map((c) => c.params.caption)).toEqual([
      "2 перехода по " + link.code + " (за 30 дней), CSV",
      expect.stringContaining("Переходы: 2"),
      "1 подписка или отписка в Магазин, CSV",
      "Подписки и отписки по дням, Магазин, последние 7 дней",
    ]);
    const csv = (c: ApiCall) =>
      new TextDecoder()
        .decode(Object.values(c.files)[0]!.bytes)
        .replace(/^\uFEFF/, "")
        .split("\r\n")[0];
    expect(csv(sent[0]!)).toBe(
      "Дата — Москва (UTC+3),IP,Страна,Город,Устройство,ОС,Браузер,Источник,Бот,Имя бота,Уникальный,ID клика,Субметки",
    );
    expect(csv(sent[2]!)).toBe(
      "Подписался — Москва (UTC+3),Отписался — Москва (UTC+3),ID пользователя,Юзернейм,Имя,Приглашение,Откуда,По заявке",
    );
    expectRussian(sent);
    // the values too: how a member joined, yes/no, devices, in Russian; names, addresses and codes as they are
    const rowsOf = (c: ApiCall) =>
      new TextDecoder()
        .decode(Object.values(c.files)[0]!.bytes)
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n")
        .slice(1)
        .map((line) => line.split(","));
    expect(rowsOf(sent[2]!)[0]).toContain("другая ссылка-приглашение");
    // the referer (7), the click id (11) and the sub parameters (12) are the visitor's and the service's codes, as they are
    expect(latinCells([...rowsOf(sent[0]!), ...rowsOf(sent[2]!)].map((r) => r.filter((_, i) => i !== 7 && i !== 11 && i !== 12)))).toEqual(
      [],
    );

    // the PDF export: its title, headings, words and footer in Russian, in fonts that write Cyrillic
    const beforePdf = b.fake.calls.length;
    await exportClicks(deps, user.id, link.id, { format: "pdf", period: "30d" });
    const pdf = b.fake.calls.slice(beforePdf).find((c) => c.method === "sendDocument")!;
    const [text] = await pdfPages(Object.values(pdf.files)[0]!.bytes);
    const lines = text!.split("\n");
    expect(lines[0]).toBe(`Переходы по ${deps.config.shortUrl}/${link.code} (за 30 дней, сначала новые)`);
    expect(lines).toContain("стр. 1 из 1 · 2 строки");
    expect(lines).toContain("Дата — Москва (UTC+3) IP Страна Город Устройство ОС Браузер Источник Бот Имя бота Уникальный");
    expect(text).toMatch(/ (телефон|компьютер|планшет) /);
    expect(text).toMatch(/ (да|нет)$/m);
  }, 30_000); // a PDF and two charts are drawn: seconds on a busy machine
});
