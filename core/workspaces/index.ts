/**
 * Workspaces: a workspace is an owner account (a users row). A person's own account is their personal
 * workspace; a team is a users row of kind "team" whose people are workspace_members rows. Every
 * resource's user_id names the workspace that owns it.
 */
import { memberRole } from "./members";
import { auditPage, type AuditFilter } from "./audit";

export {
  createWorkspace,
  deleteWorkspace,
  getCurrentWorkspace,
  getWorkspace,
  listWorkspaces,
  renameWorkspace,
  roleIn,
  setCurrentWorkspace,
} from "./workspaces";
export type { Workspace } from "./workspaces";
export { listMembers, memberRole, removeMember, setMemberRole, type Member } from "./members";
export { createInvite, inviteTokenOfStart, joinWorkspace } from "./invites";
export { pruneAudit, recordAudit, type AuditEntry, type AuditFilter, type AuditInput } from "./audit";
export { setWorkspaceCurrency, workspaceCurrency } from "./currency";
export { actingPrincipal, WORKSPACE_HEADER, type ActingPrincipal } from "./acting";
export { requireRole, ROLES, ROLE_TABLE, type Role } from "../tokens/roles";

/** A page of the workspace's audit log, newest first; any member may read it (404 for others). */
export async function listAudit(
  deps: Parameters<typeof auditPage>[0],
  actorId: number,
  workspaceId: number,
  opts: AuditFilter & { page?: number; limit?: number },
) {
  await memberRole(deps, actorId, workspaceId, "viewer");
  return auditPage(deps, workspaceId, { ...opts, page: Math.max(1, opts.page ?? 1), limit: Math.min(100, Math.max(1, opts.limit ?? 20)) });
}
