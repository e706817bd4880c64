import { Elysia } from "elysia";
import { timingSafeEqual } from "node:crypto";
import type { Deps } from "../../core/deps";
import { errorResponse } from "../shared/errors";
import type { Peer } from "../shared/client-ip";

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Whether a scrape may read the metrics: with METRICS_TOKEN, a request that sends it as a bearer
 * token (from anywhere); without it, a request from this machine's loopback address that did not
 * come through a proxy (a proxy on the same machine connects from loopback too, but says whom it
 * forwards), so a public load balancer never serves the node's figures.
 */
function allowed(request: Request, server: Peer, token: string | null): "ok" | 401 | 403 {
  if (token) {
    const sent = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
    const a = Buffer.from(sent);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b) ? "ok" : 401;
  }
  const peer = server?.requestIP(request)?.address ?? "";
  const proxied = request.headers.has("x-forwarded-for") || request.headers.has("forwarded");
  return LOOPBACK.test(peer) && !proxied ? "ok" : 403;
}

/** GET /metrics: the node's metrics in Prometheus text format (core/metrics.ts). */
export function metricsApi(deps: Pick<Deps, "metrics" | "config">) {
  return new Elysia({ name: "metrics" }).get(
    "/metrics",
    async ({ request, server }) => {
      const verdict = allowed(request, server, deps.config.metricsToken);
      if (verdict === 401)
        return errorResponse(401, "unauthorized", "Send the METRICS_TOKEN as a bearer token", undefined, { "www-authenticate": "Bearer" });
      if (verdict === 403)
        return errorResponse(403, "forbidden", "Metrics are answered on the loopback address only unless METRICS_TOKEN is set");
      const body = await deps.metrics.registry.metrics();
      return new Response(body, { headers: { "content-type": deps.metrics.registry.contentType } });
    },
    { detail: { summary: "Prometheus metrics of this node (METRICS_TOKEN as a bearer token, or from loopback when unset)" } },
  );
}
