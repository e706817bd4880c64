import { and, asc, eq, isNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { FieldError, NotFound, ValidationError } from "../errors";
import { transaction, type AsyncDbOrTx } from "../../db/async";
import { requireRole, type Role } from "../tokens/roles";
import { recordAudit } from "./audit";
import { removeStoredFiles } from "../secure/storage";

/** A workspace as one person sees it: its id (the owner account's id), its name, their role in it. */
export interface Workspace {
  id: number;
  name: string;
  role: Role;
  /** the person's own workspace (their account); it has no other members and cannot be deleted */
  personal: boolean;
}

type Db = { asyncDb: AsyncDbOrTx };

/** The longest team name. */
export const WORKSPACE_NAME_MAX = 100;

/** How a person's own workspace is named: their name, @username or email. */
function personalName(u: { firstName: string | null; username: string | null; email: string | null }): string {
  return u.firstName ?? (u.username ? `@${u.username}` : (u.email ?? ""));
}

/**
 * The role `actorId` holds in `workspaceId`, or null when they are not a member (callers answer 404
 * then, as for anything of another account). A person owns their own account's workspace; a team's
 * members are its workspace_members rows.
 */
export async function roleIn(deps: Db, actorId: number, workspaceId: number): Promise<Role | null> {
  const { users, workspaceMembers } = deps.asyncDb.tables;
  if (actorId === workspaceId) {
    const [me] = await deps.asyncDb
      .select({ kind: users.kind })
      .from(users)
      .where(and(eq(users.id, actorId), isNull(users.mergedIntoId)))
      .limit(1);
    return me?.kind === "person" ? "owner" : null;
  }
  const [row] = await deps.asyncDb
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, actorId), eq(users.kind, "team")))
    .limit(1);
  return row?.role ?? null;
}

/** One workspace of `actorId`; 404 when they are not a member. */
export async function getWorkspace(deps: Db, actorId: number, workspaceId: number): Promise<Workspace> {
  const role = await roleIn(deps, actorId, workspaceId);
  if (!role) throw new NotFound("Workspace");
  const { users } = deps.asyncDb.tables;
  const [u] = await deps.asyncDb.select().from(users).where(eq(users.id, workspaceId)).limit(1);
  if (!u) throw new NotFound("Workspace");
  return u.kind === "team"
    ? { id: u.id, name: u.name ?? "", role, personal: false }
    : { id: u.id, name: personalName(u), role, personal: true };
}

/** Every workspace `actorId` may act in with their role: their personal one first, then teams by age. */
export async function listWorkspaces(deps: Db, actorId: number): Promise<Workspace[]> {
  const { users, workspaceMembers } = deps.asyncDb.tables;
  const own = await getWorkspace(deps, actorId, actorId);
  const teams = await deps.asyncDb
    .select({ id: users.id, name: users.name, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, actorId), eq(users.kind, "team")))
    .orderBy(asc(users.id));
  return [own, ...teams.map((t) => ({ id: t.id, name: t.name ?? "", role: t.role, personal: false }))];
}

function cleanName(name: string): string {
  const clean = name.trim().replace(/\s+/g, " ");
  if (!clean || clean.length > WORKSPACE_NAME_MAX) throw new FieldError("name", `must be 1 to ${WORKSPACE_NAME_MAX} characters`);
  return clean;
}

/** Makes a team workspace; `actorId` becomes its owner. */
export async function createWorkspace(deps: Pick<Deps, "asyncDb" | "clock">, actorId: number, name: string): Promise<Workspace> {
  const clean = cleanName(name);
  const { users, workspaceMembers } = deps.asyncDb.tables;
  const now = deps.clock.now();
  const id = await transaction(deps.asyncDb, async (tx) => {
    const [team] = await tx.insert(users).values({ kind: "team", name: clean, createdAt: now }).returning({ id: users.id });
    await tx.insert(workspaceMembers).values({ workspaceId: team!.id, userId: actorId, role: "owner", addedAt: now });
    await recordAudit(
      { asyncDb: tx, clock: deps.clock },
      {
        workspaceId: team!.id,
        actorId,
        action: "workspace.create",
        subject: { type: "workspace", id: team!.id },
        details: { name: clean },
      },
    );
    return team!.id;
  });
  return { id, name: clean, role: "owner", personal: false };
}

/** Renames a team workspace (an admin or the owner). */
export async function renameWorkspace(deps: Pick<Deps, "asyncDb" | "clock">, actorId: number, workspaceId: number, name: string) {
  const ws = await getWorkspace(deps, actorId, workspaceId);
  requireRole(ws.role, "admin");
  if (ws.personal) throw new ValidationError("Your personal workspace is named after you");
  const clean = cleanName(name);
  const { users } = deps.asyncDb.tables;
  await deps.asyncDb.update(users).set({ name: clean }).where(eq(users.id, workspaceId));
  await recordAudit(deps, {
    workspaceId,
    actorId,
    action: "workspace.update",
    subject: { type: "workspace", id: workspaceId },
    details: { before: { name: ws.name }, after: { name: clean } },
  });
  return { ...ws, name: clean };
}

/**
 * Deletes a team workspace and everything it owns (its links, channels, tokens… go with the account
 * row), and then its secure files' bytes from the file storage (disk, database or S3), which the
 * rows only point to. Only an owner may; a personal workspace cannot be deleted.
 */
export async function deleteWorkspace(
  deps: Pick<Deps, "asyncDb" | "clock" | "storage" | "log">,
  actorId: number,
  workspaceId: number,
): Promise<void> {
  const ws = await getWorkspace(deps, actorId, workspaceId);
  requireRole(ws.role, "owner");
  if (ws.personal) throw new ValidationError("Your personal workspace cannot be deleted");
  const { users, secureFiles } = deps.asyncDb.tables;
  const stored = await transaction(deps.asyncDb, async (tx) => {
    const files = await tx.select({ path: secureFiles.storagePath }).from(secureFiles).where(eq(secureFiles.userId, workspaceId));
    // a person whose current workspace this was is back in their own
    await tx.update(users).set({ currentWorkspaceId: null }).where(eq(users.currentWorkspaceId, workspaceId));
    await tx.delete(users).where(and(eq(users.id, workspaceId), eq(users.kind, "team")));
    return files.map((f) => f.path);
  });
  // after the commit: bytes go only once no row points to them
  await removeStoredFiles(deps, stored);
}

/** The workspace the person last chose in the bot, or their own when none (or when they left it). */
export async function getCurrentWorkspace(deps: Db, actorId: number): Promise<Workspace> {
  const { users } = deps.asyncDb.tables;
  const [me] = await deps.asyncDb.select({ current: users.currentWorkspaceId }).from(users).where(eq(users.id, actorId)).limit(1);
  if (me?.current && me.current !== actorId && (await roleIn(deps, actorId, me.current))) return getWorkspace(deps, actorId, me.current);
  return getWorkspace(deps, actorId, actorId);
}

/** Chooses the workspace the bot acts in for this person; 404 when they are not a member. */
export async function setCurrentWorkspace(deps: Db, actorId: number, workspaceId: number): Promise<Workspace> {
  const ws = await getWorkspace(deps, actorId, workspaceId);
  const { users } = deps.asyncDb.tables;
  await deps.asyncDb
    .update(users)
    .set({ currentWorkspaceId: ws.personal ? null : workspaceId })
    .where(eq(users.id, actorId));
  return ws;
}
