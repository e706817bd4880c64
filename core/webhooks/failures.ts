import { startLink } from "../delivery/deep-link";
import { and, eq, gte, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { Tx } from "../../db/transaction";
import { links, users } from "../../db/schema";
import { changes } from "../../db/client";
import { enqueueBotMessage, type OutboxRow } from "../delivery/outbox";

/** After this many deliveries that failed every attempt, a link's webhook is switched off. */
export const WEBHOOK_FAILURE_LIMIT = 100;

/**
 * Counts one failed click delivery (after all its attempts) on the link. When the count reaches
 * WEBHOOK_FAILURE_LIMIT the webhook is disabled and the owner is told in the bot (once).
 * Successful deliveries do not reset the count; re-enabling the webhook does.
 */
export function recordClickWebhookFailure(tx: Tx, deps: Pick<Deps, "clock">, linkId: number): void {
  const now = deps.clock.now();
  tx.update(links).set({ webhookFailures: sql`${links.webhookFailures} + 1` }).where(eq(links.id, linkId)).run();
  const disabled = changes(
    tx.update(links)
      .set({ webhookEnabled: false, updatedAt: now })
      .where(and(eq(links.id, linkId), eq(links.webhookEnabled, true), gte(links.webhookFailures, WEBHOOK_FAILURE_LIMIT)))
      .run(),
  );
  if (!disabled) return;
  const row = tx
    .select({ code: links.code, url: links.webhookUrl, failures: links.webhookFailures, userId: users.id, msgrId: users.msgrId })
    .from(links)
    .innerJoin(users, eq(users.id, links.userId))
    .where(eq(links.id, linkId))
    .get();
  if (!row?.msgrId) return;
  enqueueBotMessage(tx, now, {
    userId: row.userId,
    topic: "webhook_disabled",
    refId: linkId,
    chatId: row.msgrId,
    params: {
      text:
        `⚠️ The click webhook of link /${row.code} was turned off after ${row.failures} failed deliveries.\n` +
        `Target: ${row.url}\nFix the target, then turn the webhook on again (this resets the count).`,
      link_preview_options: { is_disabled: true },
      reply_markup: { inline_keyboard: [[{ text: "Open the link's card", url: startLink(`link_${linkId}`) }]] },
    },
  });
}

/** Delivery rules of click webhooks: skip clicks of links whose webhook was switched off or deleted; count failures. */
export const clickWebhookTopic = {
  stillWanted(deps: Pick<Deps, "db">, row: OutboxRow): boolean {
    if (row.refId == null) return true;
    const link = deps.db.select({ enabled: links.webhookEnabled }).from(links).where(eq(links.id, row.refId)).get();
    return !!link?.enabled;
  },
  onFinalFailure(tx: Tx, deps: Pick<Deps, "clock">, row: OutboxRow): void {
    if (row.refId != null) recordClickWebhookFailure(tx, deps, row.refId);
  },
};
