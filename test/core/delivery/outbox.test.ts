import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { appWithReceiver, deferCleanup, insertLink, outboxRows, recordClicks } from "../../helpers/webhook-fixtures";
import { queueWebhook, pruneOutbox } from "../../../core/delivery/outbox";
import { runListeners } from "../../helpers/clicks";
import { transaction } from "../../../db/async";
import { loadConfig, ConfigError } from "../../../config";

const defer = deferCleanup();

test("a click batch that rolls back leaves no delivery behind", async () => {
  const { t, rx } = appWithReceiver(defer);
  const { user } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
  await expect(
    transaction(t.deps.asyncDb, async (tx) => {
      const [click] = await tx.insert(tx.tables.clicks).values({ linkId: link.id, clickedAt: t.clock.now() }).returning();
      await runListeners(tx, t.deps, [{ click: click!, link }]);
      throw new Error("recorder failed after the hooks");
    }),
  ).rejects.toThrow("recorder failed");
  expect(await outboxRows(t.deps)).toHaveLength(0);
  await recordClicks(t.deps, link, [{}, {}]);
  expect((await outboxRows(t.deps)).map((r) => [r.topic, r.refId, r.userId, r.host])).toEqual([
    ["click_webhook", link.id, user.id, new URL(rx.url).host],
    ["click_webhook", link.id, user.id, new URL(rx.url).host],
  ]);
});

test("finished rows are pruned: delivered after 7 days, failed after 30; pending ones never", async () => {
  const { t } = appWithReceiver(defer);
  const day = 86_400_000;
  const add = async (status: "done" | "failed" | "pending", ageDays: number) => {
    const id = await queueWebhook(t.deps.asyncDb, t.clock.now(), {
      userId: null,
      topic: "x",
      url: "https://example.com/",
      data: { ageDays },
    });
    await t.deps.asyncDb
      .update(t.deps.asyncDb.tables.outbox)
      .set({ status, completedAt: status === "pending" ? null : new Date(t.clock.now().getTime() - ageDays * day) })
      .where(eq(t.deps.asyncDb.tables.outbox.deliveryId, id));
  };
  await add("done", 8);
  await add("done", 6);
  await add("failed", 31);
  await add("failed", 8);
  await add("pending", 0);
  expect(await pruneOutbox(t.deps)).toBe(2);
  expect((await outboxRows(t.deps)).map((r) => [r.status, r.payload.ageDays])).toEqual([
    ["done", 6],
    ["failed", 8],
    ["pending", 0],
  ]);
});

test("WEBHOOK_TIMEOUT_MS is validated and defaults to 5 s", () => {
  const dir = mkdtempSync(join(tmpdir(), "cfg-"));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  expect(loadConfig({ DATA_DIR: dir }).webhookTimeoutMs).toBe(5000);
  expect(loadConfig({ DATA_DIR: dir, WEBHOOK_TIMEOUT_MS: "250" }).webhookTimeoutMs).toBe(250);
  expect(() => loadConfig({ DATA_DIR: dir, WEBHOOK_TIMEOUT_MS: "soon" })).toThrow(ConfigError);
  expect(() => loadConfig({ DATA_DIR: dir, WEBHOOK_TIMEOUT_MS: "10" })).toThrow(
    "WEBHOOK_TIMEOUT_MS: expected a whole number from 100 to 60000",
  );
});
