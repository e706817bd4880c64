import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { createVisitHandler, type VisitOutcome, type VisitRequest } from "../../core/redirect/visit";
import { RESERVED_CODES, SHORT_CODE } from "../../core/links/codes";
import { memoize } from "../../core/memo";
import type { Logger } from "../../core/log";
import { errorResponseOf } from "../shared/errors";
import type { NativeHandler } from "../shared/observe";
import { clientAddress, type Peer } from "../shared/client-ip";
import { countdownPage, expiredPage, lockedPage, notFoundPage, passwordPage, pixelPage } from "./pages";
import { VisitorModel } from "./model";
import { pageHeaders } from "../shared/page-headers";
import type { PixelType } from "../../core/catalog/pixels";
import { pageLanguage } from "../../core/i18n/language";

const NO_STORE = { "cache-control": "no-store", "x-robots-tag": "noindex" };
/** The request's id on the listening server's answers (api/shared/observe.ts makes it). */
const REQUEST_ID = "x-request-id";
/** The pages speak the visitor's Accept-Language, so caches keep one copy per language. */
const PAGE = { ...pageHeaders("page"), vary: "accept-language" };
const html = (status: number, body: string, extra: Record<string, string> = PAGE, requestId?: string) =>
  new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      ...NO_STORE,
      ...extra,
      ...(requestId === undefined ? {} : { [REQUEST_ID]: requestId }),
    },
  });
/** The pixel page's headers allow the hosts of exactly the networks it fires. */
const pixelHeaders = memoize(
  (types: string) => ({ ...pageHeaders("pixel", { pixels: types.split(",") as PixelType[] }), vary: "accept-language" }),
  64,
);

/** A Headers object per destination: Response copies it far faster than it converts a plain object. */
const redirectHeaders = memoize((location: string) => new Headers({ location, ...NO_STORE }), 5000);
/**
 * The same with a slot for the request's id, set just before Response copies the object (nothing
 * runs in between, so no answer sees another's id). Setting the id on the Response made instead
 * costs a Headers object per redirect, and the collector's work to finalise it.
 */
const redirectHeadersWithId = memoize((location: string) => new Headers({ location, ...NO_STORE, [REQUEST_ID]: "" }), 5000);

/**
 * For a Location no other visit gets (a target with the click's id): one Headers object each, with
 * or without the id, whose location (and id) are set just before Response copies it, as with the id
 * above; converting a plain object into Headers for every such answer cost more.
 */
const onceHeaders = new Headers({ location: "", ...NO_STORE });
const onceHeadersWithId = new Headers({ location: "", ...NO_STORE, [REQUEST_ID]: "" });

/** A redirect; `once` for a Location no other visit gets (a target with the click's id), kept out of the memos. */
function redirect(location: string, requestId: string | undefined, once = false): Response {
  if (once) {
    const headers = requestId === undefined ? onceHeaders : onceHeadersWithId;
    headers.set("location", location);
    if (requestId !== undefined) headers.set(REQUEST_ID, requestId);
    return new Response(null, { status: 302, headers });
  }
  if (requestId === undefined) return new Response(null, { status: 302, headers: redirectHeaders(location) });
  const headers = redirectHeadersWithId(location);
  headers.set(REQUEST_ID, requestId);
  return new Response(null, { status: 302, headers });
}

/**
 * Turns a visit outcome into the page or redirect CONTRACT §4 prescribes, with the request's id when
 * given; a page is in the request's Accept-Language (read only for pages, never for a redirect).
 */
function respond(o: VisitOutcome, request: Request, requestId: string | undefined): Response {
  if (o.kind === "redirect" && !o.pixels.length) return redirect(o.target, requestId, o.clickId !== undefined);
  const lang = pageLanguage(request.headers.get("accept-language"));
  switch (o.kind) {
    case "redirect":
      return html(
        200,
        pixelPage(lang, o.title, o.target, o.pixels),
        pixelHeaders([...new Set(o.pixels.map((p) => p.type))].sort().join(",")),
        requestId,
      );
    case "not_found":
      return html(404, notFoundPage(lang), PAGE, requestId);
    case "expired":
      return o.expiredUrl ? redirect(o.expiredUrl, requestId) : html(410, expiredPage(lang, o.title), PAGE, requestId);
    case "countdown":
      return html(200, countdownPage(lang, o.title, o.startsAt, o.now), PAGE, requestId);
    case "password":
      return html(o.wrong ? 401 : 200, passwordPage(lang, o.title, o.wrong), PAGE, requestId);
    case "locked":
      return html(429, lockedPage(lang, o.title, o.retryAfterSeconds), { ...PAGE, "retry-after": String(o.retryAfterSeconds) }, requestId);
  }
}

