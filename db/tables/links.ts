import type { Kit } from "../kit";
import type { accountTables } from "./accounts";
import { sql } from "drizzle-orm";

/** The ad networks a link's pixel can belong to: the column's values, the API's enum and core's checks. */
export const PIXEL_TYPES = ["facebook", "google", "tiktok", "yandex", "vk"] as const;

export function linkTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  const attributes = linkAttributeTables(k, { users });
  return { ...attributes, ...linkRowTables(k, { users, ...attributes }) };
}

/** What an account attaches to its links: tags, pixels and custom domains. */
function linkAttributeTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  const tags = k.table(
    "tags",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("tags_user").on(t.userId)],
  );

  const pixels = k.table(
    "pixels",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      type: k.text("type", { enum: PIXEL_TYPES }).notNull(),
      pixelId: k.text("pixel_id").notNull(),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("pixels_user").on(t.userId)],
  );

  /**
   * Custom short-link hostnames. Several accounts may claim one hostname; it serves links only once
   * an account proves control with a DNS TXT record (`verifiedAt`), and only one account can.
   */
  const domains = k.table(
    "domains",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      hostname: k.text("hostname").notNull(),
      /**
       * the random value the TXT record at _linkbot-challenge.<hostname> must hold, set by createDomain
       * (the empty default only lets the column be added to existing rows; a migration fills those)
       */
      verificationToken: k.text("verification_token").notNull().default(""),
      verifiedAt: k.ts("verified_at"),
      createdAt: k.createdAt(),
    },
    (t) => [
      k.index("domains_user").on(t.userId),
      k.uniqueIndex("domains_user_hostname").on(t.userId, t.hostname),
      k.uniqueIndex("domains_verified_hostname").on(t.hostname).where(sql`${t.verifiedAt} is not null`),
    ],
  );

  return { tags, pixels, domains };
}

/** The links, and their tags and pixels. */
function linkRowTables(
  k: Kit,
  { users, tags, pixels, domains }: Pick<ReturnType<typeof accountTables>, "users"> & ReturnType<typeof linkAttributeTables>,
) {
  const links = k.table(
    "links",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      code: k.text("code").notNull().unique(),
      url: k.text("url").notNull(),
      title: k.text("title"),
      utmSource: k.text("utm_source"),
      utmMedium: k.text("utm_medium"),
      utmCampaign: k.text("utm_campaign"),
      startsAt: k.ts("starts_at"),
      expiresAt: k.ts("expires_at"),
      expiredUrl: k.text("expired_url"),
      maxClicks: k.int("max_clicks"),
      passwordHash: k.text("password_hash"),
      iosUrl: k.text("ios_url"),
      androidUrl: k.text("android_url"),
      desktopUrl: k.text("desktop_url"),
      domainId: k.int("domain_id").references(() => domains.id, { onDelete: "set null" }),
      webhookUrl: k.text("webhook_url"),
      webhookMethod: k
        .text("webhook_method", { enum: ["GET", "POST"] })
        .notNull()
        .default("POST"),
      webhookEnabled: k.bool("webhook_enabled").notNull().default(false),
      webhookFailures: k.int("webhook_failures").notNull().default(0),
      isActive: k.bool("is_active").notNull().default(true),
      /**
       * the owner has a postback for clicks that may apply to this link (core/conversions/flags.ts): the
       * click writer reads the link with its clicks, so links without one pay nothing for postbacks
       */
      clickPostbacks: k.bool("click_postbacks").notNull().default(false),
      /** counters kept as clicks are written, so lists never scan clicks */
      totalClicks: k.int("total_clicks").notNull().default(0),
      uniqueClicks: k.int("unique_clicks").notNull().default(0),
      botClicks: k.int("bot_clicks").notNull().default(0),
      /** human clicks admitted toward max_clicks (reserved at redirect time, so the cap is exact) */
      capUsed: k.int("cap_used").notNull().default(0),
      /** redirect rules (JSON array, validated by core/links/routing-input.ts); null when none */
      rules: k.text("rules"),
      /** A/B variants (JSON array of {url, weight}); null when none */
      variants: k.text("variants"),
      createdAt: k.createdAt(),
      updatedAt: k
        .ts("updated_at")
        .notNull()
        .$defaultFn(() => new Date()),
    },
    (t) => [k.index("links_user").on(t.userId, t.id)],
  );

  const linkTags = k.table(
    "link_tags",
    {
      linkId: k
        .int("link_id")
        .notNull()
        .references(() => links.id, { onDelete: "cascade" }),
      tagId: k
        .int("tag_id")
        .notNull()
        .references(() => tags.id, { onDelete: "cascade" }),
    },
    (t) => [k.primaryKey({ columns: [t.linkId, t.tagId] }), k.index("link_tags_tag").on(t.tagId)],
  );

  const linkPixels = k.table(
    "link_pixels",
    {
      linkId: k
        .int("link_id")
        .notNull()
        .references(() => links.id, { onDelete: "cascade" }),
      pixelId: k
        .int("pixel_id")
        .notNull()
        .references(() => pixels.id, { onDelete: "cascade" }),
    },
    (t) => [k.primaryKey({ columns: [t.linkId, t.pixelId] })],
  );

  return { links, linkTags, linkPixels };
}
