import { beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { TestApp } from "../helpers/app";
import type { WebhookReceiver } from "../helpers/webhook-receiver";
import { FakeBotApi, FAKE_BOT, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { appWithReceiver, deferCleanup, insertLink, signatureMatches } from "../helpers/webhook-fixtures";
import { createBot } from "../../bot/bot";
import { webhookCardButtons } from "../../bot/features/webhooks";
import { getSigningSecret } from "../../core/webhooks/signing";
import { links } from "../../db/schema";

const defer = deferCleanup();
let t: TestApp;
let rx: WebhookReceiver;
let fake: FakeBotApi;

beforeEach(async () => {
  fake = new FakeBotApi().start();
  defer(() => fake.stop());
  ({ t, rx } = appWithReceiver(defer, { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url, WEBHOOK_TIMEOUT_MS: "400" }));
  const bot = createBot({ ...t.deps, config: { ...t.deps.config, botToken: FAKE_BOT_TOKEN } });
  await new Promise<void>((started) => void bot.start({ onStart: () => started() }));
  defer(() => bot.stop());
});

const linkRow = (id: number) => t.deps.db.select().from(links).where(eq(links.id, id)).get()!;
const answered = (pred: (p: Record<string, any>) => boolean = () => true) => fake.waitFor("answerCallbackQuery", (c) => pred(c.params));

test("the link card buttons show state and failures; none without a webhook URL", () => {
  expect(webhookCardButtons({ id: 7, webhookUrl: "https://h.example/x", webhookEnabled: true, webhookFailures: 3 })).toEqual([
    { text: "🔔 Webhook on · 3 failed — turn off", callback_data: "wh:off:7" },
    { text: "🧪 Send test webhook", callback_data: "wh:test:7" },
    { text: "🔑 Rotate signing secret", callback_data: "wh:rotate:7" },
  ]);
  expect(webhookCardButtons({ id: 7, webhookUrl: "https://h.example/x", webhookEnabled: false, webhookFailures: 0 })[0]).toEqual({ text: "🔕 Webhook off — turn on", callback_data: "wh:on:7" });
  expect(webhookCardButtons({ id: 7, webhookUrl: null, webhookEnabled: false, webhookFailures: 0 })).toEqual([]);
});

test("the webhook card shows target, state and failure count", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const link = insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/hook`, webhookEnabled: true, webhookFailures: 3 });
  fake.pushCallback(`wh:show:${link.id}`);
  const edit = await fake.waitFor("editMessageText");
  expect(edit.params.text).toContain(`Target: POST ${rx.url}/hook`);
  expect(edit.params.text).toContain("State: on ✅");
  expect(edit.params.text).toContain("Failed deliveries: 3 of 100");
  expect(edit.params.reply_markup.inline_keyboard.flat().map((b: any) => b.callback_data)).toEqual([`wh:off:${link.id}`, `wh:test:${link.id}`, `wh:rotate:${link.id}`, `wh:secret:${link.id}`]);
});

test("turning an auto-disabled webhook on resets the count and refreshes only the webhook buttons of the card", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const link = insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: false, webhookFailures: 100 });
  const card = [[{ text: "📊 Stats", callback_data: `link:stats:${link.id}` }], ...webhookCardButtons(linkRow(link.id)).map((b) => [b]), [{ text: "⬅️ Back", callback_data: "menu:links" }]];
  fake.pushUpdate({
    callback_query: { id: "cb1", from: { id: 42, is_bot: false, first_name: "Alice", username: "alice" }, chat_instance: "1", data: `wh:on:${link.id}`, message: { message_id: 5, date: 0, chat: { id: 42, type: "private" }, from: FAKE_BOT, text: "card", reply_markup: { inline_keyboard: card } } },
  });
  expect((await answered()).params.text).toBe("Webhook on; failure count reset to 0.");
  expect(linkRow(link.id)).toMatchObject({ webhookEnabled: true, webhookFailures: 0 });
  const markup = (await fake.waitFor("editMessageReplyMarkup")).params.reply_markup.inline_keyboard;
  expect(markup.map((row: any[]) => row.map((b) => b.text))).toEqual([["📊 Stats"], ["🔔 Webhook on — turn off"], ["🧪 Send test webhook"], ["🔑 Rotate signing secret"], ["⬅️ Back"]]);

  fake.pushCallback(`wh:off:${link.id}`);
  await answered((p) => p.text === "Webhook off: clicks are no longer sent.");
  expect(linkRow(link.id).webhookEnabled).toBe(false);
});

test("a test delivery reaches the target, signed, and the user is told the answer", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const link = insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/t`, webhookEnabled: true });
  fake.pushCallback(`wh:test:${link.id}`);
  expect((await answered()).params.text).toBe("Sending a test delivery…");
  expect((await fake.waitFor("sendMessage")).params).toMatchObject({ chat_id: 42, text: `✅ Test webhook of /${link.code} sent: the target answered 200.` });
  const r = rx.received[0]!;
  expect(JSON.parse(r.body)).toMatchObject({ event: "test", link: { id: link.id, code: link.code } });
  expect(signatureMatches(getSigningSecret(t.deps, user.id).secret, r.headers, r.body)).toBe(true);
});

test("rotating the secret asks first, then shows the new secret", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const link = insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
  const old = getSigningSecret(t.deps, user.id).secret;
  fake.pushCallback(`wh:rotate:${link.id}`);
  const ask = await fake.waitFor("sendMessage");
  expect(ask.params.text).toStartWith("Rotate the signing secret?");
  expect(getSigningSecret(t.deps, user.id).secret).toBe(old);
  fake.pushCallback(`wh:rotok:${link.id}`);
  const done = await fake.waitFor("editMessageText", (c) => c.params.text.includes("New signing secret"));
  const fresh = getSigningSecret(t.deps, user.id).secret;
  expect(fresh).not.toBe(old);
  expect(done.params.text).toContain(fresh);
});

test("another user's link is not found", async () => {
  const owner = await t.telegramUser(1, "owner");
  await t.telegramUser(42, "alice");
  const link = insertLink(t.deps, owner.user.id, { webhookUrl: rx.url, webhookEnabled: true });
  fake.pushCallback(`wh:off:${link.id}`);
  expect((await answered()).params).toMatchObject({ text: "Link not found", show_alert: true });
  expect(linkRow(link.id).webhookEnabled).toBe(true);
  expect(rx.received).toHaveLength(0);
});

test("a slow test target does not hold up the bot; the failure is reported when it times out", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const slowLink = insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/slow`, webhookEnabled: true });
  const other = insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/other`, webhookEnabled: true });
  rx.respond = async (r) => {
    if (r.path === "/slow") await Bun.sleep(1500); // the target hangs past the timeout
    return 200;
  };
  fake.pushCallback(`wh:test:${slowLink.id}`);
  await answered();
  fake.pushCallback(`wh:off:${other.id}`);
  await answered((p) => p.text === "Webhook off: clicks are no longer sent.");
  expect(fake.callsOf("sendMessage")).toHaveLength(0); // the toggle was handled while the test was still waiting
  const report = await fake.waitFor("sendMessage");
  expect(report.params.text).toBe(`❌ Test webhook of /${slowLink.code} failed: the target did not answer within 0.4 s.`);
});
