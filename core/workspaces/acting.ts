import type { Deps } from "../deps";
import { NotFound, Unauthorized } from "../errors";
import type { Principal } from "../accounts/principal";
import { getUser } from "../accounts/users";
import { roleAtLeast, roleForScopes, type Role } from "../tokens/roles";
import { roleIn } from "./workspaces";

/** The request header naming the workspace a session acts in. */
export const WORKSPACE_HEADER = "x-workspace";

/** A principal placed in the workspace it acts in: `user` is the workspace's account, `role` the actor's role there. */
export type ActingPrincipal = Principal & { role: Role };

/**
 * Places an authenticated caller in the workspace the request acts in:
 * - an API token acts in its own workspace, as its maker; it stops working (401 `token_revoked`)
 *   once the maker is no longer a member, or no longer holds the role its scopes need;
 * - a session acts in the workspace the `X-Workspace` header names, else the person's own; a
 *   workspace they are not a member of answers 404, like anything of another account.
 */
export async function actingPrincipal(
  deps: Pick<Deps, "asyncDb">,
  principal: Principal,
  header: string | null | undefined,
): Promise<ActingPrincipal> {
  const named = header?.trim() ? parseId(header.trim()) : null;
  if (principal.via === "apiToken") {
    const workspaceId = principal.user.id;
    if (named !== null && named !== workspaceId) throw new NotFound("Workspace");
    const role = await roleIn(deps, principal.actorId, workspaceId);
    if (!role || !roleAtLeast(role, roleForScopes(principal.scopes)))
      throw new Unauthorized("This API token's maker no longer has the role it needs in its workspace", "token_revoked");
    return { ...principal, role };
  }
  const workspaceId = named ?? principal.actorId;
  const role = await roleIn(deps, principal.actorId, workspaceId);
  if (!role) throw new NotFound("Workspace");
  const user = workspaceId === principal.user.id ? principal.user : await getUser(deps, workspaceId);
  return { ...principal, user, role };
}

/** A workspace id from the header; anything else names no workspace of anyone (404). */
function parseId(text: string): number {
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new NotFound("Workspace");
  return Number(text);
}
