import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { Conflict, FieldError, NotFound } from "../errors";
import { serializeOn, transaction, type AsyncDbOrTx } from "../../db/async";
import { requireRole, roleAtLeast, ROLES, type Gate, type Role } from "../tokens/roles";
import { recordAudit } from "./audit";
import { roleIn } from "./workspaces";

type Db = { asyncDb: AsyncDbOrTx };

/** A role named in a request; 400 for anything else. */
export function asRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw new FieldError("role", `must be one of ${ROLES.join(", ")}`);
  return value as Role;
}

/**
 * The actor's role in the workspace, after checking it is at least `need`: 404 when they are not a
 * member (the workspace is not theirs to know of), 403 `forbidden_role` when the role is too low.
 */
export async function memberRole(deps: Db, actorId: number, workspaceId: number, need: Role | Gate): Promise<Role> {
  const role = await roleIn(deps, actorId, workspaceId);
  if (!role) throw new NotFound("Workspace");
  requireRole(role, need);
  return role;
}

export interface Member {
  id: number;
  name: string | null;
  username: string | null;
  role: Role;
  addedAt: string;
}

/** The people of a workspace and their roles (a personal workspace: its owner alone). Any member may look. */
export async function listMembers(deps: Db, actorId: number, workspaceId: number): Promise<Member[]> {
  await memberRole(deps, actorId, workspaceId, "viewer");
  const { users, workspaceMembers } = deps.asyncDb.tables;
  if (actorId === workspaceId) {
    const [me] = await deps.asyncDb.select().from(users).where(eq(users.id, actorId));
    return [{ id: me!.id, name: me!.firstName ?? me!.email, username: me!.username, role: "owner", addedAt: me!.createdAt.toISOString() }];
  }
  const rows = await deps.asyncDb
    .select({ m: workspaceMembers, firstName: users.firstName, username: users.username, email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.addedAt), asc(workspaceMembers.userId));
  return rows.map((r) => ({
    id: r.m.userId,
    name: r.firstName ?? r.email,
    username: r.username,
    role: r.m.role,
    addedAt: r.m.addedAt.toISOString(),
  }));
}

async function ownerCount(db: AsyncDbOrTx, workspaceId: number, except: number): Promise<number> {
  const { workspaceMembers } = db.tables;
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, "owner"), ne(workspaceMembers.userId, except)));
  return row?.n ?? 0;
}

/**
 * Checks that `actor` (holding `actorRole`) may set `target`'s role from `from` to `to`: people are an
 * admin's to manage, but only an owner makes or unmakes owners, and a workspace always keeps an owner.
 */
function assertMayChange(actorRole: Role, from: Role, to: Role | null): void {
  requireRole(actorRole, "members");
  if (from === "owner" || to === "owner") requireRole(actorRole, "owner");
}

/**
 * Changes a member's role. Returns the member as now. The last owner cannot step down (409
 * `last_owner`): make another owner first.
 */
export async function setMemberRole(
  deps: Pick<Deps, "asyncDb" | "clock">,
  actorId: number,
  workspaceId: number,
  userId: number,
  role: Role,
): Promise<Member> {
  asRole(role);
  const actorRole = await memberRole(deps, actorId, workspaceId, "members");
  const { workspaceMembers } = deps.asyncDb.tables;
  await transaction(deps.asyncDb, async (tx) => {
    await serializeOn(tx, `workspace:${workspaceId}`);
    const [m] = await tx
      .select()
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    if (!m) throw new NotFound("Member");
    assertMayChange(actorRole, m.role, role);
    if (m.role === role) return;
    if (m.role === "owner" && (await ownerCount(tx, workspaceId, userId)) === 0)
      throw new Conflict("A workspace needs an owner: make someone else an owner first", "last_owner");
    await tx
      .update(workspaceMembers)
      .set({ role })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    await recordAudit(
      { asyncDb: tx, clock: deps.clock },
      {
        workspaceId,
        actorId,
        action: "members.role",
        subject: { type: "member", id: userId },
        details: { before: { role: m.role }, after: { role } },
      },
    );
  });
  const member = (await listMembers(deps, actorId, workspaceId)).find((x) => x.id === userId);
  if (!member) throw new NotFound("Member");
  return member;
}

/**
 * Removes a member (or lets a member leave: anyone may remove themselves). Access ends at once: every
 * request checks membership, and the API tokens they made for this workspace stop working with it.
 */
export async function removeMember(
  deps: Pick<Deps, "asyncDb" | "clock">,
  actorId: number,
  workspaceId: number,
  userId: number,
): Promise<void> {
  const actorRole = await memberRole(deps, actorId, workspaceId, "viewer");
  const { workspaceMembers, apiTokens } = deps.asyncDb.tables;
  await transaction(deps.asyncDb, async (tx) => {
    await serializeOn(tx, `workspace:${workspaceId}`);
    const [m] = await tx
      .select()
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    if (!m) throw new NotFound("Member");
    if (userId !== actorId) assertMayChange(actorRole, m.role, null);
    if (m.role === "owner" && (await ownerCount(tx, workspaceId, userId)) === 0)
      throw new Conflict("A workspace needs an owner: make someone else an owner first", "last_owner");
    await tx.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    // their tokens for this workspace are revoked too, so they stay dead if the person is invited back
    await tx
      .update(apiTokens)
      .set({ revokedAt: deps.clock.now() })
      .where(and(eq(apiTokens.userId, workspaceId), eq(apiTokens.madeBy, userId), sql`${apiTokens.revokedAt} is null`));
    await recordAudit(
      { asyncDb: tx, clock: deps.clock },
      {
        workspaceId,
        actorId,
        action: userId === actorId ? "members.leave" : "members.remove",
        subject: { type: "member", id: userId },
        details: { before: { role: m.role } },
      },
    );
  });
}

/** Adds `userId` with `role` (an invitation accepted); a member already in keeps the stronger role. */
export async function addMember(db: AsyncDbOrTx, workspaceId: number, userId: number, role: Role, now: Date): Promise<Role> {
  const { workspaceMembers } = db.tables;
  const [m] = await db
    .select()
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  if (m) {
    if (roleAtLeast(m.role, role)) return m.role;
    await db
      .update(workspaceMembers)
      .set({ role })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    return role;
  }
  await db.insert(workspaceMembers).values({ workspaceId, userId, role, addedAt: now });
  return role;
}
