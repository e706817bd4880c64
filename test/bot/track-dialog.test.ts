/**
 * The new-tracker dialog reads what is typed: a query is taken as a query and said back in words,
 * a refused query says where and why and is asked again, Cyrillic keywords get word forms, and
 * on/off answers are read as yes/no too; in Russian and in English, on the fake Bot API.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { listTrackers } from "../../core/tracking/trackers";
import { findUserByIdentity } from "../../core/accounts/users";
import { describeQuery, looksLikeQuery } from "../../bot/conversations/query-words";
import { parseQuery } from "../../core/tracking/query";
import { i18n } from "../../bot/i18n";

let b: ReturnType<typeof unitBot>;
/** A dialog walks many updates, each opening screens with a preview run in the matcher's thread: slow on a busy machine. */
const SLOW = 60_000;
afterEach(() => b.close());

const texts = () => b.calls.filter((c) => c.method === "sendMessage").map((c) => String(c.params.text));
const lastText = () => texts().at(-1)!;
async function trackers() {
  const user = await findUserByIdentity(b.t.deps, "telegram", "42");
  return listTrackers(b.t.deps, user!.id);
}

describe("the new-tracker dialog", () => {
  test(
    "ru: /track биткоин OR эфир -скам is a query, said in words; no whole-words question; word forms on",
    async () => {
      b = unitBot({}, { language_code: "ru" });
      await b.send("/start");
      await b.send("/track биткоин OR эфир -скам");
      expect(texts()).toContain("🔣 Понял это как запрос: биткоин или эфир, без «скам».");
      // the next question is the minus words: a query matches whole words by its own rules
      expect(lastText()).toStartWith("Минус-слова");
      await b.send("/skip");
      await b.press("В каналах и чатах");
      await b.send("/skip");
      await b.press("Сообщением от этого бота");
      const done = lastText();
      expect(done).toContain("✅ Трекер создан: «биткоин OR эфир -скам»");
      expect(done).toContain("🌿 Формы слова включены");
      expect(done).toContain("Запрос: <code>биткоин OR эфир -скам</code>");
      // the preview of what it would have found comes with the confirmation (no posts read yet here)
      expect(done).toContain("Предпросмотр: пока нет свежих постов для проверки.");
      const [t] = await trackers();
      expect(t).toMatchObject({ keyword: "биткоин OR эфир -скам", syntax: "query", wordForms: true });
    },
    SLOW,
  );

  test(
    "en: a query typed as the keyword is taken as one; a refused one says where and why, and is asked again",
    async () => {
      b = unitBot();
      await b.send("/start");
      await b.send("/track");
      await b.send("bitcoin OR (ether -scam");
      const refused = texts().at(-2)!;
      expect(refused).toBe(
        "❌ I can't read this query at character 12: this parenthesis is never closed.\n<code>bitcoin OR <b>(</b>ether -scam</code>",
      );
      expect(lastText()).toStartWith("Send the keyword again, or a corrected query.");
      expect(await trackers()).toEqual([]);
      await b.send('bitcoin OR ether -scam "to the moon"');
      expect(texts()).toContain("🔣 I read this as a query: (bitcoin or ether) and the phrase “to the moon”, without “scam”.");
    },
    SLOW,
  );

  test(
    "ru: a refused query in Russian; a plain phrase stays plain, Latin gets no word forms",
    async () => {
      b = unitBot({}, { language_code: "ru" });
      await b.send("/start");
      await b.send("/track биткоин OR");
      expect(texts().at(-2)).toBe(
        "❌ Не могу прочитать запрос на 11-м символе: запрос обрывается там, где ожидалось слово.\n<code>биткоин OR<b>⟵</b></code>",
      );
      await b.send("/cancel");
      await b.send("/track rust 2.0");
      await b.press("Целые слова");
      await b.send("/skip");
      await b.press("В каналах и чатах");
      await b.send("/skip");
      await b.press("Сообщением от этого бота");
      expect(lastText()).not.toContain("🌿 Формы слова включены");
      const [t] = await trackers();
      expect(t).toMatchObject({ keyword: "rust 2.0", syntax: "plain", wordForms: false, exactMatch: true });
    },
    SLOW,
  );

  test(
    "on/off options read yes/no and да/нет",
    async () => {
      b = unitBot({}, { language_code: "ru" });
      await b.send("/start");
      await b.send("/track канал");
      await b.press("Целые слова");
      await b.send("/skip");
      await b.press("В каналах и чатах");
      await b.send("/skip");
      await b.press("Сообщением от этого бота");
      await b.press("🌿 Формы слова");
      await b.send("нет");
      expect((await trackers())[0]!.wordForms).toBe(false);
      await b.press("📍 Мои ссылки");
      await b.send("да");
      expect((await trackers())[0]!.watchLinks).toBe(true);
    },
    SLOW,
  );

  test(
    "few-way options are buttons on the card: one tap to open, one to choose; a typed word still works",
    async () => {
      b = unitBot();
      await b.send("/start");
      await b.send("/track канал");
      await b.press("Whole words");
      await b.send("/skip");
      await b.press("Channels and chats");
      await b.send("/skip");
      await b.press("Message from this bot");
      expect(lastText()).toContain("🌿 Word forms are on");
      await b.press("🌿 Word forms");
      expect(b.labels(b.last("sendMessage"))).toEqual([["✅ On", "❌ Off"], ["Cancel"]]);
      await b.press("❌ Off");
      expect((await trackers())[0]!.wordForms).toBe(false);
      expect(lastText()).toStartWith("✅ Saved: Word forms.");
      await b.press("⏰ How often");
      expect(b.labels(b.last("sendMessage"))).toEqual([["At once", "Hourly", "Daily"], ["Cancel"]]);
      await b.send("maybe");
      expect(lastText()).toBe("Send “instant”, “hour” or “day”.");
      await b.press("Daily");
      expect((await trackers())[0]!.notifyEvery).toBe("day");
      await b.press("📍 My links");
      await b.send("yes");
      expect((await trackers())[0]!.watchLinks).toBe(true);
      await b.press("📍 Where");
      await b.press("Only chats");
      expect(await trackers()).toMatchObject([{ searchChannels: false, searchChats: true }]);
    },
    SLOW,
  );
});

describe("a query in words", () => {
  const en = (k: string, v?: Record<string, string | number>) => i18n.t("en", k, v);
  const ru = (k: string, v?: Record<string, string | number>) => i18n.t("ru", k, v);
  test("describes each kind of query", () => {
    expect(describeQuery(parseQuery("биткоин OR эфир -скам"), ru)).toBe("биткоин или эфир, без «скам»");
    expect(describeQuery(parseQuery("bitcoin | ether NOT scam"), en)).toBe("bitcoin or ether, without “scam”");
    expect(describeQuery(parseQuery("крипт* (биржа OR обменник)"), ru)).toBe("слова на «крипт» и (биржа или обменник)");
    expect(describeQuery(parseQuery("продам NEAR/3 гараж"), ru)).toBe("продам и гараж не дальше 3 слов друг от друга");
    expect(describeQuery(parseQuery("sell NEAR/1 car"), en)).toBe("sell and car at most one word apart");
  });
  test("tells a query from a plain keyword", () => {
    expect(["a OR b", "a | b", "a -b", "NOT a b", '"a b"', "crypt*", "(a b)", "a NEAR/2 b"].map(looksLikeQuery)).toEqual(
      Array(8).fill(true),
    );
    expect(["Продам гараж", "кто-то", "rust 2.0", "C++", "or else", "wi-fi"].map(looksLikeQuery)).toEqual(Array(6).fill(false));
  });
});
