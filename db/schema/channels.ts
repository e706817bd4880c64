import { sqliteTable, integer, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { createdAt, bool, ts } from "./columns";
import { users } from "./accounts";
import { links } from "./links";

/**
 * A channel, group or supergroup where the bot is an administrator, as one account owns it: the
 * account of the person who made the bot an administrator, or of another administrator who added
 * it. One chat may belong to several accounts (one row each).
 */
export const channels = sqliteTable("channels", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  chatId: text("chat_id").notNull(),
  type: text("type", { enum: ["channel", "group", "supergroup"] }).notNull(),
  title: text("title"),
  username: text("username"),
  members: integer("members"),
  /** the bot's can_invite_users right there */
  canInvite: bool("can_invite").notNull().default(false),
  /** false once the bot is no longer an administrator there */
  botIsAdmin: bool("bot_is_admin").notNull().default(true),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("channels_user_chat").on(t.userId, t.chatId), index("channels_chat").on(t.chatId)]);

/** The price of an ad as its buyer states it: a non-negative amount in an ISO 4217 currency. */
export interface InviteCost {
  amount: number;
  currency: string;
}

/**
 * An invite link the bot made in a channel for one account (one ad). `invite_link` is Telegram's
 * link, unique: a join that carries it belongs to this invite. `link_id` is the tracking link put in
 * front of it, if any. A revoked invite keeps its history.
 */
export const channelInvites = sqliteTable("channel_invites", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  channelId: integer("channel_id").notNull().references(() => channels.id, { onDelete: "cascade" }),
  chatId: text("chat_id").notNull(),
  name: text("name").notNull(),
  inviteLink: text("invite_link").notNull(),
  joinRequest: bool("join_request").notNull().default(false),
  approve: text("approve", { enum: ["auto", "manual"] }).notNull().default("auto"),
  welcome: text("welcome"),
  expiresAt: ts("expires_at"),
  memberLimit: integer("member_limit"),
  cost: text("cost", { mode: "json" }).$type<InviteCost>(),
  linkId: integer("link_id").references(() => links.id, { onDelete: "set null" }),
  isRevoked: bool("is_revoked").notNull().default(false),
  /** joins through the invite, and how many of those people left again (kept with the journal) */
  joins: integer("joins").notNull().default(0),
  leaves: integer("leaves").notNull().default(0),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("channel_invites_link").on(t.inviteLink), index("channel_invites_channel").on(t.channelId), index("channel_invites_user").on(t.userId), index("channel_invites_chat").on(t.chatId)]);

/**
 * Every membership change of a person in a chat the bot administers, once: (chat, person, new
 * status, date) is unique, so the same update received again (a retry, another node) is dropped.
 */
export const channelMemberUpdates = sqliteTable("channel_member_updates", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  chatId: text("chat_id").notNull(),
  memberId: integer("member_id").notNull(),
  status: text("status").notNull(),
  date: ts("date").notNull(),
}, (t) => [uniqueIndex("channel_member_updates_change").on(t.chatId, t.memberId, t.status, t.date)]);

/**
 * The join journal of a chat: one row per join (and per leave whose join came before the bot
 * watched), with the invite it came through or why none (`via`), and when the person left.
 */
export const channelJoins = sqliteTable("channel_joins", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  chatId: text("chat_id").notNull(),
  memberId: integer("member_id").notNull(),
  username: text("username"),
  firstName: text("first_name"),
  inviteId: integer("invite_id").references(() => channelInvites.id, { onDelete: "set null" }),
  via: text("via", { enum: ["invite", "other_link", "folder", "request", "none"] }).notNull(),
  viaJoinRequest: bool("via_join_request").notNull().default(false),
  /** null for a leave of someone who joined before the bot watched the chat */
  joinedAt: ts("joined_at"),
  leftAt: ts("left_at"),
}, (t) => [
  index("channel_joins_chat_joined").on(t.chatId, t.joinedAt),
  index("channel_joins_member").on(t.chatId, t.memberId, t.joinedAt),
  index("channel_joins_invite").on(t.inviteId, t.joinedAt),
]);

/** A request to join through an invite with join requests; `status` pending until settled. */
export const channelJoinRequests = sqliteTable("channel_join_requests", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  chatId: text("chat_id").notNull(),
  inviteId: integer("invite_id").notNull().references(() => channelInvites.id, { onDelete: "cascade" }),
  memberId: integer("member_id").notNull(),
  userChatId: integer("user_chat_id").notNull(),
  username: text("username"),
  firstName: text("first_name"),
  requestedAt: ts("requested_at").notNull(),
  status: text("status", { enum: ["pending", "approved", "declined"] }).notNull().default("pending"),
  settledAt: ts("settled_at"),
}, (t) => [uniqueIndex("channel_join_requests_once").on(t.chatId, t.memberId, t.requestedAt), index("channel_join_requests_invite").on(t.inviteId, t.status)]);

/**
 * Joins and leaves of a chat in total, kept with the journal in the same transaction, so that a
 * channel's figures never count the journal.
 */
export const channelChatCounts = sqliteTable("channel_chat_counts", {
  chatId: text("chat_id").primaryKey(),
  joins: integer("joins").notNull().default(0),
  leaves: integer("leaves").notNull().default(0),
});
