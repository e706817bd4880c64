import type { Kit } from "../kit";
import type { accountTables } from "./accounts";
import type { channelTables } from "./channels";
import type { linkTables } from "./links";
import type { placementTables } from "./placements";

/** What a postback is sent for: clicks, the channel's join events, and conversion events by name. */
export type PostbackEvents = string[];

export function conversionTables(
  k: Kit,
  {
    users,
    links,
    channelInvites,
    placements,
  }: Pick<ReturnType<typeof accountTables>, "users"> &
    Pick<ReturnType<typeof linkTables>, "links"> &
    Pick<ReturnType<typeof channelTables>, "channelInvites"> &
    Pick<ReturnType<typeof placementTables>, "placements">,
) {
  /**
   * An action after the click or the join, reported by the advertiser (`POST /api/conversions`, the
   * GET postback URL) or recorded by the service itself (`join`: a join through one of the account's
   * invites). `link_id`/`placement_id`/`invite_id` are what it was attributed to (all null: not
   * attributed). `value_micros` is the value × 1,000,000, so sums stay exact integers on both engines.
   * `external_id` (the caller's own id) is unique per account: the same one twice is one conversion.
   */
  const conversions = k.table(
    "conversions",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      event: k.text("event").notNull(),
      clickId: k.text("click_id"),
      tgUserId: k.int("tg_user_id"),
      linkId: k.int("link_id").references(() => links.id, { onDelete: "set null" }),
      placementId: k.int("placement_id").references(() => placements.id, { onDelete: "set null" }),
      inviteId: k.int("invite_id").references(() => channelInvites.id, { onDelete: "set null" }),
      valueMicros: k.int("value_micros"),
      currency: k.text("currency"),
      externalId: k.text("external_id"),
      occurredAt: k.ts("occurred_at").notNull(),
      createdAt: k.createdAt(),
    },
    (t) => [
      k.uniqueIndex("conversions_external").on(t.userId, t.externalId),
      k.index("conversions_user").on(t.userId, t.occurredAt),
      k.index("conversions_link").on(t.linkId, t.occurredAt),
      k.index("conversions_invite").on(t.inviteId, t.occurredAt),
      k.index("conversions_placement").on(t.placementId, t.occurredAt),
    ],
  );

  /**
   * A key for the GET postback URL (`/c/<key>`), for servers that can only call a URL. Only its
   * SHA-256 is kept (`key_hash`); `prefix` is its first characters, to tell keys apart in a list.
   */
  const postbackKeys = k.table(
    "postback_keys",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      keyHash: k.text("key_hash").notNull(),
      prefix: k.text("prefix").notNull(),
      createdAt: k.createdAt(),
      revokedAt: k.ts("revoked_at"),
    },
    (t) => [k.uniqueIndex("postback_keys_hash").on(t.keyHash), k.index("postback_keys_user").on(t.userId)],
  );

  /**
   * A postback out: a URL template (`kind` url) or the Meta Conversions API (`kind` meta, with its
   * pixel and access token), sent for `events` of one link, one placement, or (both null) every link
   * and invite of the account.
   */
  const postbacks = k.table(
    "postbacks",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      kind: k.text("kind", { enum: ["url", "meta"] }).notNull(),
      url: k.text("url"),
      method: k
        .text("method", { enum: ["GET", "POST"] })
        .notNull()
        .default("GET"),
      events: k.json<PostbackEvents>("events").notNull(),
      linkId: k.int("link_id").references(() => links.id, { onDelete: "cascade" }),
      placementId: k.int("placement_id").references(() => placements.id, { onDelete: "cascade" }),
      pixelId: k.text("pixel_id"),
      accessToken: k.text("access_token"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("postbacks_user").on(t.userId)],
  );
  return { conversions, postbackKeys, postbacks };
}
