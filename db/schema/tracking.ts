import { sqliteTable, integer, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { ts, createdAt, bool } from "./columns";
import { users } from "./accounts";

export const trackers = sqliteTable("trackers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  keyword: text("keyword").notNull(),
  exactMatch: bool("exact_match").notNull().default(false),
  minusWords: text("minus_words", { mode: "json" }).$type<string[] | null>(),
  searchChannels: bool("search_channels").notNull().default(true),
  searchChats: bool("search_chats").notNull().default(true),
  filterGeo: text("filter_geo"),
  filterLanguage: text("filter_language"),
  filterCategory: text("filter_category"),
  filterMinSubscribers: integer("filter_min_subscribers"),
  includeSources: text("include_sources", { mode: "json" }).$type<string[] | null>(),
  excludeSources: text("exclude_sources", { mode: "json" }).$type<string[] | null>(),
  notifyVia: text("notify_via", { enum: ["bot", "webhook"] }).notNull().default("bot"),
  webhookUrl: text("webhook_url"),
  notifyOnDelete: bool("notify_on_delete").notNull().default(false),
  isEnabled: bool("is_enabled").notNull().default(true),
  totalMatches: integer("total_matches").notNull().default(0),
  createdAt: createdAt(),
}, (t) => [index("trackers_user").on(t.userId)]);

/** chats and channels the service can read: where the bot is a member, or MTProto-followed channels */
export const trackingSources = sqliteTable("tracking_sources", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  chatId: text("chat_id").notNull().unique(),
  type: text("type", { enum: ["channel", "group", "supergroup"] }).notNull(),
  title: text("title"),
  username: text("username"),
  memberCount: integer("member_count"),
  geo: text("geo"),
  category: text("category"),
  via: text("via", { enum: ["bot", "mtproto"] }).notNull().default("bot"),
  isActive: bool("is_active").notNull().default(true),
  createdAt: createdAt(),
});

export const trackerMatches = sqliteTable("tracker_matches", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  trackerId: integer("tracker_id").notNull().references(() => trackers.id, { onDelete: "cascade" }),
  sourceChatId: text("source_chat_id").notNull(),
  sourceTitle: text("source_title"),
  sourceUsername: text("source_username"),
  sourceMessageId: integer("source_message_id").notNull(),
  textSnippet: text("text_snippet"),
  matchedKeyword: text("matched_keyword"),
  postUrl: text("post_url"),
  isDeleted: bool("is_deleted").notNull().default(false),
  isRead: bool("is_read").notNull().default(false),
  detectedAt: ts("detected_at").notNull(),
  /** a bot notification for this match is waiting for the owner's burst window to close */
  notifyPending: bool("notify_pending").notNull().default(false),
}, (t) => [
  uniqueIndex("tracker_matches_unique").on(t.trackerId, t.sourceChatId, t.sourceMessageId),
  index("tracker_matches_feed").on(t.trackerId, t.id),
  index("tracker_matches_post").on(t.sourceChatId, t.sourceMessageId),
  index("tracker_matches_pending").on(t.notifyPending),
]);
