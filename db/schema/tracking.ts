import { sqliteTable, integer, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { ts, createdAt, bool } from "./columns";
import { users } from "./accounts";

export const trackers = sqliteTable("trackers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  keyword: text("keyword").notNull(),
  exactMatch: bool("exact_match").notNull().default(false),
  /** "plain": the keyword is one word or phrase; "query": the keyword is a query (operators, phrases, prefixes) */
  syntax: text("syntax", { enum: ["plain", "query"] }).notNull().default("plain"),
  /** words match in any of their inflected forms (Russian, English) */
  wordForms: bool("word_forms").notNull().default(false),
  /** forwarded posts and copies of a text matched in the last 24 h do not match */
  skipReposts: bool("skip_reposts").notNull().default(false),
  minusWords: text("minus_words", { mode: "json" }).$type<string[] | null>(),
  searchChannels: bool("search_channels").notNull().default(true),
  searchChats: bool("search_chats").notNull().default(true),
  filterGeo: text("filter_geo"),
  filterLanguage: text("filter_language"),
  filterCategory: text("filter_category"),
  filterMinSubscribers: integer("filter_min_subscribers"),
  includeSources: text("include_sources", { mode: "json" }).$type<string[] | null>(),
  excludeSources: text("exclude_sources", { mode: "json" }).$type<string[] | null>(),
  notifyVia: text("notify_via", { enum: ["bot", "webhook", "chat"] }).notNull().default("bot"),
  /** notify_via "chat": the Telegram chat id of one of the owner's channels, and the forum topic in it */
  notifyChatId: text("notify_chat_id"),
  notifyThreadId: integer("notify_thread_id"),
  /** "instant", or matches wait for a digest at the end of each UTC hour or day */
  notifyEvery: text("notify_every", { enum: ["instant", "hour", "day"] }).notNull().default("instant"),
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

/** the normalised texts (as hashes) a tracker with skip_reposts matched, and when: a copy within 24 h does not match again */
export const trackerSeenTexts = sqliteTable("tracker_seen_texts", {
  trackerId: integer("tracker_id").notNull().references(() => trackers.id, { onDelete: "cascade" }),
  textHash: text("text_hash").notNull(),
  seenAt: ts("seen_at").notNull(),
}, (t) => [uniqueIndex("tracker_seen_texts_key").on(t.trackerId, t.textHash), index("tracker_seen_texts_seen").on(t.seenAt)]);
