import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { createVisitHandler, type VisitOutcome, type VisitRequest } from "../../core/links/visit";
import { clickRecorderFor, type ClickRecorder } from "../../core/clicks/recorder";
import { countdownPage, expiredPage, lockedPage, notFoundPage, passwordPage, pixelPage } from "./pages";
import { VisitorModel } from "./model";

const NO_STORE = { "cache-control": "no-store", "x-robots-tag": "noindex" };
const html = (status: number, body: string, extra: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...NO_STORE, ...extra } });

/** Turns a visit outcome into the page or redirect CONTRACT §4 prescribes. */
function respond(o: VisitOutcome): Response {
  switch (o.kind) {
    case "redirect":
      return o.pixels.length ? html(200, pixelPage(o.title, o.target, o.pixels)) : new Response(null, { status: 302, headers: { location: o.target, ...NO_STORE } });
    case "not_found":
      return html(404, notFoundPage());
    case "expired":
      return o.expiredUrl ? new Response(null, { status: 302, headers: { location: o.expiredUrl, ...NO_STORE } }) : html(410, expiredPage(o.title));
    case "countdown":
      return html(200, countdownPage(o.title, o.startsAt, o.now));
    case "password":
      return html(o.wrong ? 401 : 200, passwordPage(o.title, o.wrong ? "Wrong password, try again." : null));
    case "locked":
      return html(429, lockedPage(o.title, o.retryAfterSeconds), { "retry-after": String(o.retryAfterSeconds) });
  }
}

const answer = (o: VisitOutcome | Promise<VisitOutcome>) => (o instanceof Promise ? o.then(respond) : respond(o));

/**
 * The public side at SHORT_URL/<code>, mounted at the root. It matches one path segment only, so
 * /api/*, /healthz, /s/<code>, /app/* and / stay with their own routes; reserved codes never exist.
 */
export function visitorApi(deps: Deps, recorder: ClickRecorder = clickRecorderFor(deps)) {
  const visit = createVisitHandler(deps, recorder);
  const ipOf = (request: Request, server: { requestIP(r: Request): { address: string } | null } | null) => {
    if (deps.config.trustProxy) {
      const first = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
      if (first) return first;
    }
    return server?.requestIP(request)?.address ?? null;
  };
  const requestOf = (request: Request, server: any, code: string | null, method: VisitRequest["method"], password?: string): VisitRequest => ({
    code: code ?? "",
    host: request.headers.get("host"),
    method,
    ip: ipOf(request, server),
    userAgent: request.headers.get("user-agent"),
    referer: request.headers.get("referer"),
    password,
  });
  return new Elysia({ name: "visitor" })
    .get("/:code", ({ request, server, params }) =>
      answer(visit(requestOf(request, server, params.code, request.method === "HEAD" ? "HEAD" : "GET"))), {
      params: VisitorModel.params, detail: { hide: true },
    })
    .head("/:code", async ({ request, server, params }) => {
      const res = respond(await visit(requestOf(request, server, params.code, "HEAD")));
      return new Response(null, { status: res.status, headers: res.headers });
    }, { params: VisitorModel.params, detail: { hide: true } })
    .post("/:code", ({ request, server, params, body }) =>
      answer(visit(requestOf(request, server, params.code, "POST", body?.password))), {
      params: VisitorModel.params, body: VisitorModel.password, detail: { hide: true },
    });
}
