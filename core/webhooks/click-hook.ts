import { rowsInto, type ListenerRows, type StoredClick } from "../clicks/listeners";
import { webhookRow, type WebhookJob } from "../delivery/outbox";
import { clickEvent } from "./payload";

/** The webhook deliveries of a stored batch: one per click on a link whose webhook is enabled. */
function clickWebhooks(batch: readonly StoredClick[]): WebhookJob[] {
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

/**
 * Queues one webhook delivery per recorded click on a link whose webhook is enabled: outbox rows
 * written in the transaction that records the clicks (so a click and its delivery commit together).
 * The visitor's redirect never waits for it: the delivery worker sends it.
 */
export function clickWebhookHook(batch: readonly StoredClick[], now: Date): ListenerRows[] {
  const rows = clickWebhooks(batch).map((job) => webhookRow(now, job));
  return rows.length ? [rowsInto("outbox", rows)] : [];
}
