/**
 * A placement as the API and the bot show it: its row with its bound links and invites and its
 * figures, read for many placements at once.
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { trackingUrlOf } from "../links/views";
import type { TrackedPost, Post } from "../ads/post";
import { ownedPlacement, type PlacementRow } from "./owned";
import { venueOf, type Venue } from "./venue";
import { countsOf, statsFor, type PlacementStats } from "./stats";
import type { Price } from "./price";

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
export async function toPlacements(deps: Pick<Deps, "asyncDb" | "clock" | "config">, rows: PlacementRow[], where: ReturnType<typeof sql>) {
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

export async function viewOf(deps: Pick<Deps, "asyncDb" | "clock" | "config">, row: PlacementRow): Promise<Placement> {
  return (await toPlacements(deps, [row], sql`p.id = ${row.id}`))[0]!;
}

/** One of the account's placements with its figures (404 for anyone else's). */
export async function getPlacement(deps: Pick<Deps, "asyncDb" | "clock" | "config">, userId: number, id: number): Promise<Placement> {
  return viewOf(deps, await ownedPlacement(deps, userId, id));
}
