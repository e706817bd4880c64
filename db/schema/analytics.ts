import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";
import { links } from "./links";

/**
 * Click roll-ups, maintained inside the transaction that records clicks (core/analytics/rollup.ts),
 * so analytics never scan a link's clicks and never go stale. `span` is the bucket length in ms:
 * an hour, a day or an 8-day block (UTC, aligned to the epoch); a range is answered from the
 * coarsest buckets that fit inside it, with raw clicks only for the ragged edges.
 *
 * Hour rows also keep their four 15-minute quarters (q0–q3, u0–u3): every IANA offset is a
 * multiple of 15 minutes, so timelines and heatmaps re-bucket exactly into half-hour and
 * 45-minute zones too.
 */
export const linkStatsTime = sqliteTable("link_stats_time", {
  linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  span: integer("span").notNull(),
  /** bucket start, ms since the epoch, a multiple of span */
  bucket: integer("bucket").notNull(),
  clicks: integer("clicks").notNull().default(0),
  /** unique human clicks */
  uniques: integer("uniques").notNull().default(0),
  bots: integer("bots").notNull().default(0),
  q0: integer("q0").notNull().default(0),
  q1: integer("q1").notNull().default(0),
  q2: integer("q2").notNull().default(0),
  q3: integer("q3").notNull().default(0),
  u0: integer("u0").notNull().default(0),
  u1: integer("u1").notNull().default(0),
  u2: integer("u2").notNull().default(0),
  u3: integer("u3").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.linkId, t.span, t.bucket] })]);

/** Per link, span, dimension and value ('' when unknown): click counts. */
export const linkStatsDim = sqliteTable("link_stats_dim", {
  linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  span: integer("span").notNull(),
  dim: text("dim", { enum: ["country", "device", "browser", "os", "bot"] }).notNull(),
  bucket: integer("bucket").notNull(),
  value: text("value").notNull(),
  clicks: integer("clicks").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.linkId, t.span, t.dim, t.bucket, t.value] })]);
