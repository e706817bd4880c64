import { pgTable, text, primaryKey, index } from "drizzle-orm/pg-core";
import { pgColumns } from "../kit";

const { int, ts, bool } = pgColumns;

/**
 * State that a single node keeps in process memory and a cluster must share. These tables exist
 * only on PostgreSQL (the drift test knows them by `PG_ONLY_TABLES`).
 */

/** Fixed-window counters (rate limits, password attempts): one row per key and window. */
export const clusterCounters = pgTable(
  "cluster_counters",
  {
    key: text("key").notNull(),
    /** window start, ms since the epoch */
    windowStart: int("window_start").notNull(),
    count: int("count").notNull().default(0),
    /** when the row may be deleted */
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** Settings every node must agree on, e.g. the generated JWT signing secret; first writer wins. */
export const clusterSettings = pgTable("cluster_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * Telegram updates taken by a node in webhook mode, so an update Telegram sends again (to any node)
 * is handled once: claimed with a lease while it is handled, then marked done.
 */
export const clusterUpdates = pgTable(
  "cluster_updates",
  {
    updateId: int("update_id").primaryKey(),
    /** until when the node that took it may still be handling it */
    leaseUntil: ts("lease_until").notNull(),
    done: bool("done").notNull().default(false),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("cluster_updates_created").on(t.createdAt)],
);

/** Tables of the PostgreSQL schema with no SQLite twin. */
export const PG_ONLY_TABLES = ["cluster_counters", "cluster_settings", "cluster_updates", "stored_chunks"] as const;
