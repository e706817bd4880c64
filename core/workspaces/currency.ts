import type { Deps } from "../deps";
import { firstOwnerOf } from "../first-owner";
import { accountCurrency, updateUserSettings } from "../reports/settings";
import { requireRole } from "../tokens/roles";
import { recordAudit } from "./audit";
import { getWorkspace } from "./workspaces";

type Db = Pick<Deps, "asyncDb">;

/**
 * The currency a bare price (`5000`) is read in, and money sorted by, in a workspace. A personal
 * workspace has its person's own (their choice, else RUB for a Russian speaker, else USD). A team has
 * its own, chosen in its Settings by an admin or owner; until one is chosen, the one its first owner
 * reads prices in, so every member reads the team's prices alike whoever typed them.
 */
export async function workspaceCurrency(deps: Db, workspaceId: number): Promise<{ effective: string; chosen: string | null }> {
  const own = await accountCurrency(deps, workspaceId);
  if (own.chosen !== null) return own;
  const owner = await firstOwnerOf(deps.asyncDb, workspaceId);
  return owner !== null ? { effective: (await accountCurrency(deps, owner)).effective, chosen: null } : own;
}

/**
 * Sets a team's currency (an admin or owner), or a person's own in their personal workspace; null
 * goes back to the default. Written to the team's audit log with before and after.
 */
export async function setWorkspaceCurrency(
  deps: Pick<Deps, "asyncDb" | "clock">,
  actorId: number,
  workspaceId: number,
  currency: string | null,
): Promise<string> {
  const ws = await getWorkspace(deps, actorId, workspaceId);
  requireRole(ws.role, ws.personal ? "owner" : "admin");
  const before = await workspaceCurrency(deps, workspaceId);
  await updateUserSettings(deps, workspaceId, { currency });
  const after = await workspaceCurrency(deps, workspaceId);
  if (before.chosen !== after.chosen)
    await recordAudit(deps, {
      workspaceId,
      actorId,
      action: "workspace.update",
      subject: { type: "workspace", id: workspaceId },
      details: { before: { currency: before.chosen }, after: { currency: after.chosen } },
    });
  return after.effective;
}
