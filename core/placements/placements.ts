/**
 * Placements: an ad bought in someone else's channel (or anywhere else), with the tracking links and
 * invite links that measure it bound to it, and its own figures (stats.ts). Another account's
 * placement, link or invite is a 404 everywhere.
 */
import { eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { AppError, Conflict } from "../errors";
import type { UserRow } from "../accounts/users";
import { ownedChannel } from "../channels/channels";
import { ownedInvite } from "../channels/invites";
import { ownedLink } from "../links/links";
import { getSettings } from "../reports/settings";
import { planPost, placementInvites, trackPost, type TrackedPost } from "../ads/post";
import { ownedPlacement, type PlacementRow } from "./owned";
import { checkPlacementInput, type PlacementInput } from "./input";
import { defaultName, venueColumns } from "./venue";
import { recordViews, rescheduleReadings, scheduleFirstReading } from "./views";

export { placementViews } from "./views";
import { getPlacement, viewOf, type Placement } from "./read";
export { getPlacement, type Placement } from "./read";
export { listPlacements, PLACEMENT_SORTS } from "./list";

export type { PlacementInput } from "./input";

/**
 * Makes a placement. Without a name it is `<venue> <dd.mm>` of its date (or today) in the account's
 * time zone. With `post`, the post is rewritten for it (core/ads/post.ts) and comes back as `post`;
 * with `channelIds` and no post, one new invite per channel. The post and the channels are checked
 * before anything is made; if Telegram refuses an invite, nothing is left behind. `beforeInvites`
 * runs (and may throw) before anything is made when the placement will make invites.
 */
export async function createPlacement(
  deps: Deps,
  user: UserRow,
  input: PlacementInput,
  opts: { beforeInvites?: () => void } = {},
): Promise<Placement> {
  if (input.venue === undefined || input.venue === null)
    throw new AppError(400, "validation_error", "venue: is required", [{ field: "venue", message: "is required" }]);
  const patch = await checkPlacementInput(deps, user.id, input);
  const plan = input.post ? await planPost(deps, user, input.post) : null;
  const channels =
    !input.post && input.channelIds?.length
      ? await Promise.all([...new Set(input.channelIds)].map((id) => ownedChannel(deps, user.id, id)))
      : [];
  // the caller's say before any invite is made (the API asks for the channels scope here)
  if (channels.length || plan?.channels.length) opts.beforeInvites?.();
  const now = deps.clock.now();
  const name = patch.name ?? defaultName(patch.venue!, patch.publishAt ?? now, (await getSettings(deps, user.id)).time_zone);
  const { placements } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .insert(placements)
    .values({
      userId: user.id,
      name,
      ...venueColumns(patch.venue!),
      publishAt: patch.publishAt ?? null,
      postUrl: patch.postUrl ?? null,
      postFoundAt: patch.postUrl ? now : null,
      cost: patch.cost ?? null,
      notes: patch.notes ?? null,
      viewsNextAt: patch.postUrl ? now : null,
      createdAt: now,
    })
    .returning();
  let tracked: TrackedPost | null = null;
  try {
    if (plan) tracked = await trackPost(deps, user, plan, input.post!, row!);
    else if (channels.length) await placementInvites(deps, user.id, channels, row!);
  } catch (e) {
    await deps.asyncDb.delete(placements).where(eq(placements.id, row!.id));
    throw e;
  }
  const view = await viewOf(deps, row!);
  return tracked ? { ...view, post: tracked.post, skipped: tracked.skipped } : view;
}

/**
 * Changes a placement: name, venue, date (a new one schedules the post's readings again), price,
 * notes, the post's URL (a new one is read within a minute) and the views typed by hand (a reading
 * now). Its links and invites stay.
 */
export async function updatePlacement(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  userId: number,
  id: number,
  input: PlacementInput,
): Promise<Placement> {
  const existing = await ownedPlacement(deps, userId, id);
  const { views, venue, ...patch } = await checkPlacementInput(deps, userId, { ...input, post: undefined, channelIds: undefined });
  const set: Partial<PlacementRow> = { ...patch, ...(venue ? venueColumns(venue) : {}) };
  if (patch.postUrl !== undefined && patch.postUrl !== existing.postUrl) Object.assign(set, scheduleFirstReading(deps, patch.postUrl));
  else if (
    patch.publishAt !== undefined &&
    (patch.publishAt?.getTime() ?? null) !== (existing.publishAt?.getTime() ?? null) &&
    existing.postUrl
  )
    // the readings follow the publication date: a new date schedules them again from it
    Object.assign(set, rescheduleReadings(deps, patch.publishAt));
  const { placements } = deps.asyncDb.tables;
  if (Object.keys(set).length) await deps.asyncDb.update(placements).set(set).where(eq(placements.id, id));
  if (views !== undefined) await recordViews(deps, id, views, "manual");
  return getPlacement(deps, userId, id);
}

/** Forgets a placement; its links and invites stay, unbound. */
export async function deletePlacement(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<void> {
  await ownedPlacement(deps, userId, id);
  const { placements } = deps.asyncDb.tables;
  await deps.asyncDb.delete(placements).where(eq(placements.id, id));
}

/** Binds one of the account's tracking links to its placement (404 for anyone else's; 409 when another placement has it). */
export async function bindLink(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  userId: number,
  placementId: number,
  linkId: number,
): Promise<Placement> {
  await ownedPlacement(deps, userId, placementId);
  await ownedLink(deps, userId, linkId);
  const { placementLinks, placementInvites: boundInvites, channelInvites } = deps.asyncDb.tables;
  // a link in front of an invite link counts for the invite's placement already: a click counts once
  const [viaInvite] = await deps.asyncDb
    .select({ placementId: boundInvites.placementId })
    .from(channelInvites)
    .innerJoin(boundInvites, eq(boundInvites.inviteId, channelInvites.id))
    .where(eq(channelInvites.linkId, linkId))
    .limit(1);
  if (viaInvite && viaInvite.placementId !== placementId)
    throw new Conflict("This link stands in front of an invite link that counts for another placement", "already_bound");
  // inserted unless bound already (two binds at once: one inserts, the other finds it), then read back
  await deps.asyncDb.insert(placementLinks).values({ linkId, placementId }).onConflictDoNothing();
  const [known] = await deps.asyncDb.select().from(placementLinks).where(eq(placementLinks.linkId, linkId)).limit(1);
  if (known && known.placementId !== placementId) throw new Conflict("This link already counts for another placement", "already_bound");
  return getPlacement(deps, userId, placementId);
}

/** Binds one of the account's invite links to its placement (404 for anyone else's; 409 when another placement has it). */
export async function bindInvite(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  userId: number,
  placementId: number,
  inviteId: number,
): Promise<Placement> {
  await ownedPlacement(deps, userId, placementId);
  await ownedInvite(deps, userId, inviteId);
  const { placementInvites: bound, placementLinks, channelInvites } = deps.asyncDb.tables;
  // the invite's own tracking link bound to another placement would count its clicks there too
  const [direct] = await deps.asyncDb
    .select({ placementId: placementLinks.placementId })
    .from(channelInvites)
    .innerJoin(placementLinks, eq(placementLinks.linkId, channelInvites.linkId))
    .where(eq(channelInvites.id, inviteId))
    .limit(1);
  if (direct && direct.placementId !== placementId)
    throw new Conflict("This invite link's tracking link already counts for another placement", "already_bound");
  // inserted unless bound already (two binds at once: one inserts, the other finds it), then read back
  await deps.asyncDb.insert(bound).values({ inviteId, placementId }).onConflictDoNothing();
  const [known] = await deps.asyncDb.select().from(bound).where(eq(bound.inviteId, inviteId)).limit(1);
  if (known && known.placementId !== placementId)
    throw new Conflict("This invite link already counts for another placement", "already_bound");
  return getPlacement(deps, userId, placementId);
}