/** The query string of a request URL, without `?` ('' when none). */
function queryOf(url: string): string {
  const i = url.indexOf("?");
  return i < 0 ? "" : url.slice(i + 1);
}

/**
 * What the visit handler reads of a request: the headers every visit needs, read once; a rule's
 * language and query on demand, through methods rather than closures made for every visit.
 */
class RequestVisit implements VisitRequest {
  readonly host: string | null;
  readonly userAgent: string | null;
  readonly referer: string | null;
  constructor(
    private readonly request: Request,
    readonly code: string,
    readonly method: VisitRequest["method"],
    readonly ip: string | null,
    readonly password: string | undefined,
  ) {
    const headers = request.headers;
    this.host = headers.get("host");
    this.userAgent = headers.get("user-agent");
    this.referer = headers.get("referer");
  }
  acceptLanguage(): string | null {
    return this.request.headers.get("accept-language");
  }
  query(): string {
    return queryOf(this.request.url);
  }
}

/**
 * A visit's answer to the request at hand: a request and where it came from in, a page or redirect
 * out, carrying `requestId` as X-Request-Id when given (the native route's; Elysia adds its own).
 */
export type VisitorResponder = (
  request: Request,
  server: Peer,
  code: string,
  method: VisitRequest["method"],
  password?: string,
  requestId?: string,
) => Response | Promise<Response>;

/**
 * Answers a request to SHORT_URL/<code> through core's visit handler: the one path both the Elysia
 * routes and the listening server's native route take. HEAD gets the GET answer without a body.
 */
export function visitorResponder(deps: Deps): VisitorResponder {
  const visit = createVisitHandler(deps);
  const headOnly = (res: Response) => new Response(null, { status: res.status, headers: res.headers });
  return (request, server, code, method, password, requestId) => {
    const outcome = visit(new RequestVisit(request, code, method, clientAddress(request, server, deps.config.trustProxy), password));
    const res = outcome instanceof Promise ? outcome.then((o) => respond(o, request, requestId)) : respond(outcome, request, requestId);
    if (method !== "HEAD") return res;
    return res instanceof Promise ? res.then(headOnly) : headOnly(res);
  };
}

/**
 * The public side at SHORT_URL/<code>, mounted at the root. It matches one path segment only, so
 * /api/*, /healthz, /s/<code>, /app/* and / stay with their own routes; reserved codes never exist.
 */
export function visitorApi(deps: Deps, answer: VisitorResponder = visitorResponder(deps)) {
  return new Elysia({ name: "visitor" })
    .get(
      "/:code",
      ({ request, server, params }) => answer(request, server, params.code ?? "", request.method === "HEAD" ? "HEAD" : "GET"),
      {
        params: VisitorModel.params,
        detail: { hide: true },
      },
    )
    .head("/:code", ({ request, server, params }) => answer(request, server, params.code ?? "", "HEAD"), {
      params: VisitorModel.params,
      detail: { hide: true },
    })
    .post("/:code", ({ request, server, params, body }) => answer(request, server, params.code ?? "", "POST", body?.password), {
      params: VisitorModel.params,
      body: VisitorModel.password,
      detail: { hide: true },
    });
}

/**
 * Bun-native routes for GET and HEAD /<code>, given to the listening server in front of Elysia: the
 * redirect skips Elysia's request pipeline (global hooks that do nothing for it: the /api rate
 * limit, the body limit), but answers through the same responder, and errors through the same
 * error model, each answer with the request's id. Static routes (/healthz) still win over this one
 * in Bun's router; POST /<code> (the password form) stays with Elysia, and so does every code that
 * is not a short code's shape, odd characters or a reserved word like "api" (Elysia gives those their own id).
 */
export function visitorRoutes(log: Logger, answer: VisitorResponder, fallback: (request: Request) => Response | Promise<Response>) {
  const failed = (request: Request, requestId: string) => (e: unknown) => {
    const res = errorResponseOf(log, "UNKNOWN", e, request);
    res.headers.set(REQUEST_ID, requestId);
    return res;
  };
  const handle: NativeHandler = (request, server, requestId) => {
    const code = request.params.code!;
    if (RESERVED_CODES.has(code) || !SHORT_CODE.test(code)) return fallback(request);
    try {
      const res = answer(request, server, code, request.method === "HEAD" ? "HEAD" : "GET", undefined, requestId);
      return res instanceof Promise ? res.catch(failed(request, requestId)) : res;
    } catch (e) {
      return failed(request, requestId)(e);
    }
  };
  return { "/:code": { GET: handle, HEAD: handle } };
}
