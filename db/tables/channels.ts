import type { Kit } from "../kit";
import type { accountTables } from "./accounts";
import type { linkTables } from "./links";

/** The price of an ad as its buyer states it: a non-negative amount in an ISO 4217 currency. */
export interface InviteCost {
  amount: number;
  currency: string;
}

export function channelTables(
  k: Kit,
  { users, links }: Pick<ReturnType<typeof accountTables>, "users"> & Pick<ReturnType<typeof linkTables>, "links">,
) {
  const chats = chatTables(k, { users, links });
  return { ...chats, ...joinTables(k, chats) };
}

/** The chats the bot administers, their invite links (one per ad), and their member counts. */
function chatTables(
  k: Kit,
  { users, links }: Pick<ReturnType<typeof accountTables>, "users"> & Pick<ReturnType<typeof linkTables>, "links">,
) {
  /**
   * A channel, group or supergroup where the bot is an administrator, as one account owns it: the
   * account of the person who made the bot an administrator, or of another administrator who added
   * it. One chat may belong to several accounts (one row each).
   */
  const channels = k.table(
    "channels",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      chatId: k.text("chat_id").notNull(),
      type: k.text("type", { enum: ["channel", "group", "supergroup"] }).notNull(),
      title: k.text("title"),
      username: k.text("username"),
      members: k.int("members"),
      /** the bot's can_invite_users right there */
      canInvite: k.bool("can_invite").notNull().default(false),
      /** false once the bot is no longer an administrator there */
      botIsAdmin: k.bool("bot_is_admin").notNull().default(true),
      createdAt: k.createdAt(),
    },
    (t) => [k.uniqueIndex("channels_user_chat").on(t.userId, t.chatId), k.index("channels_chat").on(t.chatId)],
  );

  /**
   * An invite link the bot made in a channel for one account (one ad). `invite_link` is Telegram's
   * link, unique: a join that carries it belongs to this invite. `link_id` is the tracking link put in
   * front of it, if any. A revoked invite keeps its history.
   */
  const channelInvites = k.table(
    "channel_invites",
    {
      id: k.id(),
      userId: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      channelId: k
        .int("channel_id")
        .notNull()
        .references(() => channels.id, { onDelete: "cascade" }),
      chatId: k.text("chat_id").notNull(),
      name: k.text("name").notNull(),
      inviteLink: k.text("invite_link").notNull(),
      joinRequest: k.bool("join_request").notNull().default(false),
      approve: k
        .text("approve", { enum: ["auto", "manual"] })
        .notNull()
        .default("auto"),
      welcome: k.text("welcome"),
      expiresAt: k.ts("expires_at"),
      memberLimit: k.int("member_limit"),
      cost: k.json<InviteCost>("cost"),
      linkId: k.int("link_id").references(() => links.id, { onDelete: "set null" }),
      isRevoked: k.bool("is_revoked").notNull().default(false),
      /** joins through the invite, and how many of those people left again (kept with the journal) */
      joins: k.int("joins").notNull().default(0),
      leaves: k.int("leaves").notNull().default(0),
      createdAt: k.createdAt(),
    },
    (t) => [
      k.uniqueIndex("channel_invites_link").on(t.inviteLink),
      k.index("channel_invites_channel").on(t.channelId),
      k.index("channel_invites_user").on(t.userId),
      k.index("channel_invites_chat").on(t.chatId),
    ],
  );

  /**
   * Joins and leaves of a chat in total, kept with the journal in the same transaction, so that a
   * channel's figures never count the journal.
   */
  const channelChatCounts = k.table("channel_chat_counts", {
    chatId: k.text("chat_id").primaryKey(),
    joins: k.int("joins").notNull().default(0),
    leaves: k.int("leaves").notNull().default(0),
  });

  return { channels, channelInvites, channelChatCounts };
}

/** Who came through an invite: member updates as Telegram sent them, joins, and join requests. */
function joinTables(k: Kit, { channelInvites }: Pick<ReturnType<typeof chatTables>, "channelInvites">) {
  /**
   * Every membership change of a person in a chat the bot administers, once: (chat, person, new
   * status, date) is unique, so the same update received again (a retry, another node) is dropped.
   */
  const channelMemberUpdates = k.table(
    "channel_member_updates",
    {
      id: k.id(),
      chatId: k.text("chat_id").notNull(),
      memberId: k.int("member_id").notNull(),
      status: k.text("status").notNull(),
      date: k.ts("date").notNull(),
    },
    (t) => [k.uniqueIndex("channel_member_updates_change").on(t.chatId, t.memberId, t.status, t.date)],
  );

  /**
   * The join journal of a chat: one row per join (and per leave whose join came before the bot
   * watched), with the invite it came through or why none (`via`), and when the person left.
   */
  const channelJoins = k.table(
    "channel_joins",
    {
      id: k.id(),
      chatId: k.text("chat_id").notNull(),
      memberId: k.int("member_id").notNull(),
      username: k.text("username"),
      firstName: k.text("first_name"),
      inviteId: k.int("invite_id").references(() => channelInvites.id, { onDelete: "set null" }),
      via: k.text("via", { enum: ["invite", "other_link", "folder", "request", "none"] }).notNull(),
      viaJoinRequest: k.bool("via_join_request").notNull().default(false),
      /** null for a leave of someone who joined before the bot watched the chat */
      joinedAt: k.ts("joined_at"),
      leftAt: k.ts("left_at"),
    },
    (t) => [
      k.index("channel_joins_chat_joined").on(t.chatId, t.joinedAt),
      k.index("channel_joins_member").on(t.chatId, t.memberId, t.joinedAt),
      // left_at too: an ad's figures (joins, leaves, who stayed) read from the index alone
      k.index("channel_joins_invite").on(t.inviteId, t.joinedAt, t.leftAt),
    ],
  );

  /** A request to join through an invite with join requests; `status` pending until settled. */
  const channelJoinRequests = k.table(
    "channel_join_requests",
    {
      id: k.id(),
      chatId: k.text("chat_id").notNull(),
      inviteId: k
        .int("invite_id")
        .notNull()
        .references(() => channelInvites.id, { onDelete: "cascade" }),
      memberId: k.int("member_id").notNull(),
      userChatId: k.int("user_chat_id").notNull(),
      username: k.text("username"),
      firstName: k.text("first_name"),
      requestedAt: k.ts("requested_at").notNull(),
      status: k
        .text("status", { enum: ["pending", "approved", "declined"] })
        .notNull()
        .default("pending"),
      settledAt: k.ts("settled_at"),
    },
    (t) => [
      k.uniqueIndex("channel_join_requests_once").on(t.chatId, t.memberId, t.requestedAt),
      k.index("channel_join_requests_invite").on(t.inviteId, t.status),
    ],
  );

  return { channelMemberUpdates, channelJoins, channelJoinRequests };
}
