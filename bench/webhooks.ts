/**
 * Webhook delivery figures: the cost a click webhook adds to recording a click batch, and how fast the
 * worker drains the queue to local receivers (one host vs four). Prints figures; never fails on speed.
 *   bun run bench/webhooks.ts [deliveries=2000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { createDeps } from "../app";
import { withKinds } from "../core/clicks/listeners";
import { sqliteRowWriter } from "../core/clicks/writer";
import { CLICK_LISTENERS } from "../app/click-listeners";
import { deliveryWorker } from "../app/delivery-routes";
import { clicks, links, outbox, users } from "../db/schema";

const N = Number(process.argv[2] ?? 2000);
const dataDir = mkdtempSync(join(tmpdir(), "bench-webhooks-"));
const deps = createDeps(loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: "true", LOG_LEVEL: "error" }));
let received = 0;
const servers = Array.from({ length: 4 }, () =>
  Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => (await req.text(), received++, new Response("ok")) }),
);

const user = deps.db.insert(users).values({ username: "bench" }).returning().get();
const mkLink = (i: number, url: string | null) =>
  deps.db
    .insert(links)
    .values({ userId: user.id, code: `bench${i}`, url: "https://example.com/", title: "t", webhookUrl: url, webhookEnabled: !!url })
    .returning()
    .get();

const writeRows = sqliteRowWriter(deps.db.$client);
function recordBatches(link: typeof links.$inferSelect, total: number, batch = 100) {
  const started = performance.now();
  for (let done = 0; done < total; done += batch)
    deps.db.transaction((tx) => {
      const rows = Array.from({ length: Math.min(batch, total - done) }, () => ({
        link,
        click: tx
          .insert(clicks)
          .values({ linkId: link.id, clickedAt: new Date(), ip: "198.51.100.1", country: "DE", device: "mobile", isUnique: true })
          .returning()
          .get(),
      }));
      const stored = withKinds(rows);
      const now = new Date();
      for (const listener of CLICK_LISTENERS) writeRows(listener(stored, now)); // as the click writer does, on the transaction's connection
    });
  return performance.now() - started;
}

recordBatches(mkLink(100, null), 500); // warm-up
const plain = recordBatches(mkLink(0, null), N);
const hooked = recordBatches(mkLink(1, `http://127.0.0.1:${servers[0]!.port}/hook`), N);
console.log(
  `record ${N} clicks in batches of 100: ${((plain / N) * 1000).toFixed(1)} µs/click without webhook, ${((hooked / N) * 1000).toFixed(1)} µs/click with (enqueue adds ${(((hooked - plain) / N) * 1000).toFixed(1)} µs)`,
);

/** Runs the worker as main.ts does (polling) until every queued row is delivered. */
async function drain(label: string, expected: number) {
  received = 0;
  const worker = deliveryWorker(deps);
  const started = performance.now();
  await worker.start();
  while (received < expected) await Bun.sleep(5);
  const ms = performance.now() - started;
  await worker.stop();
  console.log(`${label}: ${received} deliveries in ${ms.toFixed(0)} ms = ${((received / ms) * 1000).toFixed(0)}/s`);
}
await drain("deliver to 1 host (4 in flight)", N);

deps.db.delete(outbox).run();
for (let h = 0; h < 4; h++) recordBatches(mkLink(2 + h, `http://127.0.0.1:${servers[h]!.port}/hook`), N / 4);
await drain("deliver to 4 hosts (16 in flight)", N);

for (const s of servers) s.stop(true);
deps.handle.close();
rmSync(dataDir, { recursive: true, force: true });
