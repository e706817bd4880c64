import { sqliteTable, integer, text, uniqueIndex, index } from "drizzle-orm/sqlite-core";
import { createdAt, bool } from "./columns";
import { users } from "./accounts";

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
