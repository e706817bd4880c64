import { pgTable, text, primaryKey } from "drizzle-orm/pg-core";
import { int } from "./columns";
import { links } from "./links";

/** Click roll-ups: see the SQLite schema for what the columns mean. `span` and `bucket` are ms. */
export const linkStatsTime = pgTable("link_stats_time", {
  linkId: int("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  span: int("span").notNull(),
  bucket: int("bucket").notNull(),
  clicks: int("clicks").notNull().default(0),
  uniques: int("uniques").notNull().default(0),
  bots: int("bots").notNull().default(0),
  q0: int("q0").notNull().default(0),
  q1: int("q1").notNull().default(0),
  q2: int("q2").notNull().default(0),
  q3: int("q3").notNull().default(0),
  u0: int("u0").notNull().default(0),
  u1: int("u1").notNull().default(0),
  u2: int("u2").notNull().default(0),
  u3: int("u3").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.linkId, t.span, t.bucket] })]);

export const linkStatsDim = pgTable("link_stats_dim", {
  linkId: int("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
  span: int("span").notNull(),
  dim: text("dim", { enum: ["country", "device", "browser", "os", "bot"] }).notNull(),
  bucket: int("bucket").notNull(),
  value: text("value").notNull(),
  clicks: int("clicks").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.linkId, t.span, t.dim, t.bucket, t.value] })]);
