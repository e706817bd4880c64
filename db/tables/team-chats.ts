import type { Kit } from "../kit";
import type { accountTables } from "./accounts";

export function teamChatTables(k: Kit, { users }: Pick<ReturnType<typeof accountTables>, "users">) {
  /**
   * The Telegram group connected to a team workspace (`/connect` in the group), and the forum topic
   * when it was sent in one: where the workspace's reports, alerts, tracker notifications and join
   * requests go instead of its admins' private chats. One per workspace; connecting another replaces it.
   */
  const teamChats = k.table("team_chats", {
    workspaceId: k
      .int("workspace_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    chatId: k.text("chat_id").notNull(),
    /** the forum topic messages go into; null: the group itself (its General topic in a forum) */
    threadId: k.int("thread_id"),
    title: k.text("title"),
    /** the language messages into the group are written in: that of who connected it */
    language: k.text("language", { enum: ["en", "ru"] }).notNull(),
    connectedBy: k.int("connected_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: k.createdAt(),
  });
  return { teamChats };
}
