import { rowsInto, type ListenerRows, type StoredClick } from "../clicks/listeners";
import { webhookRow } from "../delivery/outbox";
import { CLICK_FANOUT_TOPIC } from "./queue";

/** The outbox's concurrency key for click fan-outs (they call no host). */
const FANOUT_HOST = "postbacks";

/**
 * A click listener: each human click on a link whose owner has click postbacks (`click_postbacks`,
 * read with the batch's links) queues one fan-out row in the batch's transaction; the delivery
 * worker turns it into the postbacks' deliveries (send.ts fanOutClick). Links without click
 * postbacks add nothing, and the redirect never waits for any of it.
 */
export function clickPostbackHook(batch: readonly StoredClick[], now: Date): ListenerRows[] {
  const rows = [];
  for (const { click, link } of batch) {
    if (!link.clickPostbacks || click.isBot || !click.clickId) continue;
    rows.push({
      ...webhookRow(now, {
        userId: link.userId,
        topic: CLICK_FANOUT_TOPIC,
        refId: link.id,
        url: FANOUT_HOST,
        data: { click_id: click.clickId, link_id: link.id, code: link.code, clicked_at: click.clickedAt.toISOString() },
      }),
      host: FANOUT_HOST,
    });
  }
  return rows.length ? [rowsInto("outbox", rows)] : [];
}
