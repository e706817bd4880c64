import { and, eq } from "drizzle-orm";
import type { AsyncDbOrTx } from "../db/async";

/** Whether a postback's events take clicks (`click`, or every event). */
const takesClicks = (events: readonly string[]) => events.includes("click") || events.includes("*");

/**
 * Whether `ownerId` has a postback for clicks: a new link of theirs starts with `click_postbacks` set
 * then, so the click writer queues its clicks for the postbacks (syncClickPostbacks keeps the flag
 * of existing links when postbacks change, or links and postbacks change owner).
 */
export async function ownerWantsClickPostbacks(db: AsyncDbOrTx, ownerId: number): Promise<boolean> {
  const { postbacks } = db.tables;
  const rows = await db.select({ events: postbacks.events }).from(postbacks).where(eq(postbacks.userId, ownerId));
  return rows.some((r) => takesClicks(r.events));
}

/**
 * Sets `click_postbacks` on every link of `ownerId` to whether they now have a postback for clicks:
 * after a postback is made or deleted, and after a merge brings links and postbacks together (a
 * link of one account, a click postback of the other).
 */
export async function syncClickPostbacks(db: AsyncDbOrTx, ownerId: number): Promise<void> {
  const { links } = db.tables;
  const wants = await ownerWantsClickPostbacks(db, ownerId);
  await db
    .update(links)
    .set({ clickPostbacks: wants })
    .where(and(eq(links.userId, ownerId), eq(links.clickPostbacks, !wants)));
}
