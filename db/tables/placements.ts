import type { Kit } from "../kit";
import type { accountTables } from "./accounts";
import type { channelTables, InviteCost } from "./channels";
import type { linkTables } from "./links";

/** Where an ad runs: a Telegram channel by its username, or anything else by a title. */
export type VenueKind = "telegram" | "other";

export function placementTables(
  k: Kit,
  {
    users,
    links,
    channelInvites,
  }: Pick<ReturnType<typeof accountTables>, "users"> &
    Pick<ReturnType<typeof linkTables>, "links"> &
    Pick<ReturnType<typeof channelTables>, "channelInvites">,
) {
  /**
   * A placement: one ad bought in someone else's channel (or anywhere else) on a date, for a price.
   * `views`/`views_at` repeat the latest reading of placement_views so that the Ads table reads no
   * series; `views_next_at` is when the views job reads the post again (null: not scheduled).
   */
  const placements = k.table(
    "placements",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      venueKind: k.text("venue_kind", { enum: ["telegram", "other"] }).notNull(),
      /** the channel's username (without @) or the free-text title */
      venue: k.text("venue").notNull(),
      publishAt: k.ts("publish_at"),
      /** t.me/<channel>/<id> of the ad post, once known */
      postUrl: k.text("post_url"),
      /** when the post was seen or set: the views schedule counts from publish_at, else from this */
      postFoundAt: k.ts("post_found_at"),
      cost: k.json<InviteCost>("cost"),
      notes: k.text("notes"),
      views: k.int("views"),
      viewsAt: k.ts("views_at"),
      viewsNextAt: k.ts("views_next_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("placements_user").on(t.userId, t.id), k.index("placements_views_next").on(t.viewsNextAt)],
  );

  /** A tracking link bound to a placement: a link counts for one placement at most. */
  const placementLinks = k.table(
    "placement_links",
    {
      linkId: k
        .int("link_id")
        .primaryKey()
        .references(() => links.id, { onDelete: "cascade" }),
      placementId: k
        .int("placement_id")
        .notNull()
        .references(() => placements.id, { onDelete: "cascade" }),
    },
    (t) => [k.index("placement_links_placement").on(t.placementId)],
  );

  /** An invite link bound to a placement: an invite counts for one placement at most. */
  const placementInvites = k.table(
    "placement_invites",
    {
      inviteId: k
        .int("invite_id")
        .primaryKey()
        .references(() => channelInvites.id, { onDelete: "cascade" }),
      placementId: k
        .int("placement_id")
        .notNull()
        .references(() => placements.id, { onDelete: "cascade" }),
    },
    (t) => [k.index("placement_invites_placement").on(t.placementId)],
  );

  /** The views of a placement's ad post as read over time (the curve); `source` says how each was read. */
  const placementViews = k.table(
    "placement_views",
    {
      id: k.id(),
      placementId: k
        .int("placement_id")
        .notNull()
        .references(() => placements.id, { onDelete: "cascade" }),
      at: k.ts("at").notNull(),
      views: k.int("views").notNull(),
      source: k.text("source", { enum: ["mtproto", "web", "manual"] }).notNull(),
    },
    (t) => [k.index("placement_views_placement").on(t.placementId, t.at)],
  );
  return { placements, placementLinks, placementInvites, placementViews };
}
