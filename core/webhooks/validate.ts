import type { Deps } from "../deps";
import { FieldError } from "../errors";
import { requestTarget } from "./http";
import { toQueryParams } from "./payload";
import { TargetError } from "./ssrf";

/**
 * Sends a validation request to a webhook target before it is saved; the target is valid when it
 * answers 200 or 201. Throws a 400 FieldError on `field` with the reason otherwise: a malformed URL,
 * a refused (internal) address, no answer within the timeout, an unreachable host, or the status seen.
 * POST sends `{"event":"validation","sent_at":"<ISO>"}`; GET sends the same as query parameters.
 */
export async function validateWebhookTarget(
  deps: Pick<Deps, "config" | "clock" | "log">,
  url: string,
  method: "GET" | "POST" = "POST",
  field = "webhook_url",
): Promise<void> {
  const data = { event: "validation", sent_at: deps.clock.now().toISOString() };
  let status: number;
  try {
    let target = url;
    if (method === "GET") {
      const u = new URL(url);
      for (const [k, v] of toQueryParams(data)) u.searchParams.append(k, v);
      target = u.toString();
    }
    const res = await requestTarget(deps, {
      url: target,
      method,
      headers:
        method === "POST" ? { "content-type": "application/json", "x-webhook-event": "validation" } : { "x-webhook-event": "validation" },
      body: method === "POST" ? JSON.stringify(data) : undefined,
    });
    status = res.status;
  } catch (e) {
    if (!(e instanceof TargetError)) {
      if (e instanceof TypeError) throw new FieldError(field, "must be an absolute http(s) URL");
      throw e;
    }
    if (e.kind === "invalid") throw new FieldError(field, e.message);
    if (e.kind === "refused") throw new FieldError(field, `target refused: ${e.message}`);
    deps.log.debug(`webhook validation of ${url} failed: ${e.message}`);
    throw new FieldError(field, `validation request failed: the target ${e.message}`);
  }
  if (status === 200 || status === 201) return;
  const hint = status >= 300 && status < 400 ? " (redirects are not followed)" : "";
  throw new FieldError(field, `validation request failed: the target answered ${status}${hint}; it must answer 200 or 201`);
}
