/**
 * A user whose Telegram speaks Russian walks the main flows (start, help, a new link and its card,
 * stats, the link list, trackers and a new tracker, channels, settings) and sees no English: no
 * text of en.ftl (its sentences between variables), and no run of English words in any message,
 * toast, caption or button. Switching the language in Settings is kept on the user.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { unitBot, type ApiCall } from "./unit";

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

/** The English file's sentences: each value cut at its variables and selectors, pieces of three words or more. */
function englishSentences(): string[] {
  const src = readFileSync(join(import.meta.dir, "..", "..", "locales", "en.ftl"), "utf8");
  const pieces = new Set<string>();
  for (const part of src.replace(/^#.*$/gm, "").split(/\{[^{}]*\}|^[\w-]+\s*=|\n/m))
    for (const piece of part.split(/<[^>]*>/)) {
      const p = piece.trim();
      if (p.split(/\s+/).filter((w) => /^[A-Za-z’']{2,}[,.;:!?]?$/.test(w)).length >= 3) pieces.add(p);
    }
  return [...pieces];
}

/** Everything a call shows a person: text, caption, toast, button labels, inline results. */
function shown(c: ApiCall): string[] {
  const p = c.params;
  const out = [p.text, p.caption].filter((x): x is string => typeof x === "string");
  for (const row of p.reply_markup?.inline_keyboard ?? []) for (const button of row) out.push(button.text);
  for (const r of p.results ?? []) out.push(r.title, r.description, r.input_message_content?.message_text);
  return out.filter(Boolean);
}

/** Runs of two or more English words outside links, code and @names: what a Russian reader should not meet. */
function englishRuns(text: string): string[] {
  const plain = text
    .replace(/<code>[\s\S]*?<\/code>|<[^>]*>/g, " ")
    .replace(/https?:\/\/\S+|\b[\w.-]+\.(com|org|net|example)\S*|@\w+|\/\w+/g, " ");
  return [...plain.matchAll(/[A-Za-z]{2,}(?:[ ,.'’-]+[A-Za-z]{2,})+/g)].map((m) => m[0]).filter((run) => !ALLOWED.test(run));
}
/** English a Russian screen may carry: the other language's own name, product names, formats. */
const ALLOWED = /^(English|Telegram|UTM \w+|CSV|Excel|PDF|QR|A\/B)$/;

function expectRussian(calls: ApiCall[], from = 0) {
  const english = englishSentences();
  const seen = calls.slice(from).flatMap(shown);
  expect(seen.length).toBeGreaterThan(0);
  const leaks = seen.flatMap((t) => [...english.filter((e) => t.includes(e)), ...englishRuns(t)].map((e) => `${e}  ⟵  ${t.slice(0, 80)}`));
  expect(leaks).toEqual([]);
}

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
    await b.press("⬅️ Настройки");
    await b.press("🏷 Теги");
    await b.press("⬅️ Настройки");
    expectRussian(b.calls);
  });

  test("the language follows Telegram's (uk, be and kk read Russian) until one is chosen in Settings, and the choice is kept", async () => {
    for (const [code, greeting] of [["uk", "👋 Добро пожаловать"], ["kk", "👋 Добро пожаловать"], ["de", "👋 Welcome"], ["en-GB", "👋 Welcome"]] as const) {
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
});
