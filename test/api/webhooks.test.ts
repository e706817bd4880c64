import { beforeEach, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app";
import type { WebhookReceiver } from "../helpers/webhook-receiver";
import { appWithReceiver, deferCleanup, insertLink, outboxRows, recordClicks, signatureMatches } from "../helpers/webhook-fixtures";
import { deliveryWorker } from "../../app/delivery-routes";

const defer = deferCleanup();
let t: TestApp;
let rx: WebhookReceiver;
beforeEach(() => ({ t, rx } = appWithReceiver(defer)));

async function tokenWith(session: string, scopes: string[]) {
  const res = await t.request("POST", "/api/tokens", { token: session, body: { name: scopes.join(" "), scopes } });
  return res.json.token as string;
}

test("the signing secret is created on first read, stable, and rotates to a new value", async () => {
  const { token } = await t.telegramUser();
  const first = await t.request("GET", "/api/webhooks/secret", { token });
  expect(first.status).toBe(200);
  expect(first.json).toEqual({
    secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    createdAt: t.clock.now().toISOString(),
    rotatedAt: null,
  });
  expect((await t.request("GET", "/api/webhooks/secret", { token })).json.secret).toBe(first.json.secret);

  t.clock.advance(60_000);
  const rotated = await t.request("POST", "/api/webhooks/secret/rotate", { token });
  expect(rotated.status).toBe(200);
  expect(rotated.json.secret).not.toBe(first.json.secret);
  expect(rotated.json.rotatedAt).toBe(t.clock.now().toISOString());
  expect((await t.request("GET", "/api/webhooks/secret", { token })).json.secret).toBe(rotated.json.secret);

  const other = await t.emailUser("zed@example.com");
  expect((await t.request("GET", "/api/webhooks/secret", { token: other.token })).json.secret).not.toBe(rotated.json.secret);
});

test("write:links tokens may read and rotate the secret; read-only tokens and anonymous callers may not", async () => {
  const { token } = await t.telegramUser();
  const writer = await tokenWith(token, ["write:links"]);
  const reader = await tokenWith(token, ["read:links", "read:stats"]);
  expect((await t.request("GET", "/api/webhooks/secret", { token: writer })).status).toBe(200);
  expect((await t.request("POST", "/api/webhooks/secret/rotate", { token: writer })).status).toBe(200);
  const denied = await t.request("GET", "/api/webhooks/secret", { token: reader });
  expect(denied.status).toBe(403);
  expect(denied.json.error).toBe("insufficient_scope");
  expect((await t.request("POST", "/api/webhooks/secret/rotate", { token: reader })).status).toBe(403);
  const anon = await t.request("GET", "/api/webhooks/secret");
  expect(anon.status).toBe(401);
  expect(anon.json.error).toBeString();
});

test("a test delivery is sent signed right away and reports the target's answer", async () => {
  const { user, token } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/t`, webhookEnabled: false });
  const ok = await t.request("POST", `/api/webhooks/links/${link.id}/test`, { token });
  expect(ok.status).toBe(200);
  expect(ok.json).toEqual({ ok: true, status: 200, deliveryId: expect.any(String) });
  const r = rx.received[0]!;
  expect(r.headers["x-webhook-id"]).toBe(ok.json.deliveryId);
  const body = JSON.parse(r.body);
  expect(body.event).toBe("test");
  expect(body.link).toEqual({ id: link.id, code: link.code, original_url: link.url, title: link.title });
  expect(Object.keys(body.click)).toEqual([
    "ip",
    "country",
    "city",
    "device_type",
    "os",
    "browser",
    "referer",
    "is_bot",
    "is_unique",
    "clicked_at",
  ]);
  const { secret } = (await t.request("GET", "/api/webhooks/secret", { token })).json;
  expect(signatureMatches(secret, r.headers, r.body)).toBe(true);

  rx.respond = 500;
  expect((await t.request("POST", `/api/webhooks/links/${link.id}/test`, { token })).json).toMatchObject({
    ok: false,
    status: 500,
    error: "the target answered 500",
  });
  expect(await outboxRows(t.deps)).toHaveLength(0); // not queued, no failure counted

  const other = await t.emailUser("mallory@example.com");
  expect((await t.request("POST", `/api/webhooks/links/${link.id}/test`, { token: other.token })).status).toBe(404);
  expect((await t.request("POST", `/api/webhooks/links/abc/test`, { token })).status).toBe(400);
  const bare = await insertLink(t.deps, user.id, { webhookUrl: null });
  const none = await t.request("POST", `/api/webhooks/links/${bare.id}/test`, { token });
  expect(none.status).toBe(400);
  expect(none.json.details[0]).toEqual({ field: "webhook_url", message: "the link has no webhook_url" });
});

test("the delivery log lists a user's webhook deliveries; a failed one can be sent again with the same id", async () => {
  const { user, token } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/log`, webhookEnabled: true });
  const other = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/other`, webhookEnabled: true });
  rx.respond = 500;
  await recordClicks(t.deps, link);
  await recordClicks(t.deps, other);
  const worker = deliveryWorker(t.deps);
  for (const wait of [0, 2000, 5000, 15000, 30000]) {
    t.clock.advance(wait);
    await worker.drain();
  }
  const log = await t.request("GET", `/api/webhooks/deliveries?linkId=${link.id}`, { token });
  expect(log.status).toBe(200);
  expect(log.json).toEqual([
    {
      id: expect.any(String),
      topic: "click_webhook",
      linkId: link.id,
      url: `${rx.url}/log`,
      method: "POST",
      status: "failed",
      attempts: 6,
      lastError: "HTTP 500: error",
      createdAt: expect.any(String),
      nextAttemptAt: null,
      completedAt: t.clock.now().toISOString(),
    },
  ]);
  expect((await t.request("GET", "/api/webhooks/deliveries?limit=1", { token })).json.map((d: any) => d.linkId)).toEqual([other.id]);
  expect((await t.request("GET", "/api/webhooks/deliveries?limit=500", { token })).status).toBe(400);

  rx.respond = 200;
  const again = await t.request("POST", `/api/webhooks/deliveries/${log.json[0].id}/redeliver`, { token });
  expect(again.status).toBe(200);
  expect(again.json).toMatchObject({ status: "pending", attempts: 0 });
  await worker.drain();
  expect(rx.received.at(-1)!.headers["x-webhook-id"]).toBe(log.json[0].id);
  expect((await t.request("GET", `/api/webhooks/deliveries?linkId=${link.id}`, { token })).json[0]).toMatchObject({
    status: "done",
    attempts: 1,
    lastError: "HTTP 200",
  });
  const twice = await t.request("POST", `/api/webhooks/deliveries/${log.json[0].id}/redeliver`, { token });
  expect(twice.status).toBe(409);

  const stranger = await t.emailUser("sam@example.com");
  expect((await t.request("GET", `/api/webhooks/deliveries?linkId=${link.id}`, { token: stranger.token })).status).toBe(404);
  expect((await t.request("GET", "/api/webhooks/deliveries", { token: stranger.token })).json).toEqual([]);
  expect((await t.request("POST", `/api/webhooks/deliveries/${log.json[0].id}/redeliver`, { token: stranger.token })).status).toBe(404);
});
