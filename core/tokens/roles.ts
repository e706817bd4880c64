import { Forbidden } from "../errors";
import { SCOPES, type Scope } from "./scopes";
import { ROLES } from "../../db/tables/workspaces";

export { ROLES };
export type Role = (typeof ROLES)[number];

/**
 * What a route needs besides a scope: `session` routes manage the account or the workspace's own
 * things (tokens, settings); `members` routes manage people and invitations; `owner` routes delete the
 * workspace or change who owns it.
 */
export type Gate = Scope | "session" | "members" | "owner";

const RANK: Record<Role, number> = { owner: 3, admin: 2, editor: 1, viewer: 0 };

/**
 * The role table: the weakest role that may use each scope or gate. Reading needs a viewer, changing
 * an editor, people an admin, the workspace itself its owner. `*` (every scope) is an editor's: what
 * a `*` token may do beyond that is bounded by its maker's role on each request.
 */
export const ROLE_TABLE: Record<Gate, Role> = {
  ...(Object.fromEntries(SCOPES.map((s) => [s, s.startsWith("read:") ? "viewer" : "editor"])) as Record<Scope, Role>),
  session: "viewer",
  members: "admin",
  owner: "owner",
};

/** True when `role` is `need` or stronger. */
export function roleAtLeast(role: Role, need: Role): boolean {
  return RANK[role] >= RANK[need];
}

/** The weakest role any of `gates` admits (a route that takes either of two scopes takes the weaker role). */
export function roleFor(gates: Gate | readonly Gate[]): Role {
  const list = ([] as Gate[]).concat(gates);
  return list.map((g) => ROLE_TABLE[g]).reduce((a, b) => (RANK[a] <= RANK[b] ? a : b), "owner" as Role);
}

/** The role a token's scopes need of its maker: the strongest any of them needs. */
export function roleForScopes(scopes: readonly string[]): Role {
  return scopes
    .filter((s): s is Scope => (SCOPES as readonly string[]).includes(s))
    .map((s) => ROLE_TABLE[s])
    .reduce((a, b) => (RANK[a] >= RANK[b] ? a : b), "viewer" as Role);
}

/** The scopes a token made by someone with `role` may carry. */
export function scopesWithin(role: Role): Scope[] {
  return SCOPES.filter((s) => roleAtLeast(role, ROLE_TABLE[s]));
}

/** 403 `forbidden_role` unless `role` is at least what `need` (a role, a scope or a gate) asks. */
export function requireRole(role: Role, need: Role | Gate): void {
  const needed = (ROLES as readonly string[]).includes(need) ? (need as Role) : ROLE_TABLE[need as Gate];
  if (!roleAtLeast(role, needed))
    throw new Forbidden(`This needs the ${needed} role in this workspace; you are ${articled(role)}`, "forbidden_role");
}

const articled = (role: Role) => (role === "owner" || role === "admin" || role === "editor" ? `an ${role}` : `a ${role}`);
