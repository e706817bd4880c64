import type { Deps } from "../deps";
import { FieldError } from "../errors";

/** How long a webhook target has to answer a validation request. */
export const WEBHOOK_TIMEOUT_MS = 5000;

/**
 * Sends a validation request to a webhook target before it is saved; the target is valid when it
 * answers 200 or 201. Throws a 400 FieldError on `field` with the reason otherwise.
 */
export async function validateWebhookTarget(
  deps: Pick<Deps, "config" | "clock" | "log">,
  url: string,
  method: "GET" | "POST" = "POST",
  field = "webhook_url",
): Promise<void> {
  const body = { event: "validation", sent_at: deps.clock.now().toISOString() };
  let res: Response;
  try {
    const target = new URL(url);
    if (method === "GET") for (const [k, v] of Object.entries(body)) target.searchParams.set(k, v);
    res = await fetch(target, {
      method,
      headers: method === "POST" ? { "content-type": "application/json" } : {},
      body: method === "POST" ? JSON.stringify(body) : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await res.body?.cancel();
  } catch (e) {
    const reason = (e as Error).name === "TimeoutError" ? `did not answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : `could not be reached (${(e as Error).message})`;
    throw new FieldError(field, `validation request failed: the target ${reason}`);
  }
  if (res.status !== 200 && res.status !== 201)
    throw new FieldError(field, `validation request failed: the target answered ${res.status}; it must answer 200 or 201`);
}
