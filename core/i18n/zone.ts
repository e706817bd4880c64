/**
 * The time zone of an account (⚙️ Settings → Reports and time zone; UTC until one is set), for what
 * is shown or grouped by its day: dates in the bot, the summary card's timeline, daily digests.
 *
 * Whose zone: what a person reads in their own chat is in their own zone (pass the person's id);
 * what a team workspace receives as a team (its digests, reports, the day in a note's default name)
 * is in the team's zone, set in the team's Settings, and until one is set in the zone of the team's
 * first owner, so that a team's day does not silently become UTC.
 */
import { and, asc, eq } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";

async function ownZone(db: AsyncDbOrTx, userId: number): Promise<string | null> {
  const { userSettings } = db.tables;
  const [row] = await db.select({ zone: userSettings.timeZone }).from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return row?.zone ?? null;
}

export async function timeZoneOf(deps: { asyncDb: AsyncDbOrTx }, userId: number): Promise<string> {
  const db = deps.asyncDb;
  const own = await ownZone(db, userId);
  if (own) return own;
  const { users, workspaceMembers } = db.tables;
  const [account] = await db.select({ kind: users.kind }).from(users).where(eq(users.id, userId)).limit(1);
  if (account?.kind !== "team") return "UTC";
  const [first] = await db
    .select({ id: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, userId), eq(workspaceMembers.role, "owner")))
    .orderBy(asc(workspaceMembers.addedAt), asc(workspaceMembers.userId))
    .limit(1);
  return (first && (await ownZone(db, first.id))) ?? "UTC";
}
