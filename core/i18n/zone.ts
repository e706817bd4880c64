/**
 * The time zone of an account (⚙️ Settings → Reports and time zone; UTC until one is set), for what
 * is shown or grouped by its day: dates in the bot, the summary card's timeline, daily digests.
 *
 * Whose zone: what a person reads in their own chat is in their own zone (pass the person's id);
 * what a team workspace receives as a team (its digests, reports, the day in a note's default name)
 * is in the team's zone, set in the team's Settings, and until one is set in the zone of the team's
 * first owner, so that a team's day does not silently become UTC.
 */
import { eq } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";
import { firstOwnerOf } from "../first-owner";

async function ownZone(db: AsyncDbOrTx, userId: number): Promise<string | null> {
  const { userSettings } = db.tables;
  const [row] = await db.select({ zone: userSettings.timeZone }).from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return row?.zone ?? null;
}

export async function timeZoneOf(deps: { asyncDb: AsyncDbOrTx }, userId: number): Promise<string> {
  const own = await ownZone(deps.asyncDb, userId);
  if (own) return own;
  const owner = await firstOwnerOf(deps.asyncDb, userId);
  return (owner !== null && (await ownZone(deps.asyncDb, owner))) || "UTC";
}
