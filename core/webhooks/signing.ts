/**
 * Per-user signing secrets and the signature headers of outgoing webhooks.
 *
 *   X-Webhook-Id:        the delivery id (the same on every retry; receivers de-duplicate by it)
 *   X-Webhook-Timestamp: unix seconds of this attempt
 *   X-Webhook-Signature: t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<id>.<timestamp>.<payload>")>
 *
 * where <id> is the X-Webhook-Id (signed, so a replay cannot pass as a new delivery under a fresh
 * id) and <payload> is the exact request body (POST) or the exact query string after "?" (GET).
 */
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { first } from "../../db/async";
import { randomSecret } from "../random";

export interface SigningSecret {
  secret: string;
  createdAt: Date;
  rotatedAt: Date | null;
}

const newSecret = () => `whsec_${randomSecret(32)}`;

/** The user's signing secret, created on first use. */
export async function getSigningSecret(deps: Pick<Deps, "asyncDb" | "clock">, userId: number): Promise<SigningSecret> {
  const { webhookSecrets } = deps.asyncDb.tables;
  const read = async () => first(await deps.asyncDb.select().from(webhookSecrets).where(eq(webhookSecrets.userId, userId)));
  let row = await read();
  if (!row) {
    // two first uses at once (two nodes, or a delivery and the bot): the first insert wins, both read it
    await deps.asyncDb.insert(webhookSecrets).values({ userId, secret: newSecret(), createdAt: deps.clock.now() }).onConflictDoNothing();
    row = (await read())!;
  }
  return { secret: row.secret, createdAt: row.createdAt, rotatedAt: row.rotatedAt };
}

/** Replaces the user's signing secret; deliveries sent from now on (retries included) use the new one. */
export async function rotateSigningSecret(deps: Pick<Deps, "asyncDb" | "clock">, userId: number): Promise<SigningSecret> {
  const now = deps.clock.now();
  const secret = newSecret();
  const { webhookSecrets } = deps.asyncDb.tables;
  await deps.asyncDb
    .insert(webhookSecrets)
    .values({ userId, secret, createdAt: now, rotatedAt: now })
    .onConflictDoUpdate({ target: webhookSecrets.userId, set: { secret, rotatedAt: now } });
  return getSigningSecret(deps, userId);
}

/** Hex HMAC-SHA256 of "<deliveryId>.<timestamp>.<payload>". */
function computeSignature(secret: string, deliveryId: string, timestamp: number, payload: string): string {
  return createHmac("sha256", secret).update(`${deliveryId}.${timestamp}.${payload}`).digest("hex");
}

/** The headers identifying and (when a secret is given) signing one delivery attempt. */
export function deliveryHeaders(opts: {
  deliveryId: string;
  event: string;
  now: Date;
  secret: string | null;
  payload: string;
}): Record<string, string> {
  const t = Math.floor(opts.now.getTime() / 1000);
  const headers: Record<string, string> = {
    "x-webhook-id": opts.deliveryId,
    "x-webhook-event": opts.event,
    "x-webhook-timestamp": String(t),
  };
  if (opts.secret) headers["x-webhook-signature"] = `t=${t},v1=${computeSignature(opts.secret, opts.deliveryId, t, opts.payload)}`;
  return headers;
}
