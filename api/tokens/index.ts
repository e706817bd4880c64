import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { createApiToken, listApiTokens, revokeApiToken } from "../../core/tokens/api-tokens";
import { authPlugin } from "../shared/auth";
import { OkModel } from "../shared/models";
import { TokenModel, TokenViews } from "./model";

/**
 * API tokens of the acting workspace: create (secret shown once; scopes within the maker's role),
 * list, revoke (your own, or anyone's as an admin). Managing tokens needs a session or a `*` token.
 */
export function tokensApi(deps: Deps) {
  return new Elysia({ name: "api-tokens", prefix: "/tokens" })
    .use(authPlugin(deps))
    .post(
      "/",
      ({ userId, actorId, role, body, set }) => {
        set.status = 201;
        return createApiToken(deps, userId, body, { id: actorId, role });
      },
      {
        scope: "session",
        body: TokenModel.create,
        response: { 201: TokenViews.created },
        detail: { tags: ["tokens"], summary: "Create an API token" },
      },
    )
    .get("/", ({ userId }) => listApiTokens(deps, userId), {
      scope: "session",
      response: t.Array(TokenViews.token),
      detail: { tags: ["tokens"], summary: "The workspace's live API tokens, newest first (no secrets)" },
    })
    .delete(
      "/:id",
      async ({ userId, actorId, role, params }) => {
        await revokeApiToken(deps, userId, params.id, { id: actorId, role });
        return { success: true };
      },
      { scope: "session", params: TokenModel.idParams, response: OkModel, detail: { tags: ["tokens"], summary: "Revoke an API token" } },
    );
}
