import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { authenticate, requireScope } from "../../core/accounts/principal";
import { hasScope, type Scope } from "../../core/tokens/scopes";
import { requireRole, roleFor, ROLE_TABLE, type Role } from "../../core/tokens/roles";
import { actingPrincipal, memberRole, WORKSPACE_HEADER, type ActingPrincipal } from "../../core/workspaces";
import { Forbidden, NotFound } from "../../core/errors";
import { auditWrite } from "./audit";

/**
 * What a route needs: a scope (or either of several), `session` (a sign-in, or a `*` token), or
 * `members` / `owner`: a sign-in managing the people or the existence of the workspace its path
 * names (`:id`; the admin or owner role is checked there, since it is not the acting workspace).
 */
type Need = Scope | Scope[] | "session" | "members" | "owner";
/**
 * `{ scope, role }` names a weaker role than the scope's own: a viewer sends exports and charts to
 * their own chat, though a token needs `write:links` for it.
 */
export type RouteScope = Need | { scope: Need; role: Role };

/** The OpenAPI extension on each authenticated operation naming its scope (docs/scopes.md is built from it). */
export const SCOPE_EXTENSION = "x-scope";
/** The OpenAPI extension naming the weakest workspace role an operation admits. */
export const ROLE_EXTENSION = "x-role";

/** How a route's scope reads in the docs: "read:links", "read:stats or read:links", "session". */
function scopeLabel(scope: Need): string {
  return Array.isArray(scope) ? scope.join(" or ") : scope === "members" || scope === "owner" ? "session" : scope;
}

/**
 * The body Elysia parsed for the route, read without naming it in the hook's parameters: Elysia parses
 * the body of every route whose hooks name it, and a route that takes none (a DELETE) would then
 * refuse an empty one. Routes with a body schema have it parsed anyway.
 */
function parsedBody(context: unknown): unknown {
  return (context as Record<string, unknown>)[["bo", "dy"].join("")];
}

/** The status a handler answered: a Response's, a `status(…)` value's, else the one it set (200 when none). */
function statusOf(response: unknown, set: unknown): number {
  if (response instanceof Response) return response.status;
  const custom = response as { code?: unknown } | null;
  if (custom && typeof custom === "object" && custom.constructor?.name === "ElysiaCustomStatusResponse" && typeof custom.code === "number")
    return custom.code;
  return typeof set === "number" ? set : 200;
}

/** The scope and the weakest role a route admits. */
function needOf(option: RouteScope): { scope: Need; role: Role } {
  if (typeof option === "object" && !Array.isArray(option)) return option;
  return { scope: option, role: Array.isArray(option) ? roleFor(option) : ROLE_TABLE[option] };
}

/**
 * Adds the `scope` route option: `{ scope: "read:links" }` authenticates the caller (JWT, API token or
 * x-msgr-init-data), places them in the acting workspace (the token's, or the `X-Workspace` header's,
 * else their own), checks the token's scope and the caller's role there together (403
 * `insufficient_scope`, 403 `forbidden_role`), and puts `principal`, `userId` (the workspace),
 * `actorId` (the person) and `role` in the context.
 * `{ scope: "session" }` admits any signed-in caller with every scope (JWT or initData only).
 * `{ scope: ["read:stats", "read:links"] }` admits a token holding any one of the listed scopes.
 * The scope and role also go into the route's OpenAPI operation (`x-scope`, `x-role` and a line of
 * its description). A successful write is recorded in the workspace's audit log (api/shared/audit.ts).
 */
/** Routes that act on the signed-in person rather than on a workspace: a team workspace's token never reaches them. */
const PERSON_ROUTES = /^\/api\/(auth\/|settings\/?$|workspaces\/?$|workspaces\/join\/?$)/;

export function authPlugin(deps: Deps) {
  const admitted = new WeakMap<Request, ActingPrincipal>();
  return new Elysia({ name: "auth" }).macro({
    scope(option: RouteScope) {
      const { scope, role } = needOf(option);
      return {
        // Elysia hands the route's own options object here (and deletes `scope` from it), so the
        // detail is replaced by a copy: a detail object shared by several routes is never changed
        introspect(options) {
          const hook = options as { detail?: Record<string, unknown> }; // typed as schemas only; it is the whole hook
          const own = hook.detail ?? {};
          const label = scopeLabel(scope);
          const line =
            label === "session"
              ? "Scope: `session` (a sign-in token or initData; an API token needs `*`)"
              : `Scope: ${[scope]
                  .flat()
                  .map((s) => `\`${s}\``)
                  .join(" or ")}`;
          hook.detail = {
            ...own,
            [SCOPE_EXTENSION]: label,
            [ROLE_EXTENSION]: role,
            description: own.description ? `${own.description}\n\n${line}` : line,
          };
        },
        // credentials, scope and role are checked in `transform`, before the body and query are
        // validated, so a caller without the right credentials gets 401/403 and learns nothing from a 400
        async transform({ request, params }) {
          const principal = await actingPrincipal(
            deps,
            await authenticate(deps, {
              authorization: request.headers.get("authorization") ?? undefined,
              initData: request.headers.get("x-msgr-init-data") ?? undefined,
            }),
            request.headers.get(WORKSPACE_HEADER),
          );
          if (typeof scope === "string" && (scope === "session" || scope === "members" || scope === "owner")) {
            if (principal.via === "apiToken") requireScope(principal, "*");
            // the person's own account (sign-ins, passkeys, settings, their teams) is no team token's:
            // a `*` token made for a team workspace acts inside that workspace only
            if (
              scope === "session" &&
              principal.via === "apiToken" &&
              principal.user.id !== principal.actorId &&
              PERSON_ROUTES.test(new URL(request.url).pathname)
            )
              throw new Forbidden(
                "This API token belongs to a team workspace: the account's own sign-ins, settings and teams need a sign-in, or a token of the personal workspace",
                "insufficient_scope",
              );
          } else if (Array.isArray(scope)) {
            if (!scope.some((s) => hasScope(principal.scopes, s)))
              throw new Forbidden(`This token lacks the ${scope.map((s) => `"${s}"`).join(" or ")} scope`, "insufficient_scope");
          } else requireScope(principal, scope);
          // `members` and `owner` routes name their workspace in the path: the role is checked there
          // (core checks it again), and a token reaches only its own workspace
          if (scope === "members" || scope === "owner") {
            const named = Number((params as Record<string, string>).id);
            if (principal.via === "apiToken" && named !== principal.user.id) throw new NotFound("Workspace");
            // leaving (removing yourself) is anyone's
            const leaving = request.method === "DELETE" && Number((params as Record<string, string>).user_id) === principal.actorId;
            await memberRole(deps, principal.actorId, named, leaving ? "viewer" : scope);
          } else requireRole(principal.role, role);
          admitted.set(request, principal);
        },
        resolve({ request }) {
          const principal = admitted.get(request)!;
          return { principal, userId: principal.user.id, actorId: principal.actorId, role: principal.role };
        },
        async afterHandle({ request, route, set, params, response }) {
          const principal = admitted.get(request);
          if (!principal) return;
          await auditWrite(deps, {
            method: request.method,
            route,
            status: statusOf(response, set.status),
            params: params as Record<string, string>,
            body: parsedBody(arguments[0]),
            response,
            workspaceId: principal.user.id,
            actorId: principal.actorId,
          });
        },
      };
    },
  });
}
