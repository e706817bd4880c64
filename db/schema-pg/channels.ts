import { pgTable, text, uniqueIndex, index } from "drizzle-orm/pg-core";
import { int, id, createdAt, bool } from "./columns";
import { users } from "./accounts";

export const channels = pgTable("channels", {
  id: id(),
  userId: int("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  chatId: text("chat_id").notNull(),
  type: text("type", { enum: ["channel", "group", "supergroup"] }).notNull(),
  title: text("title"),
  username: text("username"),
  members: int("members"),
  canInvite: bool("can_invite").notNull().default(false),
  botIsAdmin: bool("bot_is_admin").notNull().default(true),
  createdAt: createdAt(),
}, (t) => [uniqueIndex("channels_user_chat").on(t.userId, t.chatId), index("channels_chat").on(t.chatId)]);
