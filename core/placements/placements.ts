/**
 * Placements: an ad bought in someone else's channel (or anywhere else), with the tracking links and
 * invite links that measure it bound to it, and its own figures (stats.ts). Another account's
 * placement, link or invite is a 404 everywhere.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { AppError, Conflict } from "../errors";
import type { UserRow } from "../accounts/users";
import { ownedChannel } from "../channels/channels";
import { ownedInvite } from "../channels/invites";
import { ownedLink } from "../links/links";
import { trackingUrlOf } from "../links/views";
import { PERIODS, parsePeriod } from "../analytics/range";
import { getSettings } from "../reports/settings";
import { workspaceCurrency } from "../workspaces/currency";
import { planPost, placementInvites, trackPost, type Post, type TrackedPost } from "../ads/post";
import { ownedPlacement, type PlacementRow } from "./owned";
import { checkPlacementInput, type PlacementInput } from "./input";
import { defaultName, venueColumns, venueOf, type Venue } from "./venue";
import { countsOf, statsFor, timeParam, type PlacementStats } from "./stats";
import { recordViews, rescheduleReadings, scheduleFirstReading } from "./views";

export { placementViews } from "./views";
import type { Price } from "./price";

export type { PlacementInput } from "./input";

/** Placement: what the API and the bot show of a placement. */
export interface Placement {
  id: number;
  name: string;
  venue: Venue;
  publish_at: string | null;
  post_url: string | null;
  cost: Price | null;
  notes: string | null;
  links: { id: number; code: string; trackingUrl: string; original_url: string }[];
  invites: { id: number; channel_id: number; name: string; invite_link: string }[];
  created_at: string;
  stats: PlacementStats;
  /** on create with a post: the post rewritten for this placement, and the links left as they were */
  post?: Post;
  skipped?: TrackedPost["skipped"];
}

/** The API objects of these rows: their links, invites and figures read for all of them at once. */
async function toPlacements(deps: Pick<Deps, "asyncDb" | "clock" | "config">, rows: PlacementRow[], where: ReturnType<typeof sql>) {
  const db = deps.asyncDb;
  const { placementLinks, placementInvites: bound, links, channelInvites, domains } = db.tables;
  const ids = rows.map((r) => r.id);
  const [linkRows, inviteRows, counts] = ids.length
    ? await Promise.all([
        db
          .select({ placementId: placementLinks.placementId, id: links.id, code: links.code, url: links.url, host: domains.hostname })
          .from(placementLinks)
          .innerJoin(links, eq(links.id, placementLinks.linkId))
          .leftJoin(domains, eq(domains.id, links.domainId))
          .where(inArray(placementLinks.placementId, ids))
          .orderBy(links.id),
        db
          .select({
            placementId: bound.placementId,
            id: channelInvites.id,
            channelId: channelInvites.channelId,
            name: channelInvites.name,
            inviteLink: channelInvites.inviteLink,
          })
          .from(bound)
          .innerJoin(channelInvites, eq(channelInvites.id, bound.inviteId))
          .where(inArray(bound.placementId, ids))
          .orderBy(channelInvites.id),
        countsOf(deps, where),
      ])
    : [[], [], new Map()];
  const group = <R extends { placementId: number }>(list: R[]) => {
    const out = new Map<number, R[]>();
    for (const r of list) (out.get(r.placementId) ?? out.set(r.placementId, []).get(r.placementId)!).push(r);
    return out;
  };
  const linksBy = group(linkRows);
  const invitesBy = group(inviteRows);
  return rows.map(
    (r): Placement => ({
      id: r.id,
      name: r.name,
      venue: venueOf(r),
      publish_at: r.publishAt?.toISOString() ?? null,
      post_url: r.postUrl,
      cost: r.cost ?? null,
      notes: r.notes,
      links: (linksBy.get(r.id) ?? []).map((l) => ({
        id: l.id,
        code: l.code,
        trackingUrl: trackingUrlOf(deps, l.code, l.host),
        original_url: l.url,
      })),
      invites: (invitesBy.get(r.id) ?? []).map((i) => ({ id: i.id, channel_id: i.channelId, name: i.name, invite_link: i.inviteLink })),
      created_at: r.createdAt.toISOString(),
      stats: statsFor(counts, r),
    }),
  );
}

async function viewOf(deps: Pick<Deps, "asyncDb" | "clock" | "config">, row: PlacementRow): Promise<Placement> {
  return (await toPlacements(deps, [row], sql`p.id = ${row.id}`))[0]!;
}

/** One of the account's placements with its figures (404 for anyone else's). */
export async function getPlacement(deps: Pick<Deps, "asyncDb" | "clock" | "config">, userId: number, id: number): Promise<Placement> {
  return viewOf(deps, await ownedPlacement(deps, userId, id));
}

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

