import type { Kit } from "../kit";
import type { accountTables } from "./accounts";

export function trackingTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  const rows = trackerRowTables(k, { users });
  return { ...rows, ...trackerFindingTables(k, { users, ...rows }) };
}

/** The trackers, and the chats and channels the service can read. */
function trackerRowTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  const trackers = k.table(
    "trackers",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      keyword: k.text("keyword").notNull(),
      exactMatch: k.bool("exact_match").notNull().default(false),
      /** "plain": the keyword is one word or phrase; "query": the keyword is a query (operators, phrases, prefixes) */
      syntax: k
        .text("syntax", { enum: ["plain", "query"] })
        .notNull()
        .default("plain"),
      /** words match in any of their inflected forms (Russian, English) */
      wordForms: k.bool("word_forms").notNull().default(false),
      /** forwarded posts and copies of a text matched in the last 24 h do not match */
      skipReposts: k.bool("skip_reposts").notNull().default(false),
      /** also matches posts carrying one of the owner's short links or invite links (in the text, behind a text link, on a button) */
      watchLinks: k.bool("watch_links").notNull().default(false),
      minusWords: k.json<string[] | null>("minus_words"),
      searchChannels: k.bool("search_channels").notNull().default(true),
      searchChats: k.bool("search_chats").notNull().default(true),
      filterGeo: k.text("filter_geo"),
      filterLanguage: k.text("filter_language"),
      filterCategory: k.text("filter_category"),
      filterMinSubscribers: k.int("filter_min_subscribers"),
      includeSources: k.json<string[] | null>("include_sources"),
      excludeSources: k.json<string[] | null>("exclude_sources"),
      notifyVia: k
        .text("notify_via", { enum: ["bot", "webhook", "chat"] })
        .notNull()
        .default("bot"),
      /** notify_via "chat": the Telegram chat id of one of the owner's channels, and the forum topic in it */
      notifyChatId: k.text("notify_chat_id"),
      notifyThreadId: k.int("notify_thread_id"),
      /** "instant", or matches wait for a digest at the end of each UTC hour or day */
      notifyEvery: k
        .text("notify_every", { enum: ["instant", "hour", "day"] })
        .notNull()
        .default("instant"),
      webhookUrl: k.text("webhook_url"),
      notifyOnDelete: k.bool("notify_on_delete").notNull().default(false),
      isEnabled: k.bool("is_enabled").notNull().default(true),
      totalMatches: k.int("total_matches").notNull().default(0),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("trackers_user").on(t.userId)],
  );

  /** chats and channels the service can read: where the bot is a member, or MTProto-followed channels */
  const trackingSources = k.table("tracking_sources", {
    id: k.id(),
    chatId: k.text("chat_id").notNull().unique(),
    type: k.text("type", { enum: ["channel", "group", "supergroup"] }).notNull(),
    title: k.text("title"),
    username: k.text("username"),
    memberCount: k.int("member_count"),
    geo: k.text("geo"),
    category: k.text("category"),
    via: k
      .text("via", { enum: ["bot", "mtproto"] })
      .notNull()
      .default("bot"),
    isActive: k.bool("is_active").notNull().default(true),
    createdAt: k.createdAt(),
  });

  return { trackers, trackingSources };
}

/** What the trackers found and where they report it: matches, the texts already seen, the owners' forum topics. */
function trackerFindingTables(
  k: Kit,
  { users, trackers }: Pick<ReturnType<typeof accountTables>, "users"> & Pick<ReturnType<typeof trackerRowTables>, "trackers">,
) {
  const trackerMatches = k.table(
    "tracker_matches",
    {
      id: k.id(),
      trackerId: k
        .int("tracker_id")
        .notNull()
        .references(() => trackers.id, { onDelete: "cascade" }),
      sourceChatId: k.text("source_chat_id").notNull(),
      sourceTitle: k.text("source_title"),
      sourceUsername: k.text("source_username"),
      sourceMessageId: k.int("source_message_id").notNull(),
      textSnippet: k.text("text_snippet"),
      matchedKeyword: k.text("matched_keyword"),
      postUrl: k.text("post_url"),
      /**
       * a watch_links match: the owner's short link (links.id) or invite link (channel_invites.id) the
       * post carries. No foreign key: ids are never reused, and a deleted link's placements are simply
       * never asked for again (SQLite cannot add a column with ON DELETE SET NULL to an existing table).
       */
      linkId: k.int("link_id"),
      inviteId: k.int("invite_id"),
      isDeleted: k.bool("is_deleted").notNull().default(false),
      /** the post was edited and no longer matches: the snippet shows the edited text */
      noLongerMatches: k.bool("no_longer_matches").notNull().default(false),
      isRead: k.bool("is_read").notNull().default(false),
      detectedAt: k.ts("detected_at").notNull(),
      /** a bot notification for this match is waiting for the owner's burst window to close */
      notifyPending: k.bool("notify_pending").notNull().default(false),
    },
    (t) => [
      k.uniqueIndex("tracker_matches_unique").on(t.trackerId, t.sourceChatId, t.sourceMessageId),
      k.index("tracker_matches_feed").on(t.trackerId, t.id),
      k.index("tracker_matches_post").on(t.sourceChatId, t.sourceMessageId),
      k.index("tracker_matches_pending").on(t.notifyPending),
      k.index("tracker_matches_link").on(t.linkId),
      k.index("tracker_matches_invite").on(t.inviteId),
    ],
  );

  /** the normalised texts (as hashes) a tracker with skip_reposts matched, and when: a copy within 24 h does not match again */
  const trackerSeenTexts = k.table(
    "tracker_seen_texts",
    {
      trackerId: k
        .int("tracker_id")
        .notNull()
        .references(() => trackers.id, { onDelete: "cascade" }),
      textHash: k.text("text_hash").notNull(),
      seenAt: k.ts("seen_at").notNull(),
    },
    (t) => [k.uniqueIndex("tracker_seen_texts_key").on(t.trackerId, t.textHash), k.index("tracker_seen_texts_seen").on(t.seenAt)],
  );

  /**
   * Forum topics of the owner's groups, as the bot learns them (a topic created, renamed, closed or
   * reopened, or a message in it), so a tracker's team-chat notifications pick a topic by its name.
   * `thread_id` 0 is the General topic (messages there carry no thread id). One row per account
   * holding the chat as a channel.
   */
  const forumTopics = k.table(
    "forum_topics",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      chatId: k.text("chat_id").notNull(),
      threadId: k.int("thread_id").notNull(),
      name: k.text("name").notNull(),
      isClosed: k.bool("is_closed").notNull().default(false),
      createdAt: k.createdAt(),
    },
    (t) => [k.uniqueIndex("forum_topics_user_chat_thread").on(t.userId, t.chatId, t.threadId), k.index("forum_topics_chat").on(t.chatId)],
  );

  return { trackerMatches, trackerSeenTexts, forumTopics };
}
