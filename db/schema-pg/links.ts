import { sql } from "drizzle-orm";
import { pgTable, text, index, primaryKey, uniqueIndex } from "drizzle-orm/pg-core";
import { int, id, ts, createdAt, bool } from "./columns";
import { users } from "./accounts";

export const tags = pgTable("tags", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  createdAt: createdAt(),
}, (t) => [index("tags_user").on(t.userId)]);

export const pixels = pgTable("pixels", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  type: text("type", { enum: ["facebook", "google", "tiktok", "yandex", "vk"] }).notNull(),
  pixelId: text("pixel_id").notNull(),
  createdAt: createdAt(),
}, (t) => [index("pixels_user").on(t.userId)]);

export const domains = pgTable("domains", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  hostname: text("hostname").notNull(),
  verificationToken: text("verification_token").notNull().default(""),
  verifiedAt: ts("verified_at"),
  createdAt: createdAt(),
}, (t) => [
  index("domains_user").on(t.userId),
  uniqueIndex("domains_user_hostname").on(t.userId, t.hostname),
  uniqueIndex("domains_verified_hostname").on(t.hostname).where(sql`${t.verifiedAt} is not null`),
]);

export const links = pgTable("links", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  code: text("code").notNull().unique(),
  url: text("url").notNull(),
  title: text("title"),
  utmSource: text("utm_source"),
  utmMedium: text("utm_medium"),
  utmCampaign: text("utm_campaign"),
  startsAt: ts("starts_at"),
  expiresAt: ts("expires_at"),
  expiredUrl: text("expired_url"),
  maxClicks: int("max_clicks"),
  passwordHash: text("password_hash"),
  iosUrl: text("ios_url"),
  androidUrl: text("android_url"),
  desktopUrl: text("desktop_url"),
  domainId: int("domain_id").references(() => domains.id, { onDelete: "set null" }),
  webhookUrl: text("webhook_url"),
  webhookMethod: text("webhook_method", { enum: ["GET", "POST"] }).notNull().default("POST"),
  webhookEnabled: bool("webhook_enabled").notNull().default(false),
  webhookFailures: int("webhook_failures").notNull().default(0),
  isActive: bool("is_active").notNull().default(true),
  totalClicks: int("total_clicks").notNull().default(0),
  uniqueClicks: int("unique_clicks").notNull().default(0),
  botClicks: int("bot_clicks").notNull().default(0),
  capUsed: int("cap_used").notNull().default(0),
  /** JSON text, as on SQLite (validated and compiled by the service, never queried inside) */
  rules: text("rules"),
  variants: text("variants"),
  createdAt: createdAt(),
  updatedAt: ts("updated_at").notNull().$defaultFn(() => new Date()),
}, (t) => [index("links_user").on(t.userId, t.id)]);

export const linkTags = pgTable("link_tags", {
  linkId: int("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  tagId: int("tag_id").notNull().references(() => tags.id, { onDelete: "cascade" }),
}, (t) => [primaryKey({ columns: [t.linkId, t.tagId] }), index("link_tags_tag").on(t.tagId)]);

export const linkPixels = pgTable("link_pixels", {
  linkId: int("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  pixelId: int("pixel_id").notNull().references(() => pixels.id, { onDelete: "cascade" }),
}, (t) => [primaryKey({ columns: [t.linkId, t.pixelId] })]);

export const userAgents = pgTable("user_agents", {
  id: id(),
  ua: text("ua").notNull().unique(),
});

export const clicks = pgTable("clicks", {
  id: id(),
  linkId: int("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  clickedAt: ts("clicked_at").notNull(),
  ip: text("ip"),
  country: text("country"),
  city: text("city"),
  device: text("device"),
  browser: text("browser"),
  os: text("os"),
  referer: text("referer"),
  uaId: int("ua_id").references(() => userAgents.id),
  isBot: bool("is_bot").notNull().default(false),
  botName: text("bot_name"),
  isUnique: bool("is_unique").notNull().default(false),
  rule: int("rule"),
  variant: int("variant"),
}, (t) => [index("clicks_link_time").on(t.linkId, t.clickedAt)]);

export const clickVisitors = pgTable("click_visitors", {
  linkId: int("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  visitorHash: text("visitor_hash").notNull(),
  lastUniqueAt: ts("last_unique_at").notNull(),
}, (t) => [primaryKey({ columns: [t.linkId, t.visitorHash] })]);

export const linkTombstones = pgTable("link_tombstones", {
  code: text("code").primaryKey(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  deletedAt: ts("deleted_at").notNull(),
});

export const orphanVisitDays = pgTable("orphan_visit_days", {
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  code: text("code").notNull(),
  host: text("host").notNull().default(""),
  day: ts("day").notNull(),
  visits: int("visits").notNull().default(0),
  lastAt: ts("last_at").notNull(),
}, (t) => [primaryKey({ columns: [t.userId, t.day, t.code, t.host] })]);

/** How far the click writer has committed each click journal (see db/schema/links.ts). */
export const clickJournal = pgTable("click_journal", {
  journal: text("journal").primaryKey(),
  seq: int("seq").notNull(),
});