/** What listPlacements sorts by: a figure of `stats` (`stayed_d7` for stayed.d7.stayed, …) or a field. */
export const PLACEMENT_SORTS = [
  "created_at",
  "publish_at",
  "name",
  "cost",
  "views",
  "clicks",
  "unique_clicks",
  "joins",
  "leaves",
  "stayed_h24",
  "stayed_d7",
  "stayed_d30",
  "conversions",
  "cpm",
  "cpc",
  "cost_per_join",
  "cost_per_retained",
  "roas",
] as const;
type PlacementSort = (typeof PLACEMENT_SORTS)[number];
/** Other names `sort` takes: `stayed` is the week's figure, as the Ads table shows it. */
const SORT_ALIASES: Record<string, PlacementSort> = { stayed: "stayed_d7" };
/** Sorts that are amounts of money: compared only within one currency. */
const MONEY_SORTS = new Set<PlacementSort>(["cost", "cpm", "cpc", "cost_per_join", "cost_per_retained"]);

function sortValue(p: Placement, key: PlacementSort): number | string | null {
  switch (key) {
    case "created_at":
      return p.created_at;
    case "publish_at":
      return p.publish_at ?? p.created_at;
    case "name":
      return p.name.toLowerCase();
    case "cost":
      return p.cost?.amount ?? null;
    case "stayed_h24":
    case "stayed_d7":
    case "stayed_d30":
      return p.stats.stayed[key.slice(7) as "h24" | "d7" | "d30"].stayed;
    case "conversions":
      return p.stats.conversions.count;
    default:
      return p.stats[key];
  }
}

/**
 * The account's placements whose date (publish_at, else when it was made) falls in the period
 * (default 30d; `all`), each with its figures, sorted by `sort` (default created_at) in `order`
 * (default desc); placements without the figure (null) come last either way, then newest first.
 * The list converts no currency: sorted by an amount (cost, cpm, cpc, cost per join or retained),
 * placements are grouped by currency, the account's own first, then the others by code, and sorted
 * within each group.
 */
export async function listPlacements(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  userId: number,
  q: { period?: string; sort?: string; order?: string } = {},
): Promise<Placement[]> {
  const period = parsePeriod(q.period);
  const sort = (SORT_ALIASES[q.sort ?? ""] ?? q.sort ?? "created_at") as PlacementSort;
  if (!PLACEMENT_SORTS.includes(sort))
    throw new AppError(400, "validation_error", `sort: must be one of ${PLACEMENT_SORTS.join(", ")} (or stayed)`, [
      { field: "sort", message: `must be one of ${PLACEMENT_SORTS.join(", ")} (or stayed)` },
    ]);
  const order = q.order ?? "desc";
  if (order !== "asc" && order !== "desc")
    throw new AppError(400, "validation_error", "order: must be asc or desc", [{ field: "order", message: "must be asc or desc" }]);
  const days = PERIODS[period];
  const db = deps.asyncDb;
  const from = days === null ? null : deps.clock.now().getTime() - days * 86_400_000;
  const where = sql`p.user_id = ${userId}${from === null ? sql`` : sql` and coalesce(p.publish_at, p.created_at) >= ${timeParam(db, from)}`}`;
  const { placements } = db.tables;
  const rows = await db
    .select()
    .from(placements)
    .where(
      and(
        eq(placements.userId, userId),
        from === null ? undefined : sql`coalesce(${placements.publishAt}, ${placements.createdAt}) >= ${timeParam(db, from)}`,
      ),
    );
  const list = await toPlacements(deps, rows, where);
  const sign = order === "asc" ? 1 : -1;
  // money is compared within a currency: the account's own first, then the others by code, in either order
  const home = MONEY_SORTS.has(sort) ? (await workspaceCurrency(deps, userId)).effective : null;
  const group = (p: Placement) => (p.cost === null ? "" : p.cost.currency === home ? " " : p.cost.currency);
  return list.sort((a, b) => {
    const x = sortValue(a, sort);
    const y = sortValue(b, sort);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (home !== null && group(a) !== group(b)) return group(a) < group(b) ? -1 : 1;
    else if (x !== y) return (x < y ? -1 : 1) * sign;
    return b.id - a.id;
  });
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
  const { placementLinks } = deps.asyncDb.tables;
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
  const { placementInvites: bound } = deps.asyncDb.tables;
  // inserted unless bound already (two binds at once: one inserts, the other finds it), then read back
  await deps.asyncDb.insert(bound).values({ inviteId, placementId }).onConflictDoNothing();
  const [known] = await deps.asyncDb.select().from(bound).where(eq(bound.inviteId, inviteId)).limit(1);
  if (known && known.placementId !== placementId)
    throw new Conflict("This invite link already counts for another placement", "already_bound");
  return getPlacement(deps, userId, placementId);
}
