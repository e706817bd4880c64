import { Elysia } from "elysia";
import { timingSafeEqual } from "node:crypto";
import type { Deps } from "../../core/deps";
import { errorResponse } from "../shared/errors";
import type { Peer } from "../shared/client-ip";

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Host names that reach only this machine: what a local scraper puts in `Host`. */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * Headers a proxy, balancer or CDN adds on the way: any of them means the request came from
 * elsewhere, whatever address the connection has.
 */
const PROXY_HEADERS = [
  "forwarded",
  "via",
  "x-real-ip",
  "x-client-ip",
  "client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "fly-client-ip",
  "x-cluster-client-ip",
  "x-original-forwarded-for",
  "x-envoy-external-address",
];

/** Whether a request carries any header a proxy would add (every `X-Forwarded-*` among them). */
function proxied(request: Request): boolean {
  if (PROXY_HEADERS.some((h) => request.headers.has(h))) return true;
  for (const name of request.headers.keys()) if (name.startsWith("x-forwarded-")) return true;
  return false;
}

/**
 * Whether a scrape may read the metrics: with METRICS_TOKEN, a request that sends it as a bearer
 * token (from anywhere); without it, a request from this machine's loopback address, addressed to a
 * loopback host name, that carries no header a proxy adds (a proxy on the same machine connects from
 * loopback too, but says whom it forwards; a TCP or TLS tunnel adds no header but passes on the
 * public host name), so a public load balancer or tunnel never serves the node's figures.
 */
function allowed(request: Request, server: Peer, token: string | null): "ok" | 401 | 403 {
  if (token) {
    const sent = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
    const a = Buffer.from(sent);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b) ? "ok" : 401;
  }
  const peer = server?.requestIP(request)?.address ?? "";
  const host = request.headers.get("host") ?? "";
  return LOOPBACK.test(peer) && LOOPBACK_HOST.test(host) && !proxied(request) ? "ok" : 403;
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
        return errorResponse(
          403,
          "forbidden",
          "Metrics are answered only to a direct request on the loopback address unless METRICS_TOKEN is set",
        );
      const body = await deps.metrics.registry.metrics();
      return new Response(body, { headers: { "content-type": deps.metrics.registry.contentType } });
    },
    { detail: { summary: "Prometheus metrics of this node (METRICS_TOKEN as a bearer token, or from loopback when unset)" } },
  );
}
