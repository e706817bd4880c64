import { and, eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import type { Deps } from "../deps";
import { FieldError, NotFound } from "../errors";
import { first, type Tables } from "../../db/async";
import { testEvent } from "./payload";
import { sendWebhook } from "./send";
import { TargetError, type TargetFailure } from "./ssrf";

/** A link's click webhook as the owner sees it. */
export interface LinkWebhookState {
  linkId: number;
  code: string;
  url: string | null;
  method: "GET" | "POST";
  enabled: boolean;
  failures: number;
}

type LinkRow = Tables["links"]["$inferSelect"];

async function ownLink(deps: Pick<Deps, "asyncDb">, userId: number, linkId: number): Promise<LinkRow> {
  const { links } = deps.asyncDb.tables;
  const link = first(
    await deps.asyncDb
      .select()
      .from(links)
      .where(and(eq(links.id, linkId), eq(links.userId, userId))),
  );
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
export async function getLinkWebhook(deps: Pick<Deps, "asyncDb">, userId: number, linkId: number): Promise<LinkWebhookState> {
  return stateOf(await ownLink(deps, userId, linkId));
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
export async function setLinkWebhookEnabled(
  deps: Pick<Deps, "asyncDb" | "clock">,
  userId: number,
  linkId: number,
  enabled: boolean,
): Promise<LinkWebhookState> {
  const link = await ownLink(deps, userId, linkId);
  if (enabled && !link.webhookUrl) throw new FieldError("webhook_enabled", "the link has no webhook_url; set one first");
  const { links } = deps.asyncDb.tables;
  const updated = first(
    await deps.asyncDb
      .update(links)
      .set({ ...webhookEnableColumns(enabled), updatedAt: deps.clock.now() })
      .where(and(eq(links.id, link.id), eq(links.userId, userId)))
      .returning(),
  );
  if (!updated) throw new NotFound("Link");
  return stateOf(updated);
}

export interface TestDeliveryResult {
  ok: boolean;
  /** the target's HTTP status, when it answered */
  status?: number;
  /** why it failed, in words (English) */
  error?: string;
  /** why it failed, for a reader to word: `status` (see status), `timeout`, `network`, `refused` (an internal address), `invalid` */
  kind?: TargetFailure;
  deliveryId: string;
}

/**
 * Sends one signed test event (`event: "test"`, a sample click) to the link's webhook right away,
 * without retries and without touching the failure count, and reports what the target answered.
 */
export async function sendTestDelivery(deps: Deps, userId: number, linkId: number): Promise<TestDeliveryResult> {
  const link = await ownLink(deps, userId, linkId);
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
    return { ok, status: res.status, deliveryId, ...(ok ? {} : { error: `the target answered ${res.status}`, kind: "status" as const }) };
  } catch (e) {
    if (e instanceof TargetError) return { ok: false, error: `the target ${e.message}`, kind: e.kind, deliveryId };
    throw e;
  }
}
