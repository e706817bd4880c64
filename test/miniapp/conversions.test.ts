/**
 * Conversions and postbacks in the mini-app, in headless Chromium: the Conversions card of a link's
 * analytics (none: one clear line; else the count, its rate from unique clicks, the value and the
 * events), of a placement's page and an invite's row; the Postbacks page (a new postback with its
 * events, a test whose answer comes from a real receiver on loopback, a refused template in words,
 * the delivery log, delete) and the keys for incoming conversions (made, the GET address works,
 * revoked, refused); in English and in Russian, with the pictures docs/ shows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { openSignedIn, screenshot, until, withBrowserApp, type Server } from "../helpers/browser";
import { insertLink, recordClicks } from "../helpers/clicks";
import { placementsFixture } from "../helpers/placements-fixture";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { setUserLanguage, upsertTelegramUser } from "../../core/accounts/users";
import { recordConversion } from "../../core/conversions/conversions";
import { newClickId } from "../../core/clicks/click-id";
import { listPostbacks } from "../../core/conversions/postbacks";
import { unitBot } from "../bot/unit";
import { drawBotMessage } from "../helpers/bot-screen";

let browser: Browser;
let s: Server;
let rx: WebhookReceiver;
withBrowserApp((app) => ({ server: s, browser } = app));
beforeAll(() => {
  rx = new WebhookReceiver().start();
});
afterAll(() => rx.stop());

const ARTIFACTS = join(import.meta.dir, "..", "..", "test-artifacts");
const nb = (text: string) => text.replace(/\u00a0|\u202f/g, " ");
const card = (page: Page) => page.getByTestId("conversions");

/** A link of `userId`'s with 5 unique clicks an hour ago and, when `sold`, three conversions reported by their click ids. */
async function soldLink(userId: number, sold = true) {
  const link = await insertLink(s.deps, userId, { title: "Spring sale" });
  const ids = Array.from({ length: 5 }, () => newClickId(link.id));
  const at = s.clock.now().getTime() - 3_600_000;
  await recordClicks(
    s.deps,
    link,
    ids.map((clickId, i) => ({ at: at + i * 1000, clickId, isUnique: true, isBot: false })),
  );
  if (sold) {
    await recordConversion(s.deps, userId, { event: "purchase", clickId: ids[0], value: 990, currency: "RUB", externalId: `${link.id}-1` });
    await recordConversion(s.deps, userId, {
      event: "purchase",
      clickId: ids[1],
      value: 1990,
      currency: "RUB",
      externalId: `${link.id}-2`,
    });
    await recordConversion(s.deps, userId, { event: "lead", clickId: ids[2] });
  }
  return link;
}

describe("conversions on the analytics pages", () => {
  test("a link: none in one clear line; then the count, its rate from unique clicks, the value, the events", async () => {
    const { user, token } = await s.telegramUser(6101, "seller");
    const quiet = await soldLink(user.id, false);
    const sold = await soldLink(user.id);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/${quiet.id}`);
    await page.getByTestId("conversions-none").waitFor();
    expect(await page.getByTestId("conversions-none").innerText()).toBe(
      "No conversions yet. They come from your server through the API, from a conversion key's address, and from joins through invites.",
    );
    expect(await card(page).innerText()).not.toMatch(/\b0\b|₽/);
    await page.goto(`${s.baseUrl}/app/links/${sold.id}`);
    await page.locator("[data-stat='conversions']").waitFor();
    expect(await card(page).locator(".stat").allInnerTexts()).toEqual(["3\nconversions", "60%\nof unique clicks", "₽2,980\nworth"]);
    expect(await page.getByTestId("conversion-events").locator("li").allInnerTexts()).toEqual(["Purchase\n2", "Lead\n1"]);
    // the period counts conversions as it counts clicks
    await page.locator("select[name=period]").selectOption("1d");
    await until(() => page.locator("[data-stat='conversions']").innerText(), "3");
    expect(problems).toEqual([]);
  });

  test("a placement's page: joins and the purchases of those who joined, and ROAS (₽6,000 for ₽5,000)", async () => {
    const { user, token } = await s.telegramUser(6202, "buyer");
    const f = await placementsFixture(s.deps, user, "62");
    await recordConversion(s.deps, user.id, { event: "purchase", tgUserId: 1000, value: 6000, currency: "RUB", externalId: "62a" });
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/ads/${f.big.id}`);
    await page.getByTestId("funnel").waitFor();
    await page.locator("[data-stat='conversions']").waitFor();
    expect(await card(page).locator(".stat").allInnerTexts()).toEqual([
      "5\nconversions",
      "50%\nof unique clicks",
      "₽6,000\nworth",
      "120%\nROAS",
    ]);
    expect(await page.getByTestId("conversion-events").locator("li").allInnerTexts()).toEqual(["Join\n4", "Purchase\n1"]);
    expect(problems).toEqual([]);
  });
});

