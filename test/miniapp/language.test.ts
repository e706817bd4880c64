/**
 * The mini-app speaks the bot's language: a Telegram user whose app is in Russian sees the links
 * list, a link's page and settings in Russian, switches to English in the mini-app's settings, and
 * the bot answers in English afterwards (one choice for both, docs/miniapp.md "Languages").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sign } from "@telegram-apps/init-data-node";
import type { Browser, Page } from "playwright-core";
import { createBot } from "../../bot/bot";
import { ALLOWED_UPDATES } from "../../bot/runtime";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { insertLink } from "../helpers/clicks";
import { openPage, openSignedIn, screenshot, until, withBrowserApp, type Server } from "../helpers/browser";

let browser: Browser;
let s: Server;
const fake = new FakeBotApi();
beforeAll(() => fake.start()); // listening before the server reads its URL
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } }),
);
afterAll(() => fake.stop());

const IVAN = { id: 777100, first_name: "Иван", username: "ivan_tg", language_code: "ru" };

/** Just enough of telegram-web-app.js for the app to run as a Mini App. */
function webApp(initData: string) {
  const button = () => ({
    setText() {},
    show() {},
    hide() {},
    enable() {},
    disable() {},
    showProgress() {},
    hideProgress() {},
    onClick() {},
    offClick() {},
  });
  (window as any).Telegram = {
    WebApp: {
      initData,
      colorScheme: "light",
      themeParams: {},
      ready() {},
      expand() {},
      onEvent() {},
      offEvent() {},
      BackButton: button(),
      MainButton: button(),
    },
  };
}

