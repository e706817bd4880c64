import { pgTable, text, primaryKey } from "drizzle-orm/pg-core";
import { int, ts } from "./columns";

/**
 * State that a single node keeps in process memory and a cluster must share. These tables exist
 * only on PostgreSQL (the drift test knows them by `PG_ONLY_TABLES`).
 */

/** Fixed-window counters (rate limits, password attempts): one row per key and window. */
export const clusterCounters = pgTable("cluster_counters", {
  key: text("key").notNull(),
  /** window start, ms since the epoch */
  windowStart: int("window_start").notNull(),
  count: int("count").notNull().default(0),
  /** when the row may be deleted */
  expiresAt: ts("expires_at").notNull(),
}, (t) => [primaryKey({ columns: [t.key, t.windowStart] })]);

/** Settings every node must agree on, e.g. the generated JWT signing secret; first writer wins. */
export const clusterSettings = pgTable("cluster_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** Tables of the PostgreSQL schema with no SQLite twin. */
export const PG_ONLY_TABLES = ["cluster_counters", "cluster_settings"] as const;
