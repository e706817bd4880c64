/**
 * The user's time zone (⚙️ Settings → Reports and time zone; UTC until one is set), for what is
 * shown or grouped by the user's day: dates in the bot, the summary card's timeline, daily digests.
 */
import { eq } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";

export async function timeZoneOf(deps: { asyncDb: AsyncDbOrTx }, userId: number): Promise<string> {
  const { userSettings } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select({ zone: userSettings.timeZone })
    .from(userSettings)
    .where(eq(userSettings.userId, userId))
    .limit(1);
  return row?.zone ?? "UTC";
}
