import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";
import { links } from "./links";

/**
 * Click roll-ups, maintained inside the transaction that records clicks (core/analytics/rollup.ts),
 * so analytics never scan a link's clicks and never go stale.
 *
 * Per link and 15-minute UTC bucket: totals. Every IANA zone offset is a multiple of 15 minutes,
 * so timeline and heatmap re-bucket these into local hours/days of any zone exactly (half-hour and
 * 45-minute zones included).
 */
export const linkStatsQuarter = sqliteTable("link_stats_quarter", {
  linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  /** bucket start, ms since the epoch, a multiple of 15 minutes */
  bucket: integer("bucket").notNull(),
  clicks: integer("clicks").notNull().default(0),
  /** unique human clicks */
  uniques: integer("uniques").notNull().default(0),
  bots: integer("bots").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.linkId, t.bucket] })]);

/**
 * Per link, grain (hour or day, UTC), dimension and value: click counts. Period totals by
 * country/device/browser/os/bot name add whole days, then edge hours, then edge raw clicks.
 * `value` is '' when unknown.
 */
export const linkStatsDim = sqliteTable("link_stats_dim", {
  linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  grain: text("grain", { enum: ["hour", "day"] }).notNull(),
  dim: text("dim", { enum: ["country", "device", "browser", "os", "bot"] }).notNull(),
  bucket: integer("bucket").notNull(),
  value: text("value").notNull(),
  clicks: integer("clicks").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.linkId, t.grain, t.dim, t.bucket, t.value] })]);
