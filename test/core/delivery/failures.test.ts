import { afterEach, beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { WebhookReceiver } from "../../helpers/webhook-receiver";
import { insertLink, outboxRows, recordClicks } from "../../helpers/webhook-fixtures";
import { deliveryWorker } from "../../../app/delivery-routes";
import { setLinkWebhookEnabled, webhookEnableColumns, getLinkWebhook } from "../../../core/webhooks/link-webhook";
import { redeliver } from "../../../core/webhooks/deliveries";

let t: TestApp;
let rx: WebhookReceiver;

beforeEach(() => {
  t = createTestApp({ env: { WEBHOOK_RETRY_DELAYS: "0,1" } });
  rx = new WebhookReceiver().start();
  rx.respond = 503;
});
afterEach(() => {
  rx.stop();
  t.close();
});

const linkRow = async (id: number) =>
  (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.links).where(eq(t.deps.asyncDb.tables.links.id, id)))[0]!;

/** Runs every attempt of every queued delivery (moving the clock past each retry delay). */
async function deliverAll() {
  const worker = deliveryWorker(t.deps);
  for (let i = 0; i < 4; i++) {
    await worker.drain();
    t.clock.advance(1000);
  }
}

test("each delivery that fails every attempt counts one failure; success does not reset the count", async () => {
  const { user } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
  await recordClicks(t.deps, link, [{}, {}]);
  await deliverAll();
  expect(rx.received).toHaveLength(6); // 2 deliveries × 3 attempts
  expect((await linkRow(link.id)).webhookFailures).toBe(2);
  rx.respond = 200;
  await recordClicks(t.deps, link);
  await deliverAll();
  expect(rx.received).toHaveLength(7);
  expect((await linkRow(link.id)).webhookFailures).toBe(2);
  expect(await getLinkWebhook(t.deps, user.id, link.id)).toMatchObject({ enabled: true, failures: 2 });
});

test("a failed delivery sent again that fails again still counts one failure (one per click)", async () => {
  const { user } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
  await recordClicks(t.deps, link);
  await deliverAll();
  expect((await linkRow(link.id)).webhookFailures).toBe(1);
  const [failed] = await outboxRows(t.deps, "click_webhook");
  expect(failed!.status).toBe("failed");
  await redeliver(t.deps, user.id, failed!.deliveryId);
  await deliverAll();
  expect(rx.received).toHaveLength(6); // 2 × 3 attempts
  expect((await outboxRows(t.deps, "click_webhook"))[0]!.status).toBe("failed");
  expect((await linkRow(link.id)).webhookFailures).toBe(1);
});

test("the 100th failed delivery disables the webhook and queues one bot notice to the owner", async () => {
  const { user } = await t.telegramUser(4242, "carol");
  const link = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/dead`, webhookEnabled: true, webhookFailures: 98 });
  await recordClicks(t.deps, link, [{}]);
  await deliverAll();
  expect(await linkRow(link.id)).toMatchObject({ webhookFailures: 99, webhookEnabled: true });
  expect(await outboxRows(t.deps, "webhook_disabled")).toHaveLength(0);

  await recordClicks(t.deps, link, [{}]);
  await deliverAll();
  expect(await linkRow(link.id)).toMatchObject({ webhookFailures: 100, webhookEnabled: false });
  const notices = await outboxRows(t.deps, "webhook_disabled");
  expect(notices).toHaveLength(1);
  expect(notices[0]).toMatchObject({
    kind: "bot",
    target: "4242",
    method: "sendMessage",
    userId: user.id,
    refId: link.id,
    status: "pending",
  });
  expect(String(notices[0]!.payload.text)).toContain(`<code>${link.code}</code>`);
  expect(String(notices[0]!.payload.text)).toContain("100 failed deliveries");

  // no more deliveries for a disabled webhook
  const before = rx.received.length;
  await recordClicks(t.deps, { ...(await linkRow(link.id)) });
  await deliverAll();
  expect(rx.received).toHaveLength(before);
});

test("owners without a Telegram account get no bot notice", async () => {
  const { user } = await t.emailUser("dora@example.com");
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true, webhookFailures: 99 });
  await recordClicks(t.deps, link);
  await deliverAll();
  expect((await linkRow(link.id)).webhookEnabled).toBe(false);
  expect(await outboxRows(t.deps, "webhook_disabled")).toHaveLength(0);
});

test("re-enabling resets the failure count; enabling without a URL is refused", async () => {
  const { user } = await t.telegramUser();
  const other = await t.emailUser("eve@example.com");
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: false, webhookFailures: 100 });
  await expect(setLinkWebhookEnabled(t.deps, other.user.id, link.id, true)).rejects.toThrow("Link not found");
  expect(await setLinkWebhookEnabled(t.deps, user.id, link.id, true)).toMatchObject({ enabled: true, failures: 0 });
  expect(await linkRow(link.id)).toMatchObject({ webhookEnabled: true, webhookFailures: 0 });
  expect(await setLinkWebhookEnabled(t.deps, user.id, link.id, false)).toMatchObject({ enabled: false, failures: 0 });
  const bare = await insertLink(t.deps, user.id, { webhookUrl: null });
  await expect(setLinkWebhookEnabled(t.deps, user.id, bare.id, true)).rejects.toThrow("no webhook_url");
  expect(webhookEnableColumns(true)).toEqual({ webhookEnabled: true, webhookFailures: 0 });
  expect(webhookEnableColumns(false)).toEqual({ webhookEnabled: false });
});

test("deliveries still queued when the webhook is turned off are cancelled, not sent", async () => {
  const { user } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
  await recordClicks(t.deps, link, [{}, {}]);
  await setLinkWebhookEnabled(t.deps, user.id, link.id, false);
  await deliverAll();
  expect(rx.received).toHaveLength(0);
  expect((await outboxRows(t.deps, "click_webhook")).map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
  expect((await linkRow(link.id)).webhookFailures).toBe(0);
});
