import { t } from "../i18n/translate";
import { targetButton } from "../deep-link";
import { and, eq, gte, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { AsyncDbOrTx, AsyncTx } from "../../db/async";
import type { OutboxRow } from "../delivery/outbox";
import { queueToWorkspace } from "../team-chat/destinations";

/** After this many deliveries that failed every attempt, a link's webhook is switched off. */
export const WEBHOOK_FAILURE_LIMIT = 100;

/**
 * Counts one failed click delivery (after all its attempts) on the link. When the count reaches
 * WEBHOOK_FAILURE_LIMIT the webhook is disabled and the owner is told in the bot (once: the update
 * that disables it is conditional, so of two nodes counting the hundredth failure at once one tells).
 * Successful deliveries do not reset the count; re-enabling the webhook does.
 */
async function recordClickWebhookFailure(tx: AsyncDbOrTx, deps: Pick<Deps, "clock">, linkId: number): Promise<void> {
  const now = deps.clock.now();
  const { links } = tx.tables;
  await tx
    .update(links)
    .set({ webhookFailures: sql`${links.webhookFailures} + 1` })
    .where(eq(links.id, linkId));
  const disabled = await tx
    .update(links)
    .set({ webhookEnabled: false, updatedAt: now })
    .where(and(eq(links.id, linkId), eq(links.webhookEnabled, true), gte(links.webhookFailures, WEBHOOK_FAILURE_LIMIT)))
    .returning({ id: links.id });
  if (!disabled.length) return;
  const [row] = await tx
    .select({ code: links.code, url: links.webhookUrl, failures: links.webhookFailures, userId: links.userId })
    .from(links)
    .where(eq(links.id, linkId))
    .limit(1);
  if (!row) return;
  // to the workspace's chats: its person, or a team's group (else its owners and admins)
  await queueToWorkspace(tx, now, { userId: row.userId, topic: "webhook_disabled", refId: linkId }, (lang) => ({
    text: t(lang, "webhook-auto-disabled", {
      code: Bun.escapeHTML(row.code),
      failures: row.failures,
      url: Bun.escapeHTML(row.url ?? ""),
    }),
    link_preview_options: { is_disabled: true },
    reply_markup: { inline_keyboard: [[targetButton(t(lang, "webhook-open-card"), { kind: "link", id: linkId })]] },
  }));
}

/** Delivery rules of click webhooks: skip clicks of links whose webhook was switched off or deleted; count failures. */
export const clickWebhookTopic = {
  async stillWanted(deps: Pick<Deps, "asyncDb">, row: OutboxRow): Promise<boolean> {
    if (row.refId == null) return true;
    const { links } = deps.asyncDb.tables;
    const [link] = await deps.asyncDb.select({ enabled: links.webhookEnabled }).from(links).where(eq(links.id, row.refId)).limit(1);
    return !!link?.enabled;
  },
  async onFinalFailure(tx: AsyncTx, deps: Pick<Deps, "clock">, row: OutboxRow): Promise<void> {
    if (row.refId != null) await recordClickWebhookFailure(tx, deps, row.refId);
  },
};
