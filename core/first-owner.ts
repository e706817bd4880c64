/**
 * A team workspace's first owner (the earliest added, then the lowest id): whose choices a team
 * follows until it makes its own, for its currency and its time zone. Null for a person's own
 * account, which is not a team, or a team without an owner.
 */
import { and, asc, eq } from "drizzle-orm";
import type { AsyncDbOrTx } from "../db/async";

export async function firstOwnerOf(db: AsyncDbOrTx, workspaceId: number): Promise<number | null> {
  const { users, workspaceMembers } = db.tables;
  const [account] = await db.select({ kind: users.kind }).from(users).where(eq(users.id, workspaceId)).limit(1);
  if (account?.kind !== "team") return null;
  const [first] = await db
    .select({ id: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, "owner")))
    .orderBy(asc(workspaceMembers.addedAt), asc(workspaceMembers.userId))
    .limit(1);
  return first?.id ?? null;
}
