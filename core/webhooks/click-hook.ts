import type { ClickListener, ClickWriterDeps, StoredClick } from "../clicks/listeners";
import { enqueueWebhook, webhookRow, type WebhookJob } from "../delivery/outbox";
import type { AsyncTx } from "../../db/async";
import { clickEvent } from "./payload";

/** The webhook deliveries of a stored batch: one per click on a link whose webhook is enabled. */
function clickWebhooks(batch: StoredClick[]): WebhookJob[] {
  const jobs: WebhookJob[] = [];
  for (const { click, link } of batch) {
    if (!link.webhookEnabled || !link.webhookUrl) continue;
    jobs.push({
      userId: link.userId,
      topic: "click_webhook",
      refId: link.id,
      url: link.webhookUrl,
      method: link.webhookMethod,
      data: clickEvent(link, click) as unknown as Record<string, unknown>,
    });
  }
  return jobs;
}

/** Outbox rows per statement on PostgreSQL (11 parameters a row). */
const PG_CHUNK = 2000;

/**
 * Queues one webhook delivery per recorded click on a link whose webhook is enabled, in the
 * transaction that records the clicks (so a click and its delivery commit together). The visitor's
 * redirect never waits for it: the delivery worker sends it.
 */
export const clickWebhookHook: ClickListener = Object.assign(
  (tx: Parameters<ClickListener>[0], deps: ClickWriterDeps, batch: StoredClick[]) => {
    const now = deps.clock.now();
    for (const job of clickWebhooks(batch)) enqueueWebhook(tx, now, job);
  },
  {
    async postgres(tx: AsyncTx, deps: ClickWriterDeps, batch: StoredClick[]) {
      const now = deps.clock.now();
      const rows = clickWebhooks(batch).map((job) => webhookRow(now, job));
      for (let i = 0; i < rows.length; i += PG_CHUNK) await tx.insert(tx.tables.outbox).values(rows.slice(i, i + PG_CHUNK));
    },
  },
);
