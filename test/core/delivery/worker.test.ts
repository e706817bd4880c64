import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { TestApp } from "../../helpers/app";
import type { WebhookReceiver } from "../../helpers/webhook-receiver";
import { appWithReceiver, deferCleanup, insertLink, outboxRows, recordClicks, signatureMatches } from "../../helpers/webhook-fixtures";
import { deliveryWorker } from "../../../app/delivery-routes";
import { getSigningSecret, rotateSigningSecret } from "../../../core/webhooks/signing";

const defer = deferCleanup();
let t: TestApp;
let rx: WebhookReceiver;
beforeEach(() => ({ t, rx } = appWithReceiver(defer)));

describe("click webhook deliveries", () => {
  test("POST carries the spec's body exactly, signed with the owner's secret", async () => {
    const { user } = await t.telegramUser();
    const link = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/hook`, webhookEnabled: true, title: "Spring sale" });
    const [click] = await recordClicks(t.deps, link, [
      {
        ip: "203.0.113.9",
        country: "FR",
        city: "Paris",
        device: "desktop",
        os: "Windows",
        browser: "Edge",
        referer: null,
        isBot: false,
        isUnique: true,
      },
    ]);
    await deliveryWorker(t.deps).drain();

    expect(rx.received).toHaveLength(1);
    const r = rx.received[0]!;
    expect(r.method).toBe("POST");
    expect(r.path).toBe("/hook");
    expect(r.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(r.body)).toEqual({
      event: "click",
      link: { id: link.id, code: link.code, original_url: "https://example.com/landing", title: "Spring sale" },
      click: {
        ip: "203.0.113.9",
        country: "FR",
        city: "Paris",
        device_type: "desktop",
        os: "Windows",
        browser: "Edge",
        referer: null,
        is_bot: false,
        is_unique: true,
        clicked_at: click!.clickedAt.toISOString(),
      },
    });
    expect(Object.keys(JSON.parse(r.body))).toEqual(["event", "link", "click"]);
    const [row] = await outboxRows(t.deps, "click_webhook");
    expect(r.headers["x-webhook-id"]).toBe(row!.deliveryId);
    expect(r.headers["x-webhook-event"]).toBe("click");
    expect(r.headers["x-webhook-timestamp"]).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    const { secret } = await getSigningSecret(t.deps, user.id);
    expect(signatureMatches(secret, r.headers, r.body)).toBe(true);
    expect(signatureMatches(secret, r.headers, r.body.replace("Paris", "Lyon"))).toBe(false);
    expect(row!.status).toBe("done");
  });

  test("GET sends the same data as flat query parameters, signed over the query string", async () => {
    const { user } = await t.telegramUser();
    const link = await insertLink(t.deps, user.id, {
      webhookUrl: `${rx.url}/g?token=abc`,
      webhookMethod: "GET",
      webhookEnabled: true,
      title: null,
    });
    const [click] = await recordClicks(t.deps, link, [{ referer: null, isBot: true, isUnique: false, device: "bot" }]);
    await deliveryWorker(t.deps).drain();

    const r = rx.received[0]!;
    expect(r.method).toBe("GET");
    expect(r.body).toBe("");
    expect(r.query).toEqual({
      token: "abc",
      event: "click",
      link_id: String(link.id),
      link_code: link.code,
      link_original_url: "https://example.com/landing",
      link_title: "",
      click_ip: "198.51.100.4",
      click_country: "DE",
      click_city: "Berlin",
      click_device_type: "bot",
      click_os: "iOS",
      click_browser: "Safari",
      click_referer: "",
      click_is_bot: "true",
      click_is_unique: "false",
      click_clicked_at: click!.clickedAt.toISOString(),
    });
    expect(signatureMatches((await getSigningSecret(t.deps, user.id)).secret, r.headers, r.rawQuery)).toBe(true);
  });

  test("the delivery id is signed: a captured delivery replayed under a new X-Webhook-Id does not verify", async () => {
    const { user } = await t.telegramUser();
    const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
    await recordClicks(t.deps, link);
    await deliveryWorker(t.deps).drain();
    const r = rx.received[0]!;
    const { secret } = await getSigningSecret(t.deps, user.id);
    expect(signatureMatches(secret, r.headers, r.body)).toBe(true);
    // receivers drop repeats by X-Webhook-Id; an unsigned id would let a replay through as "new"
    expect(signatureMatches(secret, { ...r.headers, "x-webhook-id": randomUUID() }, r.body)).toBe(false);
  });

  test("the verification sample of docs/webhooks.md accepts real deliveries (POST body, GET query) and refuses tampering", async () => {
    const doc = await Bun.file(`${import.meta.dir}/../../../docs/webhooks.md`).text();
    const src = /export (function verifyWebhook[\s\S]*?\n})\n/.exec(doc)![1]!;
    const js = new Bun.Transpiler({ loader: "ts" }).transformSync(src);
    const verifyWebhook = new Function("createHmac", "timingSafeEqual", `${js}\nreturn verifyWebhook;`)(createHmac, timingSafeEqual) as (
      secret: string,
      headers: Headers,
      payload: string,
      toleranceSec?: number,
    ) => boolean;
    t.clock.set(new Date()); // the sample checks the timestamp against the real time
    const { user } = await t.telegramUser();
    const post = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/p`, webhookEnabled: true });
    const get = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/g?mine=1`, webhookMethod: "GET", webhookEnabled: true });
    await recordClicks(t.deps, post);
    await recordClicks(t.deps, get);
    await deliveryWorker(t.deps).drain();
    const { secret } = await getSigningSecret(t.deps, user.id);
    const p = rx.received.find((r) => r.method === "POST")!;
    const g = rx.received.find((r) => r.method === "GET")!;
    expect(verifyWebhook(secret, new Headers(p.headers), p.body)).toBe(true);
    expect(verifyWebhook(secret, new Headers(g.headers), g.rawQuery)).toBe(true);
    expect(verifyWebhook(secret, new Headers(p.headers), p.body.replace("click", "clack"))).toBe(false);
    expect(verifyWebhook(secret, new Headers({ ...p.headers, "x-webhook-id": randomUUID() }), p.body)).toBe(false);
    expect(verifyWebhook("whsec_wrong", new Headers(p.headers), p.body)).toBe(false);
  });

  test("a rotated secret signs the next deliveries; the old one no longer verifies", async () => {
    const { user } = await t.telegramUser();
    const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
    const old = (await getSigningSecret(t.deps, user.id)).secret;
    const fresh = (await rotateSigningSecret(t.deps, user.id)).secret;
    expect(fresh).not.toBe(old);
    await recordClicks(t.deps, link);
    await deliveryWorker(t.deps).drain();
    expect(signatureMatches(fresh, rx.received[0]!.headers, rx.received[0]!.body)).toBe(true);
    expect(signatureMatches(old, rx.received[0]!.headers, rx.received[0]!.body)).toBe(false);
  });

  test("links without an enabled webhook enqueue nothing", async () => {
    const { user } = await t.telegramUser();
    await recordClicks(t.deps, await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: false }));
    await recordClicks(t.deps, await insertLink(t.deps, user.id, { webhookUrl: null, webhookEnabled: true }));
    expect(await outboxRows(t.deps)).toHaveLength(0);
  });

  test("retries follow the delays 0, 2, 5, 15, 30 s after each failed attempt, then give up", async () => {
    rx.respond = 500;
    const { user } = await t.telegramUser();
    const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
    await recordClicks(t.deps, link);
    const worker = deliveryWorker(t.deps);
    const start = t.clock.now().getTime();
    const sentAt: number[] = [];
    rx.respond = () => {
      sentAt.push(t.clock.now().getTime() - start);
      return 500;
    };
    await worker.drain();
    expect(sentAt).toEqual([0, 0]); // the first retry is immediate
    for (const [wait, total] of [
      [2000, 3],
      [5000, 4],
      [15000, 5],
      [30000, 6],
    ] as const) {
      t.clock.advance(wait - 1);
      await worker.drain();
      expect(rx.received).toHaveLength(total - 1); // not yet due
      t.clock.advance(1);
      await worker.drain();
      expect(rx.received).toHaveLength(total);
    }
    expect(sentAt).toEqual([0, 0, 2000, 7000, 22000, 52000]);
    t.clock.advance(3_600_000);
    await worker.drain();
    expect(rx.received).toHaveLength(6);
    const [row] = await outboxRows(t.deps, "click_webhook");
    expect(row!.status).toBe("failed");
    expect(row!.attempts).toBe(6);
    expect(row!.lastError).toContain("HTTP 500");
    expect(new Set(rx.received.map((r) => r.headers["x-webhook-id"]))).toEqual(new Set([row!.deliveryId]));
    const after = (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.links).where(eq(t.deps.asyncDb.tables.links.id, link.id)))[0]!;
    expect(after.webhookFailures).toBe(1); // one failure per delivery, not per attempt
    expect(after.webhookEnabled).toBe(true);
  });

  test("a delivery that succeeds on a retry counts no failure; redirects are failures and not followed", async () => {
    const { user } = await t.telegramUser();
    const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
    rx.respond = (_r, i) => (i === 0 ? 302 : 200);
    await recordClicks(t.deps, link);
    await deliveryWorker(t.deps).drain();
    expect(rx.received).toHaveLength(2);
    expect(rx.received.every((r) => r.path === "/")).toBe(true);
    expect((await outboxRows(t.deps))[0]!.status).toBe("done");
    expect(
      (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.links).where(eq(t.deps.asyncDb.tables.links.id, link.id)))[0]!
        .webhookFailures,
    ).toBe(0);
  });
});
