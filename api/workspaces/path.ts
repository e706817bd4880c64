/** What the workspace routes share: their docs tag, the workspace their path names, a date from a query. */
import type { ActingPrincipal } from "../../core/workspaces";
import { NotFound } from "../../core/errors";

export const detail = (summary: string) => ({ tags: ["workspaces"], summary });

/**
 * The workspace a route's path names, as the caller may reach it: an API token reaches its own
 * workspace only (any other is 404, as anything of another account); a sign-in reaches those the
 * person is a member of (core checks).
 */
export function pathWorkspace(principal: ActingPrincipal, id: number): number {
  if (principal.via === "apiToken" && principal.user.id !== id) throw new NotFound("Workspace");
  return id;
}

export const dateOf = (s: string | undefined) => (s ? new Date(s) : undefined);
