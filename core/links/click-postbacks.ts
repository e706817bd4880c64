import { eq } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";

/** Whether a postback's events take clicks (`click`, or every event). */
export const takesClicks = (events: readonly string[]) => events.includes("click") || events.includes("*");

/**
 * Whether `ownerId` has a postback for clicks: a new link of theirs starts with `click_postbacks` set
 * then, so the click writer queues its clicks for the postbacks (core/conversions keeps the flag of
 * existing links when postbacks change).
 */
export async function ownerWantsClickPostbacks(db: AsyncDbOrTx, ownerId: number): Promise<boolean> {
  const { postbacks } = db.tables;
  const rows = await db.select({ events: postbacks.events }).from(postbacks).where(eq(postbacks.userId, ownerId));
  return rows.some((r) => takesClicks(r.events));
}
