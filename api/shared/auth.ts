import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { authenticate, requireScope, type Principal } from "../../core/accounts/principal";
import { hasScope, type Scope } from "../../core/tokens/scopes";
import { Forbidden } from "../../core/errors";

export type RouteScope = Scope | Scope[] | "session";

/** The OpenAPI extension on each authenticated operation naming its scope (docs/scopes.md is built from it). */
export const SCOPE_EXTENSION = "x-scope";

/** How a route's scope reads in the docs: "read:links", "read:stats or read:links", "session". */
function scopeLabel(scope: RouteScope): string {
  return Array.isArray(scope) ? scope.join(" or ") : scope;
}

/**
 * Adds the `scope` route option: `{ scope: "read:links" }` authenticates the caller (JWT, API token or
 * x-msgr-init-data), checks the token's scope and puts `principal` and `userId` in the context.
 * `{ scope: "session" }` admits any signed-in caller with every scope (JWT or initData only).
 * `{ scope: ["read:stats", "read:links"] }` admits a token holding any one of the listed scopes.
 * The scope also goes into the route's OpenAPI operation (`x-scope` and a line of its description).
 */
export function authPlugin(deps: Deps) {
  const admitted = new WeakMap<Request, Principal>();
  return new Elysia({ name: "auth" }).macro({
    scope(scope: RouteScope) {
      return {
        // Elysia hands the route's own options object here (and deletes `scope` from it), so the
        // detail is replaced by a copy: a detail object shared by several routes is never changed
        introspect(options) {
          const hook = options as { detail?: Record<string, unknown> }; // typed as schemas only; it is the whole hook
          const own = hook.detail ?? {};
          const line =
            scope === "session"
              ? "Scope: `session` (a sign-in token or initData; an API token needs `*`)"
              : `Scope: ${[scope]
                  .flat()
                  .map((s) => `\`${s}\``)
                  .join(" or ")}`;
          hook.detail = {
            ...own,
            [SCOPE_EXTENSION]: scopeLabel(scope),
            description: own.description ? `${own.description}\n\n${line}` : line,
          };
        },
        // credentials and scope are checked in `transform`, before the body and query are validated,
        // so a caller without the right credentials gets 401/403 and learns nothing from a 400
        async transform({ request }) {
          const principal: Principal = await authenticate(deps, {
            authorization: request.headers.get("authorization") ?? undefined,
            initData: request.headers.get("x-msgr-init-data") ?? undefined,
          });
          if (scope === "session") {
            if (principal.via === "apiToken") requireScope(principal, "*");
          } else if (Array.isArray(scope)) {
            if (!scope.some((s) => hasScope(principal.scopes, s)))
              throw new Forbidden(`This token lacks the ${scope.map((s) => `"${s}"`).join(" or ")} scope`, "insufficient_scope");
          } else requireScope(principal, scope);
          admitted.set(request, principal);
        },
        resolve({ request }) {
          const principal = admitted.get(request)!;
          return { principal, userId: principal.user.id };
        },
      };
    },
  });
}