/** Runs of two or more English words outside URLs, email addresses and @names: what a Russian reader should not meet. */
function englishRuns(text: string): string[] {
  const plain = text.replace(/https?:\/\/\S+|[\w.+-]+@[\w-]+(\.[\w-]+)+|\b[\w.-]+\.(com|org|net|example)\S*|@\w+/g, " ");
  return [...plain.matchAll(/[A-Za-z]{2,}(?:[ ,.'’-]+[A-Za-z]{2,})+/g)].map((m) => m[0]).filter((run) => !ALLOWED.test(run));
}
/** English a Russian screen may carry: product names and formats. */
const ALLOWED = /^(Telegram|CSV|Excel|PDF|QR|A\/B)$/;

/** What the page shows a person: its text, and the placeholders, labels, titles and alt texts of its elements. */
async function shownText(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    document.body.innerText,
    ...[...document.querySelectorAll("[placeholder],[aria-label],[title],[alt]")].flatMap((e) =>
      ["placeholder", "aria-label", "title", "alt"].map((a) => e.getAttribute(a) ?? "").filter(Boolean),
    ),
  ]);
}

async function expectRussian(page: Page) {
  const texts = await shownText(page);
  expect(texts.join(" ")).toMatch(/[А-Яа-яЁё]/);
  expect(texts.flatMap((t) => englishRuns(t).map((run) => `${run}  ⟵  ${t.slice(0, 80)}`))).toEqual([]);
}

describe("the mini-app in the bot's language", () => {
  test("a Russian Telegram user sees links, a link's page and settings in Russian, switches to English, and the bot follows", async () => {
    // the user and a link with clicks exist before the mini-app opens
    const { user } = await s.telegramUser(IVAN.id, IVAN.username);
    const link = await insertLink(s.deps, user.id, { title: "Весенняя распродажа" });
    // through the redirect: the list's counters are kept by the real click writer
    const phone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${s.baseUrl}/${link.code}`, { redirect: "manual", headers: { "user-agent": phone } })).status).toBe(302);
    await s.deps.clicks.flush();

    // opened from Telegram: initData carries language_code "ru"
    const initData = sign({ user: IVAN, query_id: "AAE" }, FAKE_BOT_TOKEN, s.clock.now());
    const { page, problems } = await openPage(browser, s.baseUrl, { script: webApp, arg: initData });
    await page.goto(`${s.baseUrl}/#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=8.0&tgWebAppPlatform=android`);

    // the links list
    await page.getByRole("navigation", { name: "Разделы" }).waitFor();
    await page.getByRole("heading", { name: "Ссылки" }).waitFor();
    await page.getByRole("link", { name: /Весенняя распродажа/ }).waitFor();
    await page.getByText("Переходы по мёртвым кодам").waitFor();
    expect(await page.locator(".row-stats").innerText()).toMatch(/^3\s+перехода\s+уникальных \d · ботов 0$/);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ru");
    await expectRussian(page);
    await screenshot(page, "miniapp-ru-links");

    // a link's page with its stats
    await page.getByRole("link", { name: /Весенняя распродажа/ }).click();
    await page.getByRole("heading", { name: "Весенняя распродажа" }).waitFor();
    await page.locator("[data-stat=total]").getByText("3").waitFor();
    await page.getByRole("heading", { name: "Последние переходы" }).waitFor();
    await page.getByRole("img", { name: "Переходы по времени" }).waitFor();
    await page.getByText("1–3 из 3").waitFor();
    expect(await page.locator("table.clicks tbody td:nth-child(3)").allInnerTexts()).toEqual([
      "телефон · Android",
      "телефон · Android",
      "телефон · Android",
    ]);
    await until(() => page.locator(".hm-cell[title$='3 перехода']").count(), 1);
    await expectRussian(page);
    await screenshot(page, "miniapp-ru-link");

    // an export to the chat: the file's headings and the page's note in Russian
    await page.getByRole("button", { name: "Выгрузить" }).click();
    const note = page.locator("p.note");
    await note.waitFor();
    expect(await note.innerText()).toBe("Отправлено в ваш чат Telegram: 3 перехода");
    const file = Object.values((await fake.waitFor("sendDocument")).files)[0]!;
    expect(
      new TextDecoder()
        .decode(file.bytes)
        .replace(/^\uFEFF/, "")
        .split("\r\n")[0],
    ).toStartWith("Дата — UTC,IP,Страна,Город,Устройство");
    await expectRussian(page);

    // the bot answers in Russian so far
    const bot = createBot(s.deps as Parameters<typeof createBot>[0]);
    const running = bot.start({ drop_pending_updates: false, allowed_updates: ALLOWED_UPDATES }).catch((e: unknown) => e);
    try {
      await fake.waitFor("getMe");
      fake.pushMessage("/help", IVAN);
      expect((await fake.waitFor("sendMessage", (c) => c.params.chat_id === IVAN.id)).params.text).toContain("Вот что я умею");

      // settings: in Russian, the language follows Telegram
      await page.getByRole("link", { name: /Настройки/ }).click();
      await page.getByRole("heading", { name: "Настройки" }).waitFor();
      await page.getByTestId("identities").getByText("@ivan_tg").waitFor();
      const languages = page.getByRole("group", { name: "Язык" });
      expect(await languages.getByRole("button", { name: "Как в Telegram" }).getAttribute("aria-pressed")).toBe("true");
      await page.getByText("API-токенов нет.").waitFor();
      await expectRussian(page);
      await screenshot(page, "miniapp-ru-settings");

      // English, chosen in the mini-app: the page redraws in English at once, and it is the account's choice
      await languages.getByRole("button", { name: "English" }).click();
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      await page.getByRole("navigation", { name: "Sections" }).getByText("Links").waitFor();
      expect(
        await page.getByRole("group", { name: "Language" }).getByRole("button", { name: "English" }).getAttribute("aria-pressed"),
      ).toBe("true");
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
      const db = s.deps.asyncDb;
      expect(
        (await db.select({ language: db.tables.users.language }).from(db.tables.users).where(eq(db.tables.users.id, user.id)))[0]!.language,
      ).toBe("en");

      // the bot answers in English now, though the Telegram app is still Russian
      const before = fake.callsOf("sendMessage").length;
      fake.pushMessage("/help", IVAN);
      const reply = await fake.waitFor(
        "sendMessage",
        (c) => c.params.chat_id === IVAN.id && fake.callsOf("sendMessage").indexOf(c) >= before,
      );
      expect(reply.params.text).toContain("Here is what I understand");

      // and the app stays English when opened again
      await page.reload();
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      await page.getByRole("link", { name: /Links/ }).click();
      await page.getByRole("heading", { name: "Links" }).waitFor();
      expect(await page.locator(".row-stats").innerText()).toMatch(/^3\s+clicks\s+\d unique · 0 bots$/);
    } finally {
      await bot.stop();
      await running;
    }
    expect(problems).toEqual([]);
  }, 60_000);
  test("a form the API refuses says in Russian which option to fix, naming it in words, and keeps what was typed", async () => {
    const { user, token } = await s.telegramUser(777101, "olga_tg");
    const db = s.deps.asyncDb;
    await db.update(db.tables.users).set({ language: "ru" }).where(eq(db.tables.users.id, user.id));
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/new`);
    await page.getByLabel("Куда ведёт ссылка").fill("https://example.com/vesna");
    await page.getByText("Расписание и лимиты").click();
    await page.getByLabel("Окончание").fill("2020-01-01T10:00");
    await page.getByLabel("Пароль").fill("ab");
    await page.getByRole("button", { name: "Создать ссылку" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect((await alert.innerText()).split("\n")).toEqual(["Срок действия — только в будущем.", "Пароль — от 4 до 128 символов."]);
    await expectRussian(page);
    // the form stays as typed, and nothing was made
    expect(await page.getByLabel("Куда ведёт ссылка").inputValue()).toBe("https://example.com/vesna");
    expect(await db.select().from(db.tables.links).where(eq(db.tables.links.userId, user.id))).toEqual([]);
    expect(problems.filter((p) => !p.includes("400"))).toEqual([]);
  }, 60_000);
});