describe("the postbacks page", () => {
  test("a new postback for a link with its events; the test's answer from the receiver; a refused template; the log; delete", async () => {
    const { user, token } = await s.telegramUser(6303, "networker");
    const link = await soldLink(user.id, false);
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/links/${link.id}`);
    await page.getByRole("link", { name: /^Postbacks: / }).click();
    await page.getByText("No postbacks yet.").waitFor();
    const form = page.getByTestId("new-postback");
    await form.getByLabel("Address to call").fill("network.example/pb");
    await form.getByRole("button", { name: "Purchase" }).click();
    await form.getByRole("button", { name: "Save postback" }).click();
    await form.getByRole("alert").waitFor();
    expect(await form.getByRole("alert").innerText()).toContain("http");
    await form.getByLabel("Address to call").fill(`${rx.url}/pb?cid={click_id}&goal={event}&sum={value}`);
    await form.getByRole("button", { name: "Save postback" }).click();
    const item = page.getByTestId("postback");
    await item.waitFor();
    expect(await item.locator(".row-sub").innerText()).toBe(`link #${link.id} · events: Purchase`);
    expect(await listPostbacks(s.deps, user.id)).toMatchObject([{ link_id: link.id, events: ["purchase"] }]);
    await item.getByRole("button", { name: "Send a test" }).click();
    await item.getByTestId("test-answer").waitFor();
    expect(await item.getByTestId("test-answer").innerText()).toBe("The receiver took the test: it answered 200, “ok”.");
    expect(rx.received.at(-1)).toMatchObject({ path: "/pb", query: { cid: "test_click", goal: "purchase", sum: "1" } });
    // a purchase on the link queues a delivery: the log shows it
    await recordConversion(s.deps, user.id, {
      event: "purchase",
      clickId: newClickId(link.id),
      value: 5,
      currency: "USD",
      externalId: "63",
    });
    await item.getByRole("button", { name: "Delivery log" }).click();
    await item.getByTestId("delivery-log").waitFor();
    expect((await item.getByTestId("delivery-log").locator("tbody tr").allInnerTexts()).map((r) => r.split("\t").slice(1))).toEqual([
      ["Purchase", "waiting", "—"],
    ]);
    await item.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No postbacks yet.").waitFor();
    expect(await listPostbacks(s.deps, user.id)).toEqual([]);
    // the refused template's 400 is the only failed request
    expect(problems.filter((p) => !p.includes("400"))).toEqual([]);
  });

  test("keys for incoming conversions: made, the address shown once takes a conversion; revoked, it is refused", async () => {
    const { token } = await s.telegramUser(6404, "server");
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/settings`);
    await page.getByTestId("postbacks-entry").getByRole("link", { name: "Open postbacks" }).click();
    const keys = page.getByTestId("postback-keys");
    await keys.getByText("No keys yet.").waitFor();
    await keys.getByLabel("The key's name (which server uses it)").fill("shop backend");
    await keys.getByRole("button", { name: "New key" }).click();
    const url = await keys.getByTestId("postback-key-url").innerText();
    expect(url).toStartWith(`${s.baseUrl}/c/pbk_`);
    const report = async () => (await fetch(`${url}?event=lead&external_id=k1`)).status;
    expect(await report()).toBe(204);
    expect(await keys.getByTestId("postback-key-list").innerText()).toContain("shop backend");
    await keys.getByRole("button", { name: "Revoke" }).click();
    await keys.getByText("No keys yet.").waitFor();
    expect(await report()).not.toBe(204);
    expect(problems).toEqual([]);
  });
});

describe("in Russian", () => {
  test("the placement's conversions and the postbacks page, with the pictures for docs/", async () => {
    const { user, token } = await s.telegramUser(6505, "russian");
    await setUserLanguage(s.deps, user.id, "ru");
    const f = await placementsFixture(s.deps, user, "65");
    await recordConversion(s.deps, user.id, { event: "purchase", tgUserId: 1000, value: 6000, currency: "RUB", externalId: "65a" });
    const { page, problems } = await openSignedIn(browser, s.baseUrl, token);
    await page.goto(`${s.baseUrl}/app/ads/${f.big.id}`);
    await page.locator("[data-stat='conversions']").waitFor();
    expect((await card(page).locator(".stat").allInnerTexts()).map(nb)).toEqual([
      "5\nконверсий",
      "50 %\nот уникальных переходов",
      "6 000 ₽\nпринесли",
      "120 %\nROAS",
    ]);
    expect(await page.getByTestId("conversion-events").locator("li").allInnerTexts()).toEqual(["Вступление\n4", "Покупка\n1"]);
    await page.getByRole("link", { name: /^Постбэки: / }).click();
    const form = page.getByTestId("new-postback");
    await form.getByLabel("Адрес для запроса").fill(`${rx.url}/ru?cid={click_id}&sum={value}`);
    await form.getByRole("button", { name: "Покупка", exact: true }).click();
    await form.getByRole("button", { name: "Вступление", exact: true }).click();
    await form.getByRole("button", { name: "Сохранить постбэк" }).click();
    const item = page.getByTestId("postback");
    await item.getByRole("button", { name: "Отправить проверку" }).click();
    await item.getByTestId("test-answer").waitFor();
    expect(await item.getByTestId("test-answer").innerText()).toBe("Получатель принял проверку: ответил 200, «ok».");
    expect(await item.locator(".row-sub").innerText()).toBe(`размещение №${f.big.id} · события: Покупка, Вступление`);
    await screenshot(page, "miniapp-postbacks.ru");
    expect(problems).toEqual([]);
  });

  test("the bot's placement screen with its conversions, drawn from the message the bot sends (docs/)", async () => {
    const b = unitBot({}, { language_code: "ru" });
    try {
      const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice", appLanguage: "ru" });
      await placementsFixture(b.t.deps, user);
      await recordConversion(b.t.deps, user.id, { event: "purchase", tgUserId: 1000, value: 6000, currency: "RUB", externalId: "a" });
      await recordConversion(b.t.deps, user.id, { event: "purchase", tgUserId: 1001, value: 4500, currency: "RUB", externalId: "b" });
      await b.send("/ads");
      await b.press(/^\d\. Big channel$/);
      const shown = b.calls.findLast((c) => c.method === "editMessageText")!.params as { text: string };
      expect(nb(shown.text)).toContain("🎯 Конверсии: 6 · 60 % от 10 уникальных переходов");
      mkdirSync(ARTIFACTS, { recursive: true });
      await drawBotMessage(browser, shown, join(ARTIFACTS, "conversions-placement-bot.ru.png"));
    } finally {
      await b.close();
    }
  });
});
