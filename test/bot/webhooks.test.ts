import { beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { TestApp } from "../helpers/app";
import type { WebhookReceiver } from "../helpers/webhook-receiver";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { appWithReceiver, deferCleanup, insertLink, signatureMatches } from "../helpers/webhook-fixtures";
import { createBot } from "../../bot/bot";
import { getSigningSecret } from "../../core/webhooks/signing";

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

const linkRow = async (id: number) =>
  (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.links).where(eq(t.deps.asyncDb.tables.links.id, id)))[0]!;
const answered = (pred: (p: Record<string, any>) => boolean = () => true) => fake.waitFor("answerCallbackQuery", (c) => pred(c.params));
const edited = (text: string) => fake.waitFor("editMessageText", (c) => String(c.params.text).includes(text));

/** Opens the link's card by its deep link, then its webhook screen; returns that screen. */
async function openWebhook(id: number) {
  fake.pushMessage(`/start link_${id}`);
  await fake.waitFor("sendMessage", (c) => String(c.params.text).includes("Clicks:"));
  fake.press("🔔 Webhook: test, deliveries, secret");
  return edited("Click webhook of");
}

test("the webhook screen shows target, state, failure count and recent deliveries, with a way back to the card", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const link = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/hook`, webhookEnabled: true, webhookFailures: 3 });
  const screen = await openWebhook(link.id);
  expect(screen.params.text).toContain(`Target: POST ${rx.url}/hook`);
  expect(screen.params.text).toContain("State: on ✅");
  expect(screen.params.text).toContain("Failed deliveries: 3 of 100");
  expect(screen.params.text).toContain("No deliveries yet.");
  expect(screen.params.reply_markup.inline_keyboard.flat().map((b: any) => b.text)).toEqual([
    "✅ Webhook: on · 3 failed",
    "🧪 Send test webhook",
    "👁 Show signing secret",
    "🔑 Rotate secret",
    "⬅️ Link",
  ]);
  fake.press("⬅️ Link");
  await edited("Clicks:");
});

test("turning an auto-disabled webhook on resets the count; off stops it", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: false, webhookFailures: 100 });
  const screen = await openWebhook(link.id);
  expect(screen.params.text).toContain("turned off after too many failed deliveries");
  fake.press("⬜ Webhook: off · 100 failed");
  await edited("Webhook on; failure count reset to 0.");
  expect(await linkRow(link.id)).toMatchObject({ webhookEnabled: true, webhookFailures: 0 });
  fake.press("✅ Webhook: on");
  await edited("Webhook off: clicks are no longer sent.");
  expect((await linkRow(link.id)).webhookEnabled).toBe(false);
});

test("a test delivery reaches the target, signed, and the user is told the answer", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const link = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/t`, webhookEnabled: true });
  await openWebhook(link.id);
  fake.press("🧪 Send test webhook");
  await answered();
  expect((await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("✅"))).params).toMatchObject({
    chat_id: 42,
    text: `✅ Test webhook of <code>${link.code}</code> sent: the target answered 200.`,
  });
  const r = rx.received[0]!;
  expect(JSON.parse(r.body)).toMatchObject({ event: "test", link: { id: link.id, code: link.code } });
  expect(signatureMatches((await getSigningSecret(t.deps, user.id)).secret, r.headers, r.body)).toBe(true);
});

test("rotating the secret asks first, then shows the new secret in its own message", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
  const old = (await getSigningSecret(t.deps, user.id)).secret;
  await openWebhook(link.id);
  fake.press("🔑 Rotate secret");
  await edited("Rotate the signing secret?");
  expect((await getSigningSecret(t.deps, user.id)).secret).toBe(old);
  let n = fake.calls.length;
  fake.press("Cancel");
  await fake.waitFor("editMessageText", (c) => fake.calls.indexOf(c) >= n && String(c.params.text).includes("Click webhook of"));
  n = fake.calls.length;
  fake.press("🔑 Rotate secret");
  await fake.waitFor("editMessageText", (c) => fake.calls.indexOf(c) >= n && String(c.params.text).includes("Rotate the signing secret?"));
  fake.press("🔑 Yes, rotate");
  const done = await fake.waitFor("sendMessage", (c) => String(c.params.text).includes("New signing secret"));
  const fresh = (await getSigningSecret(t.deps, user.id)).secret;
  expect(fresh).not.toBe(old);
  expect(done.params.text).toContain(fresh);
  expect(done.params.reply_markup).toBeUndefined();
});

test("another user's link is not found", async () => {
  const owner = await t.telegramUser(1, "owner");
  await t.telegramUser(42, "alice");
  const link = await insertLink(t.deps, owner.user.id, { webhookUrl: rx.url, webhookEnabled: true });
  fake.pushMessage(`/start link_${link.id}`);
  await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("⚠️ Link not found"));
  expect((await linkRow(link.id)).webhookEnabled).toBe(true);
  expect(rx.received).toHaveLength(0);
});

test("a slow test target does not hold up the bot; the failure is reported when it times out", async () => {
  const { user } = await t.telegramUser(42, "alice");
  const slowLink = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/slow`, webhookEnabled: true });
  rx.respond = async (r) => {
    if (r.path === "/slow") await Bun.sleep(1500); // the target hangs past the timeout
    return 200;
  };
  await openWebhook(slowLink.id);
  fake.press("🧪 Send test webhook");
  await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("⏳ Sending a test delivery"));
  fake.press("✅ Webhook: on");
  await edited("Webhook off: clicks are no longer sent."); // handled while the test was still waiting
  expect(fake.callsOf("sendMessage").filter((c) => String(c.params.text).startsWith("❌"))).toHaveLength(0);
  const report = await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("❌"));
  expect(report.params.text).toBe(`❌ Test webhook of <code>${slowLink.code}</code> failed: the receiver did not answer within 0.4 s.`);
});
