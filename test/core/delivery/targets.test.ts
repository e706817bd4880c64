import { expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { WebhookReceiver } from "../../helpers/webhook-receiver";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../../helpers/fake-bot-api";
import { deferCleanup, outboxRows } from "../../helpers/webhook-fixtures";
import { deliveryWorker } from "../../../app/delivery-routes";
import { queueBotMessage, queueWebhook } from "../../../core/delivery/outbox";

const defer = deferCleanup();

function app(env: Record<string, string> = {}): TestApp {
  const t = createTestApp({ env });
  defer(() => t.close());
  return t;
}
function receiver() {
  const rx = new WebhookReceiver().start();
  defer(() => rx.stop());
  return rx;
}
async function botApi() {
  const fake = new FakeBotApi().start();
  defer(() => fake.stop());
  return fake;
}

test("a slow target does not delay deliveries to another target", async () => {
  const t = app();
  const { user } = await t.telegramUser();
  const slow = receiver();
  const fast = receiver();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  defer(() => release());
  slow.respond = async () => {
    await gate;
    return 200;
  };
  for (let i = 0; i < 6; i++)
    await queueWebhook(t.deps.asyncDb, t.clock.now(), {
      userId: user.id,
      topic: "tracker_webhook",
      url: `${slow.url}/s${i}`,
      data: { event: "keyword_match", i },
    });
  await queueWebhook(t.deps.asyncDb, t.clock.now(), {
    userId: user.id,
    topic: "tracker_webhook",
    url: `${fast.url}/f`,
    data: { event: "keyword_match" },
  });

  const worker = deliveryWorker(t.deps, { perHost: 2, pollMs: 20 });
  defer(() => worker.stop());
  await worker.start();
  await fast.waitForCount(1); // while the slow host holds its attempts
  await slow.waitForCount(2);
  await Bun.sleep(100); // and no third one follows: only perHost attempts hold the slow host
  expect(slow.received).toHaveLength(2);
  expect((await outboxRows(t.deps)).filter((r) => r.target.startsWith(slow.url) && r.status === "sending")).toHaveLength(2);
  release();
  await slow.waitForCount(6);
  await worker.stop();
  expect((await outboxRows(t.deps)).map((r) => r.status)).toEqual(Array(7).fill("done"));
});

test("bot messages reach the Bot API with chat_id and their parameters", async () => {
  const fake = await botApi();
  const t = app({ BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url });
  const { user } = await t.telegramUser(77, "frank");
  await queueBotMessage(t.deps.asyncDb, t.clock.now(), {
    userId: user.id,
    topic: "tracker_notify",
    chatId: 77,
    params: { text: "New match: *bun*", parse_mode: "Markdown" },
  });
  await queueBotMessage(t.deps.asyncDb, t.clock.now(), {
    userId: user.id,
    topic: "notice",
    chatId: 77,
    method: "sendPhoto",
    params: { photo: "https://example.com/a.png", caption: "chart" },
  });
  await deliveryWorker(t.deps).drain();
  expect(fake.callsOf("sendMessage").map((c) => c.params)).toEqual([{ chat_id: 77, text: "New match: *bun*", parse_mode: "Markdown" }]);
  expect(fake.callsOf("sendPhoto")[0]!.params).toMatchObject({ chat_id: 77, photo: "https://example.com/a.png", caption: "chart" });
  expect((await outboxRows(t.deps)).map((r) => r.status)).toEqual(["done", "done"]);
});

test("Bot API 429 waits retry_after without using up an attempt; 403 (blocked) fails at once", async () => {
  const fake = await botApi();
  const t = app({ BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url });
  const worker = deliveryWorker(t.deps);
  await queueBotMessage(t.deps.asyncDb, t.clock.now(), { userId: null, topic: "notice", chatId: 5, params: { text: "hello" } });
  fake.failNext.set("sendMessage", { error_code: 429, description: "Too Many Requests: retry after 7", parameters: { retry_after: 7 } });
  await worker.drain();
  expect(fake.callsOf("sendMessage")).toHaveLength(1);
  expect((await outboxRows(t.deps))[0]).toMatchObject({ status: "pending", attempts: 0 });
  t.clock.advance(6999);
  await worker.drain();
  expect(fake.callsOf("sendMessage")).toHaveLength(1);
  t.clock.advance(1);
  await worker.drain();
  expect(fake.callsOf("sendMessage")).toHaveLength(2);
  expect((await outboxRows(t.deps))[0]).toMatchObject({ status: "done", attempts: 1 });

  await queueBotMessage(t.deps.asyncDb, t.clock.now(), {
    userId: null,
    topic: "notice",
    chatId: "@some_channel",
    params: { text: "are you there?" },
  });
  fake.failNext.set("sendMessage", { error_code: 403, description: "Forbidden: bot was blocked by the user" });
  await worker.drain();
  t.clock.advance(3_600_000);
  await worker.drain();
  expect(fake.callsOf("sendMessage").filter((c) => c.params.chat_id === "@some_channel")).toHaveLength(1);
  expect((await outboxRows(t.deps))[1]).toMatchObject({
    status: "failed",
    attempts: 1,
    lastError: "Bot API 403: Forbidden: bot was blocked by the user",
  });
});

test("without BOT_TOKEN bot messages wait in the queue; webhooks still go out", async () => {
  const t = app();
  const rx = receiver();
  await queueBotMessage(t.deps.asyncDb, t.clock.now(), { userId: null, topic: "notice", chatId: 5, params: { text: "later" } });
  await queueWebhook(t.deps.asyncDb, t.clock.now(), {
    userId: null,
    topic: "tracker_webhook",
    url: rx.url,
    data: { event: "keyword_match" },
  });
  await deliveryWorker(t.deps).drain();
  expect(rx.received).toHaveLength(1);
  expect(rx.received[0]!.headers["x-webhook-signature"]).toBeUndefined(); // no owner, no secret
  expect((await outboxRows(t.deps)).map((r) => [r.kind, r.status])).toEqual([
    ["bot", "pending"],
    ["webhook", "done"],
  ]);
});

test("a node that stalls until its claim is nearly out puts the send off: another node's takeover sends it once", async () => {
  const { attemptRow, plainBotApi } = await import("../../../core/delivery/send-row");
  const { claimDue, claimLeaseMs } = await import("../../../core/delivery/outbox");
  const fake = await botApi();
  const t = app({ BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url });
  await queueBotMessage(t.deps.asyncDb, t.clock.now(), { userId: null, topic: "notice", chatId: 42, params: { text: "new view" } });
  const [row] = await claimDue(t.deps, 1);
  // node A claimed it, then stalled before the send (a slow getMe, a slow file read) until less of the
  // claim is left than a send may take; meanwhile the claim lapses for node B
  t.clock.advance(claimLeaseMs(t.config) - 10_000);
  const routes = { topics: {}, webhook: async () => ({ type: "done" as const }), storedDocument: async () => null };
  expect(await attemptRow(t.deps, routes, plainBotApi(t.deps), row!)).toMatchObject({ type: "later" });
  expect(fake.callsOf("sendMessage")).toHaveLength(0);
  t.clock.advance(11_000);
  await deliveryWorker(t.deps).drain();
  expect(fake.callsOf("sendMessage").map((c) => c.params.text)).toEqual(["new view"]);
});
