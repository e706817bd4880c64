import { and, eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Deps } from "../deps";
import { FieldError, NotFound } from "../errors";
import { links, type LinkRow } from "../../db/schema";
import { testEvent } from "./payload";
import { sendWebhook } from "./send";
import { TargetError } from "./ssrf";

/** A link's click webhook as the owner sees it. */
export interface LinkWebhookState {
  linkId: number;
  code: string;
  url: string | null;
  method: "GET" | "POST";
  enabled: boolean;
  failures: number;
}

function ownLink(deps: Pick<Deps, "db">, userId: number, linkId: number): LinkRow {
  const link = deps.db.select().from(links).where(and(eq(links.id, linkId), eq(links.userId, userId))).get();
  if (!link) throw new NotFound("Link");
  return link;
}

const stateOf = (l: LinkRow): LinkWebhookState => ({
  linkId: l.id,
  code: l.code,
  url: l.webhookUrl,
  method: l.webhookMethod,
  enabled: l.webhookEnabled,
  failures: l.webhookFailures,
});

/** The webhook state of the user's link (404 for another user's link). */
export function getLinkWebhook(deps: Pick<Deps, "db">, userId: number, linkId: number): LinkWebhookState {
  return stateOf(ownLink(deps, userId, linkId));
}

/**
 * The `webhook_*` columns an edit sets when it switches the webhook on: enabling always resets the
 * failure count to 0 (CONTRACT §4). Links' PATCH spreads this into its update when
 * `webhook_enabled: true` is given.
 */
export function webhookEnableColumns(enabled: boolean): Partial<Pick<LinkRow, "webhookEnabled" | "webhookFailures">> {
  return enabled ? { webhookEnabled: true, webhookFailures: 0 } : { webhookEnabled: false };
}

/**
 * Turns the user's link webhook on or off. Turning it on needs a webhook URL and resets the failure
 * count; turning it off cancels deliveries still queued (they are skipped at send time).
 */
export function setLinkWebhookEnabled(deps: Pick<Deps, "db" | "clock">, userId: number, linkId: number, enabled: boolean): LinkWebhookState {
  const link = ownLink(deps, userId, linkId);
  if (enabled && !link.webhookUrl) throw new FieldError("webhook_enabled", "the link has no webhook_url; set one first");
  const updated = deps.db
    .update(links)
    .set({ ...webhookEnableColumns(enabled), updatedAt: deps.clock.now() })
    .where(eq(links.id, link.id))
    .returning()
    .get();
  return stateOf(updated);
}

export interface TestDeliveryResult {
  ok: boolean;
  /** the target's HTTP status, when it answered */
  status?: number;
  /** why it failed */
  error?: string;
  deliveryId: string;
}

/**
 * Sends one signed test event (`event: "test"`, a sample click) to the link's webhook right away,
 * without retries and without touching the failure count, and reports what the target answered.
 */
export async function sendTestDelivery(deps: Deps, userId: number, linkId: number): Promise<TestDeliveryResult> {
  const link = ownLink(deps, userId, linkId);
  if (!link.webhookUrl) throw new FieldError("webhook_url", "the link has no webhook_url");
  const deliveryId = randomUUID();
  try {
    const res = await sendWebhook(deps, {
      deliveryId,
      userId,
      url: link.webhookUrl,
      method: link.webhookMethod,
      data: testEvent(link, deps.clock.now()) as unknown as Record<string, unknown>,
    });
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, deliveryId, ...(ok ? {} : { error: `the target answered ${res.status}` }) };
  } catch (e) {
    if (e instanceof TargetError) return { ok: false, error: `the target ${e.message}`, deliveryId };
    throw e;
  }
}
