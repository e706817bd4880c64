import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { createInvite, listAudit, listMembers, removeMember, setMemberRole } from "../../core/workspaces";
import { exportAudit } from "../../core/workspaces/audit-export";
import type { Role } from "../../core/tokens/roles";
import { authPlugin } from "../shared/auth";
import { errors, OkModel } from "../shared/models";
import { WorkspaceModel, WorkspaceViews } from "./model";
import { dateOf, detail, pathWorkspace } from "./path";

/** A workspace's people (invitations, members and roles) and its audit log: workspacesApi takes them in. */
export function workspaceMembersApi(deps: Deps) {
  return new Elysia({ name: "workspace-members", prefix: "/workspaces" })
    .use(authPlugin(deps))
    .post(
      "/:id/invites",
      async ({ principal, actorId, params, body, set }) => {
        const made = await createInvite(deps, actorId, pathWorkspace(principal, params.id), body.role as Role);
        set.status = 201;
        return { url: made.url, token: made.token, expires_at: made.expiresAt };
      },
      {
        scope: "members",
        params: WorkspaceModel.idParams,
        body: WorkspaceModel.invite,
        response: { 201: WorkspaceViews.invite, ...errors(404) },
        detail: detail("Invite someone: a one-use link valid 7 days (owner or admin; owners invite owners)"),
      },
    )
    .get("/:id/members", ({ principal, actorId, params }) => listMembers(deps, actorId, pathWorkspace(principal, params.id)), {
      scope: "session",
      params: WorkspaceModel.idParams,
      response: { 200: WorkspaceViews.members, ...errors(404) },
      detail: detail("The workspace's people and their roles"),
    })
    .patch(
      "/:id/members/:user_id",
      ({ principal, actorId, params, body }) =>
        setMemberRole(deps, actorId, pathWorkspace(principal, params.id), params.user_id, body.role as Role),
      {
        scope: "members",
        params: WorkspaceModel.memberParams,
        body: WorkspaceModel.memberRole,
        response: { 200: WorkspaceViews.member, ...errors(404, 409) },
        detail: detail("Change a member's role (owner or admin; only an owner makes or unmakes owners)"),
      },
    )
    .delete(
      "/:id/members/:user_id",
      async ({ principal, actorId, params }) => {
        await removeMember(deps, actorId, pathWorkspace(principal, params.id), params.user_id);
        return { success: true as const };
      },
      {
        scope: "members",
        params: WorkspaceModel.memberParams,
        response: { 200: OkModel, ...errors(404, 409) },
        detail: detail("Remove a member, or leave (anyone may remove themselves); their tokens for it stop at once"),
      },
    )
    .get(
      "/:id/audit",
      ({ principal, actorId, params, query }) =>
        listAudit(deps, actorId, pathWorkspace(principal, params.id), {
          page: query.page,
          limit: query.limit,
          action: query.action,
          actorId: query.actor,
          from: dateOf(query.from),
          to: dateOf(query.to),
        }),
      {
        scope: "session",
        params: WorkspaceModel.idParams,
        query: WorkspaceModel.auditQuery,
        response: { 200: WorkspaceViews.audit, ...errors(404) },
        detail: detail("The audit log: who changed what and when, newest first (kept a year)"),
      },
    )
    .post(
      "/:id/audit/export",
      ({ principal, actorId, params, body }) =>
        exportAudit(
          deps,
          actorId,
          pathWorkspace(principal, params.id),
          {
            action: body.action,
            actorId: body.actor,
            from: dateOf(body.from),
            to: dateOf(body.to),
          },
          body.format,
        ),
      {
        scope: "session",
        params: WorkspaceModel.idParams,
        body: WorkspaceModel.auditExport,
        response: { 200: WorkspaceViews.exported, ...errors(404, 409, 503) },
        detail: detail("Send the audit log (filtered, at most 10,000 entries) as a CSV or XLSX file to your Telegram chat"),
      },
    );
}
