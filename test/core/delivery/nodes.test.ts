/**
 * The delivery worker in cluster mode: two nodes' workers on one PostgreSQL database send every
 * queued webhook once between them, and rows claimed by a node killed with SIGKILL are delivered by
 * another once the claim lapses. (The same worker on SQLite is covered by the other files here.)
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Deps } from "../../../core/deps";
import { ManualClock } from "../../../core/clock";
import { deliveryWorker } from "../../../app/delivery-routes";
import { claimLeaseMs, queueWebhook } from "../../../core/delivery/outbox";
import { createAsyncPg } from "../../../db/async-pg";
import { createPgDb } from "../../../db/postgres";
import * as schemaPg from "../../../db/schema-pg";
import type { AsyncDb, Tables } from "../../../db/async";
import { createTestApp, type TestApp } from "../../helpers/app";
import { startPostgres, type PgServer } from "../../helpers/postgres";
import { cleanEnv, spawnService } from "../../helpers/process";
import { WebhookReceiver } from "../../helpers/webhook-receiver";
import { eventually } from "../../helpers/eventually";

setDefaultTimeout(60_000);
let pg: PgServer;
const cleanup: (() => unknown)[] = [];
beforeAll(async () => void (pg = await startPostgres()));
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await pg.stop();
});

/** A node: a test app's dependencies on the PostgreSQL database at `url`, with `clock`. */
async function node(url: string, clock: ManualClock): Promise<Deps> {
  const t: TestApp = createTestApp({ clock });
  const handle = await createPgDb(url, { max: 4 });
  cleanup.push(() => t.close(), handle.close);
  return { ...t.deps, asyncDb: createAsyncPg<Tables>(handle.db, schemaPg as unknown as Record<keyof Tables, unknown>) } as Deps;
}

async function queue(db: AsyncDb, clock: ManualClock, url: string, n: number, from = 0) {
  const [u] = await db
    .insert(db.tables.users)
    .values({ username: `u${from}`, createdAt: clock.now() })
    .returning();
  for (let i = from; i < from + n; i++)
    await queueWebhook(db, clock.now(), { userId: u!.id, topic: "test_webhook", url: `${url}/hook/${i}`, data: { n: i } });
}

test("two nodes' workers deliver every queued webhook exactly once between them", async () => {
  const url = await pg.createDatabase();
  const clock = new ManualClock("2026-05-01T10:00:00Z");
  const [a, b] = [await node(url, clock), await node(url, clock)];
  const rx = new WebhookReceiver().start();
  cleanup.push(() => rx.stop());
  await queue(a.asyncDb, clock, rx.url, 60);
  const workers = [deliveryWorker(a, { pollMs: 10, perHost: 3 }), deliveryWorker(b, { pollMs: 10, perHost: 3 })];
  await Promise.all(workers.map((w) => w.start()));
  await rx.waitForCount(60, 20_000);
  await Bun.sleep(300);
  await Promise.all(workers.map((w) => w.stop()));
  const ids = rx.received.map((r) => r.headers["x-webhook-id"]);
  expect(ids).toHaveLength(60);
  expect(new Set(ids).size).toBe(60);
  const { outbox } = a.asyncDb.tables;
  expect((await a.asyncDb.select().from(outbox)).every((r) => r.status === "done" && r.attempts === 1)).toBe(true);
});

test("rows claimed by a node killed with SIGKILL are delivered by another once the claim lapses, each once", async () => {
  const url = await pg.createDatabase();
  const clock = new ManualClock("2026-05-01T10:00:00Z");
  const survivor = await node(url, clock);
  const rx = new WebhookReceiver().start();
  cleanup.push(() => rx.stop());
  await queue(survivor.asyncDb, clock, rx.url, 5, 100);
  // the doomed node claims every due row and dies before sending any
  const doomed = spawnService(
    [join(import.meta.dir, "../../helpers/cluster-node-child.ts"), "claim", url, clock.now().toISOString()],
    cleanEnv(),
  );
  const claimed = (await doomed.waitForOutput(/claimed (\S+)/))[1]!.split(",");
  expect(claimed).toHaveLength(5);
  doomed.proc.kill("SIGKILL");
  await doomed.proc.exited;

  const worker = deliveryWorker(survivor, { pollMs: 10 });
  await worker.start();
  cleanup.push(() => worker.stop());
  await Bun.sleep(300);
  expect(rx.received).toHaveLength(0); // the claims hold until they lapse
  clock.advance(claimLeaseMs(survivor.config) + 1000);
  await rx.waitForCount(5, 10_000);
  await Bun.sleep(300);
  expect(rx.received.map((r) => r.headers["x-webhook-id"]).sort()).toEqual([...claimed].sort());
  const { outbox } = survivor.asyncDb.tables;
  await eventually(
    async () => (await survivor.asyncDb.select().from(outbox).where(eq(outbox.status, "done"))).length === 5,
    "every row recorded done",
  );
});
