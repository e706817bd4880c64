import { pgTable, text, uniqueIndex, index } from "drizzle-orm/pg-core";
import { int, json, id, ts, createdAt, bool } from "./columns";
import { users } from "./accounts";

export const trackers = pgTable("trackers", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  keyword: text("keyword").notNull(),
  exactMatch: bool("exact_match").notNull().default(false),
  minusWords: json<string[] | null>("minus_words"),
  searchChannels: bool("search_channels").notNull().default(true),
  searchChats: bool("search_chats").notNull().default(true),
  filterGeo: text("filter_geo"),
  filterLanguage: text("filter_language"),
  filterCategory: text("filter_category"),
  filterMinSubscribers: int("filter_min_subscribers"),
  includeSources: json<string[] | null>("include_sources"),
  excludeSources: json<string[] | null>("exclude_sources"),
  notifyVia: text("notify_via", { enum: ["bot", "webhook"] }).notNull().default("bot"),
  webhookUrl: text("webhook_url"),
  notifyOnDelete: bool("notify_on_delete").notNull().default(false),
  isEnabled: bool("is_enabled").notNull().default(true),
  totalMatches: int("total_matches").notNull().default(0),
  createdAt: createdAt(),
}, (t) => [index("trackers_user").on(t.userId)]);

export const trackingSources = pgTable("tracking_sources", {
  id: id(),
  chatId: text("chat_id").notNull().unique(),
  type: text("type", { enum: ["channel", "group", "supergroup"] }).notNull(),
  title: text("title"),
  username: text("username"),
  memberCount: int("member_count"),
  geo: text("geo"),
  category: text("category"),
  via: text("via", { enum: ["bot", "mtproto"] }).notNull().default("bot"),
  isActive: bool("is_active").notNull().default(true),
  createdAt: createdAt(),
});

export const trackerMatches = pgTable("tracker_matches", {
  id: id(),
  trackerId: int("tracker_id").notNull().references(() => trackers.id, { onDelete: "cascade" }),
  sourceChatId: text("source_chat_id").notNull(),
  sourceTitle: text("source_title"),
  sourceUsername: text("source_username"),
  sourceMessageId: int("source_message_id").notNull(),
  textSnippet: text("text_snippet"),
  matchedKeyword: text("matched_keyword"),
  postUrl: text("post_url"),
  isDeleted: bool("is_deleted").notNull().default(false),
  isRead: bool("is_read").notNull().default(false),
  detectedAt: ts("detected_at").notNull(),
  notifyPending: bool("notify_pending").notNull().default(false),
}, (t) => [
  uniqueIndex("tracker_matches_unique").on(t.trackerId, t.sourceChatId, t.sourceMessageId),
  index("tracker_matches_feed").on(t.trackerId, t.id),
  index("tracker_matches_post").on(t.sourceChatId, t.sourceMessageId),
  index("tracker_matches_pending").on(t.notifyPending),
]);
