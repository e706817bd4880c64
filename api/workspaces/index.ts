import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { NotFound } from "../../core/errors";
import {
  createInvite,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  joinWorkspace,
  listAudit,
  listMembers,
  listWorkspaces,
  removeMember,
  renameWorkspace,
  setWorkspaceCurrency,
  setMemberRole,
  type ActingPrincipal,
} from "../../core/workspaces";
import { exportAudit } from "../../core/workspaces/audit-export";
import type { Role } from "../../core/tokens/roles";
import { authPlugin } from "../shared/auth";
import { errors, OkModel } from "../shared/models";
import { WorkspaceModel, WorkspaceViews } from "./model";

const detail = (summary: string) => ({ tags: ["workspaces"], summary });

/**
 * The workspace a route's path names, as the caller may reach it: an API token reaches its own
 * workspace only (any other is 404, as anything of another account); a sign-in reaches those the
 * person is a member of (core checks).
 */
function pathWorkspace(principal: ActingPrincipal, id: number): number {
  if (principal.via === "apiToken" && principal.user.id !== id) throw new NotFound("Workspace");
  return id;
}

const dateOf = (s: string | undefined) => (s ? new Date(s) : undefined);

/**
 * Workspaces: make a team, list yours, invite people, join, manage members and roles, read and
 * export the audit log, delete a team. Every route names its workspace in the path; the acting
 * workspace of other routes comes from the token or the `X-Workspace` header (api/shared/auth.ts).
 */
export function workspacesApi(deps: Deps) {
  return new Elysia({ name: "workspaces", prefix: "/workspaces" })
    .use(authPlugin(deps))
    .post(
      "/",
      async ({ actorId, body, set }) => {
        set.status = 201;
        return createWorkspace(deps, actorId, body.name);
      },
      {
        scope: "session",
        body: WorkspaceModel.create,
        response: { 201: WorkspaceViews.workspace },
        detail: detail("Make a team workspace (you own it)"),
      },
    )
    .get(
      "/",
      async ({ principal, actorId }) =>
        principal.via === "apiToken" ? [await getWorkspace(deps, actorId, principal.user.id)] : listWorkspaces(deps, actorId),
      {
        scope: "session",
        response: WorkspaceViews.workspaces,
        detail: detail("Your workspaces and your role in each, your personal one first (a token: its own)"),
      },
    )
    .post("/join", ({ actorId, body }) => joinWorkspace(deps, actorId, body.token), {
      scope: "session",
      body: WorkspaceModel.join,
      response: { 200: WorkspaceViews.workspace, ...errors(404, 410) },
      detail: detail("Join a workspace with an invitation's token (once, within 7 days)"),
    })
    .patch(
      "/:id",
      async ({ principal, actorId, params, body }) => {
        const id = pathWorkspace(principal, params.id);
        if (body.currency !== undefined) await setWorkspaceCurrency(deps, actorId, id, body.currency);
        return body.name === undefined ? getWorkspace(deps, actorId, id) : renameWorkspace(deps, actorId, id, body.name);
      },
      {
        scope: "members",
        params: WorkspaceModel.idParams,
        body: WorkspaceModel.update,
        response: { 200: WorkspaceViews.workspace, ...errors(404) },
        detail: detail("Rename a team workspace or set its currency (owner or admin)"),
      },
    )
    .delete(
      "/:id",
      async ({ principal, actorId, params }) => {
        await deleteWorkspace(deps, actorId, pathWorkspace(principal, params.id));
        return { success: true as const };
      },
      {
        scope: "owner",
        params: WorkspaceModel.idParams,
        response: { 200: OkModel, ...errors(404) },
        detail: detail("Delete a team workspace and everything in it (owner)"),
      },
    )
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
