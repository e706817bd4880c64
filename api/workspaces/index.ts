import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import {
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  joinWorkspace,
  listWorkspaces,
  renameWorkspace,
  setWorkspaceCurrency,
} from "../../core/workspaces";
import { authPlugin } from "../shared/auth";
import { errors, OkModel } from "../shared/models";
import { WorkspaceModel, WorkspaceViews } from "./model";
import { detail, pathWorkspace } from "./path";
import { workspaceMembersApi } from "./members";

/**
 * Workspaces: make a team, list yours, invite people, join, manage members and roles, read and
 * export the audit log, delete a team. Every route names its workspace in the path; the acting
 * workspace of other routes comes from the token or the `X-Workspace` header (api/shared/auth.ts).
 */
export function workspacesApi(deps: Deps) {
  const own = new Elysia({ prefix: "/workspaces" })
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
    );

  return new Elysia({ name: "workspaces" }).use(own).use(workspaceMembersApi(deps));
}
