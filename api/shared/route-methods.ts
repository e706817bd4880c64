import { Elysia, NotFoundError } from "elysia";
import { AppError } from "../../core/errors";
import { requestUrl } from "./request-url";

/** The methods a path is served with (none: the path is unknown). */
export type AllowedMethods = (pathname: string) => string[];

interface RouteLike {
  method: string;
  path: string;
}

interface Compiled {
  count: number;
  /** every /api route as a pattern (`:param` matches one segment) */
  patterns: { re: RegExp; method: string }[];
  /** the routes without a parameter, by path without its trailing slash */
  fixed: Map<string, Set<string>>;
}

function compile(all: readonly RouteLike[]): Compiled {
  const api = all.filter((r) => r.path.startsWith("/api/") && r.method !== "ALL");
  const patterns = api.map((r) => {
    const source = r.path
      .replace(/\/$/, "")
      .split("/")
      .map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    return { re: new RegExp(`^${source}/?$`), method: r.method };
  });
  const fixed = new Map<string, Set<string>>();
  for (const r of api) {
    if (r.path.includes(":") || r.path.includes("*")) continue;
    const path = r.path.replace(/\/$/, "");
    fixed.set(path, (fixed.get(path) ?? new Set()).add(r.method));
  }
  return { count: all.length, patterns, fixed };
}

/** HEAD goes with GET, as Elysia answers it. */
function withHead(methods: Set<string>): string[] {
  const all = new Set(methods);
  if (all.has("GET")) all.add("HEAD");
  return [...all];
}

/**
 * The methods each /api path takes, read from the app's routes (`:param` matches one segment, a
 * trailing slash is optional). A path that is a route of its own (`/api/links/bulk`) takes only its
 * own methods, even where a `/:id` route would match it too.
 */
export function allowedMethodsOf(routes: () => readonly RouteLike[]): AllowedMethods & { fixed: AllowedMethods } {
  let compiled: Compiled | undefined;
  const current = () => {
    const all = routes();
    if (compiled?.count !== all.length) compiled = compile(all);
    return compiled;
  };
  const fixed = (pathname: string) => {
    const own = current().fixed.get(pathname.replace(/\/$/, ""));
    return own ? withHead(own) : [];
  };
  const allowed = (pathname: string) => {
    if (!pathname.startsWith("/api/")) return [];
    const own = fixed(pathname);
    if (own.length) return own;
    return withHead(
      new Set(
        current()
          .patterns.filter((p) => p.re.test(pathname))
          .map((p) => p.method),
      ),
    );
  };
  return Object.assign(allowed, { fixed });
}

/** 405 with `Allow`, in the JSON error model. */
export function methodNotAllowed(method: string, pathname: string, methods: string[]): AppError {
  return new AppError(405, "method_not_allowed", `${method} is not allowed on ${pathname}; use ${methods.join(", ")}`, undefined, {
    Allow: methods.join(", "),
  });
}

/**
 * A fixed path asked with a method it does not take is 405 before routing: otherwise Elysia hands
 * `GET /api/links/bulk` to `GET /api/links/:id` (a 400 about the id, or worse, a lookup of "bulk").
 */
export function fixedPathMethods(allowed: { fixed: AllowedMethods }) {
  return new Elysia({ name: "fixed-path-methods" }).onRequest(({ request }) => {
    const { pathname } = requestUrl(request);
    if (!pathname.startsWith("/api/")) return;
    const methods = allowed.fixed(pathname);
    if (methods.length && !methods.includes(request.method)) throw methodNotAllowed(request.method, pathname, methods);
  });
}

/**
 * `/api` and `/api/` are no operation, but they are under /api: they answer the JSON 404 for every
 * method, not the short-link page the one-segment visitor route would give a link coded "api" (a
 * client also makes `/api/` of `/api/links/%2e%2e`). Each method is its own route, since a
 * method's own `/:code` route would win over an `all`.
 */
export function apiRootNotFound() {
  const app = new Elysia({ name: "api-root" });
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    app.route(
      method,
      "/api",
      () => {
        throw new NotFoundError();
      },
      { detail: { hide: true } },
    );
  // HEAD: the same answer without its body, in-process as on the listening server
  return app.head("/api", () => new Response(null, { status: 404, headers: HEAD_404 }), { detail: { hide: true } });
}

const HEAD_404 = { "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff" };
