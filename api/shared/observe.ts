/**
 * Every request's id, metrics and log line, in one place: an id from X-Request-Id when the proxy in
 * front sent a sane one, else a new one; the id is returned as X-Request-Id and carried by every log
 * line written while the request is handled (core/request-context.ts). Each answer is counted by
 * route class and status, timed, and logged as one line (at debug for short-link visits, probes
 * and /metrics).
 */
import { Elysia } from "elysia";
import { randomUUID } from "node:crypto";
import type { BunRequest, Server } from "bun";
import type { Deps } from "../../core/deps";
import { routeClassOf } from "../../core/metrics";
import { requestContext } from "../../core/request-context";
import { requestUrl } from "./request-url";

const REQUEST_ID_HEADER = "x-request-id";

/** An incoming id is kept only when it is short and plain (it goes into every log line). */
const SANE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * A redirect's new id: this process's random prefix and a counter (unique per process, as a UUID is,
 * at a fraction of its cost: the redirect path answers tens of thousands a second).
 */
const ID_PREFIX = randomUUID().slice(0, 8);
let idCounter = 0;
const redirectId = () => `${ID_PREFIX}-${(++idCounter).toString(36)}`;

function requestIdOf(request: Request): string {
  const given = request.headers.get(REQUEST_ID_HEADER);
  return given && SANE_ID.test(given) ? given : randomUUID();
}

type Observed = { id: string; start: number; status?: number };
const observed = new WeakMap<Request, Observed>();

/** The status an error was answered with (the error handler's Response is not what Elysia hands on). */
export function noteErrorStatus(request: Request, status: number): void {
  const o = observed.get(request);
  if (o) o.status = status;
}

/** Records an answered request: counted, timed, and one log line. */
function answered(deps: Pick<Deps, "metrics" | "log">, request: Request, status: number, o: Observed) {
  const path = requestUrl(request).pathname;
  const cls = routeClassOf(path);
  const seconds = (performance.now() - o.start) / 1000;
  deps.metrics.requests.inc({ class: cls, status: String(status) });
  deps.metrics.latency.observe({ class: cls }, seconds);
  if (cls === "visitor" && status >= 301 && status <= 308) deps.metrics.redirects.inc();
  const line = { method: request.method, path, status, ms: Math.round(seconds * 10_000) / 10 };
  // redirects (tens of thousands a second: a line each would cost more than the redirect; the
  // metrics count them), probes and scrapes at debug; everything else at info
  if (cls === "visitor" || cls === "probe" || cls === "metrics") deps.log.debug("request", line);
  else deps.log.info("request", line);
}

/** The Elysia side: ids, metrics and the request line for every route Elysia answers. Used first. */
export function observePlugin(deps: Pick<Deps, "metrics" | "log">) {
  return new Elysia({ name: "observe" })
    .onRequest(({ request, set }) => {
      const o = { id: requestIdOf(request), start: performance.now() };
      observed.set(request, o);
      set.headers[REQUEST_ID_HEADER] = o.id;
      // the rest of this request's handling (its awaits included) runs with its id
      requestContext.enterWith({ requestId: o.id });
    })
    .onAfterResponse({ as: "global" }, ({ request, set, responseValue }) => {
      const o = observed.get(request);
      if (!o) return;
      const status =
        o.status ?? (responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200);
      requestContext.run({ requestId: o.id }, () => answered(deps, request, status, o));
    });
}

/** A native route's handler: it answers with `requestId` as X-Request-Id (observeNative makes the id). */
export type NativeHandler = (request: BunRequest<string>, server: Server<unknown>, requestId: string) => Response | Promise<Response>;

/**
 * The same for a route Bun answers itself (the short-link redirect), around its handler, which
 * answers with the id it is given (setting it here, on the Response made, would cost a Headers
 * object per redirect). A request the handler passes on to Elysia is observed there, once. This
 * runs on every redirect, so it allocates little besides the id and the context's store, its tally
 * is plain numbers (deps.metrics.visitorAnswered), and the route class is known without parsing
 * the URL.
 */
export function observeNative(
  deps: Pick<Deps, "metrics" | "log">,
  handler: NativeHandler,
): (request: BunRequest<string>, server: Server<unknown>) => Response | Promise<Response> {
  const tally = deps.metrics.visitorAnswered;
  const finish = (request: Request, res: Response, start: number) => {
    if (!observed.has(request)) tally(res.status, (performance.now() - start) / 1000);
    return res;
  };
  /** the handler's answer, within the request's context (a redirect read from the database awaits in it) */
  const answer = (request: BunRequest<string>, server: Server<unknown>, id: string, start: number) => {
    const res = handler(request, server, id);
    return res instanceof Promise ? res.then((r) => finish(request, r, start)) : finish(request, res, start);
  };
  return (request, server) => {
    // a redirect's id is the node's own: reading the proxy's header cost another ~1.7 µs a redirect
    const id = redirectId();
    return requestContext.run({ requestId: id }, answer, request, server, id, performance.now());
  };
}
