import type { Deps } from "../deps";
import type { OutboxRow } from "../delivery/outbox";
import type { Outcome } from "../delivery/send-row";
import { sendWebhook } from "./send";
import { TargetError } from "./ssrf";

/**
 * One attempt at a queued webhook row (signed, address-checked, redirects not followed): 2xx is
 * done; anything else an error, permanent when the target address is invalid. The delivery worker
 * is handed this by the composition root.
 */
export async function attemptWebhook(deps: Deps, row: OutboxRow): Promise<Outcome> {
  try {
    const res = await sendWebhook(deps, {
      deliveryId: row.deliveryId,
      userId: row.userId,
      url: row.target,
      method: row.method === "GET" ? "GET" : "POST",
      data: row.payload,
    });
    if (res.status >= 200 && res.status < 300) return { type: "done", note: `HTTP ${res.status}` };
    const hint = res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : "";
    return { type: "error", error: `HTTP ${res.status}${hint}: ${res.body.slice(0, 200)}` };
  } catch (e) {
    if (e instanceof TargetError) return { type: "error", error: `${e.kind}: ${e.message}`, permanent: e.kind === "invalid" };
    throw e;
  }
}
