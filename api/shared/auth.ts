import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { authenticate, requireScope, type Principal } from "../../core/accounts/principal";
import { hasScope, type Scope } from "../../core/tokens/scopes";
import { Forbidden } from "../../core/errors";

/**
 * Adds the `scope` route option: `{ scope: "read:links" }` authenticates the caller (JWT, API token or
 * x-msgr-init-data), checks the token's scope and puts `principal` and `userId` in the context.
 * `{ scope: "session" }` admits any signed-in caller with every scope (JWT or initData only).
 * `{ scope: ["read:stats", "read:links"] }` admits a token holding any one of the listed scopes.
 */
export function authPlugin(deps: Deps) {
  return new Elysia({ name: "auth" }).macro({
    scope(scope: Scope | Scope[] | "session") {
      return {
        async resolve({ headers }) {
          const principal: Principal = await authenticate(deps, {
            authorization: headers.authorization,
            initData: headers["x-msgr-init-data"],
          });
          if (scope === "session") {
            if (principal.via === "apiToken") requireScope(principal, "*");
          } else if (Array.isArray(scope)) {
            if (!scope.some((s) => hasScope(principal.scopes, s)))
              throw new Forbidden(`This token lacks the ${scope.map((s) => `"${s}"`).join(" or ")} scope`, "insufficient_scope");
          } else requireScope(principal, scope);
          return { principal, userId: principal.user.id };
        },
      };
    },
  });
}
