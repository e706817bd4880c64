import { expect, test, setDefaultTimeout } from "bun:test";
import { join } from "node:path";
import type { TestApp } from "../../helpers/app";
import { appWithReceiver, deferCleanup, insertLink, outboxRows, recordClicks } from "../../helpers/webhook-fixtures";
import { createDeps } from "../../../app";
import { deliveryWorker } from "../../../app/delivery-routes";
import { claimDue } from "../../../core/delivery/outbox";

// this file spawns processes or a browser: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

const defer = deferCleanup();

const setup = () => appWithReceiver(defer);

/** The app started again on the same DATA_DIR (and so the same database file). */
function reopen(t: TestApp) {
  const deps = createDeps(t.config, { clock: t.clock, log: t.deps.log });
  defer(() => deps.handle.close());
  return deps;
}

test("queued deliveries survive a restart of the app on the same database file", async () => {
  const { t, rx } = setup();
  const { user } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true });
  await recordClicks(t.deps, link, [{}, {}, {}]);
  const ids = (await outboxRows(t.deps)).map((r) => r.deliveryId);
  t.deps.handle.close(); // the app stops before anything was sent

  const deps = reopen(t);
  expect(deps.config.dataDir).toBe(t.dataDir);
  const worker = deliveryWorker(deps, { pollMs: 20 });
  await worker.start();
  await rx.waitForCount(3);
  await worker.stop();
  expect(rx.received.map((r) => r.headers["x-webhook-id"]).sort()).toEqual([...ids].sort());
  expect((await outboxRows(deps)).map((r) => r.status)).toEqual(["done", "done", "done"]);
});

test("a delivery claimed but not recorded before a crash is sent again after restart, with the same delivery id", async () => {
  const { t, rx } = setup();
  const { user } = await t.telegramUser();
  await recordClicks(t.deps, await insertLink(t.deps, user.id, { webhookUrl: rx.url, webhookEnabled: true }));
  const [claimed] = await claimDue(t.deps, 10); // the worker took it ... and the process died
  expect((await outboxRows(t.deps))[0]!.status).toBe("sending");
  t.deps.handle.close();

  const deps = reopen(t);
  const worker = deliveryWorker(deps);
  await worker.start();
  await rx.waitForCount(1);
  await worker.stop();
  expect(rx.received[0]!.headers["x-webhook-id"]).toBe(claimed!.deliveryId);
  expect((await outboxRows(deps))[0]!.status).toBe("done");
});

test("kill -9 while the target is answering: the delivery is re-sent after restart with the same id", async () => {
  const { t, rx } = setup();
  const { user } = await t.telegramUser();
  await recordClicks(t.deps, await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/k`, webhookEnabled: true }));
  let answer!: (status: number) => void;
  rx.respond = () => new Promise<number>((r) => (answer = r));

  const child = Bun.spawn(["bun", join(import.meta.dir, "../../helpers/delivery-child.ts")], {
    env: { ...process.env, DATA_DIR: t.dataDir, WEBHOOK_ALLOW_PRIVATE: "true", LOG_LEVEL: "error", PORT: "3999" },
    stdout: "ignore",
    stderr: "inherit",
  });
  defer(() => child.kill(9));
  await rx.waitForCount(1, 10_000); // the target has the request; the worker has not recorded it
  child.kill(9);
  expect(await child.exited).not.toBe(0);
  answer(200);
  expect((await outboxRows(t.deps))[0]!.status).toBe("sending");

  rx.respond = 200;
  const worker = deliveryWorker(t.deps, { pollMs: 20 });
  await worker.start();
  await rx.waitForCount(2);
  await worker.stop();
  expect((await outboxRows(t.deps))[0]!.status).toBe("done");
  const [first, second] = rx.received;
  expect(second!.headers["x-webhook-id"]).toBe(first!.headers["x-webhook-id"]!);
  expect(second!.body).toBe(first!.body);
  expect((await outboxRows(t.deps))[0]!.attempts).toBe(1);
});
