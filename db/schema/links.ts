import { sqliteTable, integer, text, uniqueIndex, index, primaryKey } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { ts, createdAt, bool } from "./columns";
import { users } from "./accounts";

export const tags = sqliteTable("tags", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  createdAt: createdAt(),
}, (t) => [index("tags_user").on(t.userId)]);

export const pixels = sqliteTable("pixels", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  type: text("type", { enum: ["facebook", "google", "tiktok", "yandex", "vk"] }).notNull(),
  pixelId: text("pixel_id").notNull(),
  createdAt: createdAt(),
}, (t) => [index("pixels_user").on(t.userId)]);

/**
 * Custom short-link hostnames. Several accounts may claim one hostname; it serves links only once
 * an account proves control with a DNS TXT record (`verifiedAt`), and only one account can.
 */
export const domains = sqliteTable("domains", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  hostname: text("hostname").notNull(),
  /**
   * the random value the TXT record at _linkbot-challenge.<hostname> must hold, set by createDomain
   * (the empty default only lets the column be added to existing rows; a migration fills those)
   */
  verificationToken: text("verification_token").notNull().default(""),
  verifiedAt: ts("verified_at"),
  createdAt: createdAt(),
}, (t) => [
  index("domains_user").on(t.userId),
  uniqueIndex("domains_user_hostname").on(t.userId, t.hostname),
  uniqueIndex("domains_verified_hostname").on(t.hostname).where(sql`${t.verifiedAt} is not null`),
]);

export const links = sqliteTable("links", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  code: text("code").notNull().unique(),
  url: text("url").notNull(),
  title: text("title"),
  utmSource: text("utm_source"),
  utmMedium: text("utm_medium"),
  utmCampaign: text("utm_campaign"),
  startsAt: ts("starts_at"),
  expiresAt: ts("expires_at"),
  expiredUrl: text("expired_url"),
  maxClicks: integer("max_clicks"),
  passwordHash: text("password_hash"),
  iosUrl: text("ios_url"),
  androidUrl: text("android_url"),
  desktopUrl: text("desktop_url"),
  domainId: integer("domain_id").references(() => domains.id, { onDelete: "set null" }),
  webhookUrl: text("webhook_url"),
  webhookMethod: text("webhook_method", { enum: ["GET", "POST"] }).notNull().default("POST"),
  webhookEnabled: bool("webhook_enabled").notNull().default(false),
  webhookFailures: integer("webhook_failures").notNull().default(0),
  isActive: bool("is_active").notNull().default(true),
  /** counters kept as clicks are written, so lists never scan clicks */
  totalClicks: integer("total_clicks").notNull().default(0),
  uniqueClicks: integer("unique_clicks").notNull().default(0),
  botClicks: integer("bot_clicks").notNull().default(0),
  /** human clicks admitted toward max_clicks (reserved at redirect time, so the cap is exact) */
  capUsed: integer("cap_used").notNull().default(0),
  /** redirect rules (JSON array, validated by core/links/routing-input.ts); null when none */
  rules: text("rules"),
  /** A/B variants (JSON array of {url, weight}); null when none */
  variants: text("variants"),
  createdAt: createdAt(),
  updatedAt: ts("updated_at").notNull().$defaultFn(() => new Date()),
}, (t) => [index("links_user").on(t.userId, t.id)]);

export const linkTags = sqliteTable("link_tags", {
  linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  tagId: integer("tag_id").notNull().references(() => tags.id, { onDelete: "cascade" }),
}, (t) => [primaryKey({ columns: [t.linkId, t.tagId] }), index("link_tags_tag").on(t.tagId)]);

export const linkPixels = sqliteTable("link_pixels", {
  linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  pixelId: integer("pixel_id").notNull().references(() => pixels.id, { onDelete: "cascade" }),
}, (t) => [primaryKey({ columns: [t.linkId, t.pixelId] })]);

/**
 * Each distinct User-Agent once: traffic repeats a few hundred of them, so a click keeps a small id
 * instead of ~110 bytes of text (half the row, and half of what every insert and checkpoint copies).
 * Rows are only ever added.
 */
export const userAgents = sqliteTable("user_agents", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  ua: text("ua").notNull().unique(),
});

export const clicks = sqliteTable("clicks", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  clickedAt: ts("clicked_at").notNull(),
  ip: text("ip"),
  country: text("country"),
  city: text("city"),
  /** mobile, tablet, desktop, bot, other */
  device: text("device"),
  browser: text("browser"),
  os: text("os"),
  referer: text("referer"),
  /** the visitor's User-Agent (user_agents), null when none was sent */
  uaId: integer("ua_id").references(() => userAgents.id),
  isBot: bool("is_bot").notNull().default(false),
  botName: text("bot_name"),
  isUnique: bool("is_unique").notNull().default(false),
  /** index of the redirect rule that sent the visitor, null when none did */
  rule: integer("rule"),
  /** index of the A/B variant the visitor got, null when the link has none (or a rule caught them) */
  variant: integer("variant"),
}, (t) => [index("clicks_link_time").on(t.linkId, t.clickedAt)]);

/** keeps is_unique decidable without scanning clicks: last time a visitor (hash of IP + UA) clicked a link */
export const clickVisitors = sqliteTable("click_visitors", {
  linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  visitorHash: text("visitor_hash").notNull(),
  lastUniqueAt: ts("last_unique_at").notNull(),
}, (t) => [primaryKey({ columns: [t.linkId, t.visitorHash] })]);

/**
 * The owner of a deleted link's code, kept so that later visits to that code stay attributable to
 * them as orphan visits. A new link may take the code again; the live link then answers.
 */
export const linkTombstones = sqliteTable("link_tombstones", {
  code: text("code").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  deletedAt: ts("deleted_at").notNull(),
});

/**
 * Visits to SHORT_URL/<code> that found no active link: unknown codes, disabled and deleted links.
 * `user_id` is who the visit is shown to, decided when it is recorded (the disabled or deleted
 * link's owner, else the owner of the custom domain it came in on); null when nobody owns it.
 * No address or agent is kept.
 */
/**
 * Orphan visits (to codes with no active link), counted per owner, code, host and UTC day: a scan of
 * a million random codes adds a million to a count, not a million rows. Visits nobody may see are
 * not stored at all. `host` is the request's host name, "" when it had none.
 */
export const orphanVisitDays = sqliteTable("orphan_visit_days", {
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  code: text("code").notNull(),
  host: text("host").notNull().default(""),
  day: ts("day").notNull(),
  visits: integer("visits").notNull().default(0),
  lastAt: ts("last_at").notNull(),
}, (t) => [primaryKey({ columns: [t.userId, t.day, t.code, t.host] })]);

export type LinkRow = typeof links.$inferSelect;
export type ClickRow = typeof clicks.$inferSelect;
export type NewClick = typeof clicks.$inferInsert;

/**
 * How far the click writer has committed each click journal: the sequence number of the last click
 * it stored (or dropped for good), written in the same transaction as that click's batch. At start,
 * journaled clicks above it are written again and those at or below it never are, so a batch that
 * committed is not written twice even when its journal segment outlived it. One row per journal:
 * `local` for the service's own; a node of a cluster would keep its own row.
 */
export const clickJournal = sqliteTable("click_journal", {
  journal: text("journal").primaryKey(),
  seq: integer("seq").notNull(),
});
