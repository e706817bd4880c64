import type { ClickListener } from "../clicks/listeners";
import { enqueueWebhook } from "../delivery/outbox";
import { clickEvent } from "./payload";

/**
 * Queues one webhook delivery per recorded click on a link whose webhook is enabled, in the
 * transaction that records the clicks (so a click and its delivery commit together). The visitor's
 * redirect never waits for it: the delivery worker sends it.
 */
export const clickWebhookHook: ClickListener = (tx, deps, batch) => {
  const now = deps.clock.now();
  for (const { click, link } of batch) {
    if (!link.webhookEnabled || !link.webhookUrl) continue;
    enqueueWebhook(tx, now, {
      userId: link.userId,
      topic: "click_webhook",
      refId: link.id,
      url: link.webhookUrl,
      method: link.webhookMethod,
      data: clickEvent(link, click) as unknown as Record<string, unknown>,
    });
  }
};
