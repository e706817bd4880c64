/**
 * Webhook signing secrets, the delivery log and redelivery on the async seam, one body on SQLite
 * and on a real PostgreSQL, with concurrent callers where two nodes could race.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import type { Deps } from "../../../core/deps";
import { getSigningSecret, rotateSigningSecret } from "../../../core/webhooks/signing";
import { listDeliveries, redeliver } from "../../../core/webhooks/deliveries";
import { getLinkWebhook, setLinkWebhookEnabled } from "../../../core/webhooks/link-webhook";
import { appEnginesForFile } from "../../helpers/async-engines";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const engines = appEnginesForFile();

for (const [engine, open] of engines)
  describe(engine, () => {
    async function setup() {
      const { db } = await open();
      const clock = new ManualClock("2026-03-01T09:30:00.000Z");
      const deps = { asyncDb: db, clock } as unknown as Deps;
      const [ada] = await db.insert(db.tables.users).values({ username: "ada" }).returning();
      const [bob] = await db.insert(db.tables.users).values({ username: "bob" }).returning();
      const [link] = await db
        .insert(db.tables.links)
        .values({
          userId: ada!.id,
          code: "spring",
          url: "https://example.com",
          webhookUrl: "https://hooks.example/in",
          createdAt: clock.now(),
          updatedAt: clock.now(),
        })
        .returning();
      return { db, deps, clock, ada: ada!.id, bob: bob!.id, link: link! };
    }

    test("a signing secret is made on first use, the same for first uses at once; rotating replaces it", async () => {
      const { deps, ada, bob } = await setup();
      const firsts = await Promise.all(Array.from({ length: 8 }, () => getSigningSecret(deps, ada)));
      expect(new Set(firsts.map((s) => s.secret)).size).toBe(1);
      expect(firsts[0]!.secret).toMatch(/^whsec_/);
      expect((await getSigningSecret(deps, bob)).secret).not.toBe(firsts[0]!.secret);
      const rotated = await rotateSigningSecret(deps, ada);
      expect(rotated.secret).not.toBe(firsts[0]!.secret);
      expect(rotated.rotatedAt).toEqual(new Date("2026-03-01T09:30:00.000Z"));
      expect((await getSigningSecret(deps, ada)).secret).toBe(rotated.secret);
    });

    test("the delivery log lists a user's webhook rows newest first; a failed one is queued again once when two ask at once", async () => {
      const { db, deps, clock, ada, bob, link } = await setup();
      const row = (deliveryId: string, status: "failed" | "done", refId: number | null = link.id) => ({
        deliveryId,
        userId: ada,
        kind: "webhook" as const,
        topic: "click_webhook",
        refId,
        target: "https://hooks.example/in",
        payload: {},
        status,
        attempts: 6,
        nextAttemptAt: clock.now(),
        createdAt: clock.now(),
      });
      await db.insert(db.tables.outbox).values([row("d-1", "done"), row("d-2", "failed")]);
      expect((await listDeliveries(deps, ada, { linkId: link.id })).map((d) => [d.id, d.status])).toEqual([
        ["d-2", "failed"],
        ["d-1", "done"],
      ]);
      expect(await listDeliveries(deps, bob, {})).toEqual([]);
      await expect(listDeliveries(deps, bob, { linkId: link.id })).rejects.toThrow("Link not found");
      const both = await Promise.allSettled([redeliver(deps, ada, "d-2"), redeliver(deps, ada, "d-2")]);
      expect(
        both.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<{ status: string; attempts: number }>).value),
      ).toEqual([expect.objectContaining({ status: "pending", attempts: 0 })]);
      expect(both.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason.message))).toEqual([
        "The delivery is pending; only failed or cancelled deliveries can be sent again",
      ]);
      await expect(redeliver(deps, ada, "d-1")).rejects.toThrow("The delivery is done");
      await expect(redeliver(deps, bob, "d-2")).rejects.toThrow("Delivery not found");
    });

    test("a link's webhook is turned on (failure count reset) and off by its owner only", async () => {
      const { db, deps, ada, bob, link } = await setup();
      await db.update(db.tables.links).set({ webhookFailures: 7 });
      expect(await setLinkWebhookEnabled(deps, ada, link.id, true)).toMatchObject({
        enabled: true,
        failures: 0,
        url: "https://hooks.example/in",
      });
      expect(await setLinkWebhookEnabled(deps, ada, link.id, false)).toMatchObject({ enabled: false });
      await expect(getLinkWebhook(deps, bob, link.id)).rejects.toThrow("Link not found");
      await expect(setLinkWebhookEnabled(deps, bob, link.id, true)).rejects.toThrow("Link not found");
    });
  });
