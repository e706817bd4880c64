/**
 * The one HTTP client for webhook targets (validation, deliveries, test sends). It connects to the
 * address resolveTarget checked, never follows redirects, stops after config.webhookTimeoutMs and
 * reads at most RESPONSE_CAP bytes of the answer.
 */
import http from "node:http";
import https from "node:https";
import type { Deps } from "../deps";
import { bareHost, parseTargetUrl, resolveTarget, TargetError } from "./ssrf";

/** Bytes of a target's response body that are read (kept for the delivery log); the rest is dropped. */
export const RESPONSE_CAP = 4096;

const USER_AGENT = "LinkBot-Webhooks/1.0";

export interface TargetRequest {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export interface TargetResponse {
  status: number;
  /** the first RESPONSE_CAP bytes of the body, as text */
  body: string;
}

/**
 * Sends one request to a webhook target. Resolves with any HTTP status (3xx included: redirects are
 * not followed); rejects with a TargetError when the URL is unusable, the address is refused, the
 * target cannot be reached or does not answer in time.
 */
export async function requestTarget(deps: Pick<Deps, "config">, req: TargetRequest): Promise<TargetResponse> {
  const u = parseTargetUrl(req.url);
  const timeoutMs = deps.config.webhookTimeoutMs;
  // a deadline, not a wall time: measured on the monotonic clock
  const deadline = performance.now() + timeoutMs;
  const timedOut = () => new TargetError("timeout", `did not answer within ${timeoutMs / 1000} s`);
  // name resolution counts toward the timeout too
  let dnsTimer: ReturnType<typeof setTimeout> | undefined;
  const pinned = await Promise.race([
    resolveTarget(u, deps.config.webhookAllowPrivate),
    new Promise<never>((_, reject) => (dnsTimer = setTimeout(() => reject(timedOut()), timeoutMs))),
  ]).finally(() => clearTimeout(dnsTimer));
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  return new Promise((resolve, reject) => {
    const mod = u.protocol === "https:" ? https : http;
    const r = mod.request({
      protocol: u.protocol,
      hostname: bareHost(u),
      port: u.port || undefined,
      path: u.pathname + u.search,
      method: req.method,
      agent: false,
      headers: { "user-agent": USER_AGENT, ...req.headers, ...(body ? { "content-length": String(body.length) } : {}) },
      // connect to the address that was checked, not to whatever a second DNS answer says
      lookup: (_host: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) =>
        opts?.all ? cb(null, [pinned]) : cb(null, pinned.address, pinned.family),
    } as http.RequestOptions);
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(
      () => {
        const err = timedOut();
        finish(() => reject(err));
        r.destroy(err);
      },
      Math.max(0, deadline - performance.now()),
    );
    r.on("response", (res) => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const done = () => finish(() => resolve({ status: res.statusCode ?? 0, body: new TextDecoder().decode(Buffer.concat(chunks)) }));
      res.on("data", (chunk: Buffer) => {
        if (size < RESPONSE_CAP) chunks.push(new Uint8Array(chunk.subarray(0, RESPONSE_CAP - size)));
        size += chunk.length;
        if (size >= RESPONSE_CAP) {
          done();
          res.destroy();
        }
      });
      res.on("end", done);
      res.on("close", done);
      res.on("error", done);
    });
    r.on("error", (e) =>
      finish(() =>
        reject(
          e instanceof TargetError
            ? e
            : new TargetError("network", `could not be reached (${(e as NodeJS.ErrnoException).code ?? e.message})`),
        ),
      ),
    );
    r.end(body);
  });
}
