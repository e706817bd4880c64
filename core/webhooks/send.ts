import type { Deps } from "../deps";
import { requestTarget, type TargetResponse } from "./http";
import { toQueryParams } from "./payload";
import { deliveryHeaders, getSigningSecret } from "./signing";

export interface WebhookDelivery {
  deliveryId: string;
  /** the owner whose signing secret signs it; null sends it unsigned */
  userId: number | null;
  url: string;
  method: "GET" | "POST";
  /** POST: the JSON body; GET: flattened into query parameters (see toQueryParams) */
  data: Record<string, unknown>;
}

/**
 * Sends one signed attempt of a webhook delivery: POST with `data` as the JSON body, or GET with it
 * as query parameters appended to the URL. Resolves with the target's answer; rejects with a
 * TargetError when the target is refused, unreachable or too slow.
 */
export async function sendWebhook(deps: Pick<Deps, "asyncDb" | "clock" | "config">, d: WebhookDelivery): Promise<TargetResponse> {
  const now = deps.clock.now();
  const secret = d.userId ? (await getSigningSecret(deps, d.userId)).secret : null;
  const event = typeof d.data.event === "string" ? d.data.event : "message";
  let url = d.url;
  let body: string | undefined;
  let payload: string;
  if (d.method === "GET") {
    const u = new URL(d.url);
    for (const [k, v] of toQueryParams(d.data)) u.searchParams.append(k, v);
    url = u.toString();
    payload = u.search.slice(1);
  } else payload = body = JSON.stringify(d.data);
  const headers = deliveryHeaders({ deliveryId: d.deliveryId, event, now, secret, payload });
  if (body !== undefined) headers["content-type"] = "application/json";
  return requestTarget(deps, { url, method: d.method, headers, body });
}
