import type { Kit } from "../kit";
import type { accountTables } from "./accounts";
import type { channelTables } from "./channels";

export function requestNoticeTables(
  k: Kit,
  { users, channels }: Pick<ReturnType<typeof accountTables>, "users"> & Pick<ReturnType<typeof channelTables>, "channels">,
) {
  /**
   * The one message in an account's chat that tells of a channel's waiting join requests (the newest
   * sent): edited as they are settled from anywhere, replaced when another comes, gone once none wait.
   */
  const channelRequestNotices = k.table(
    "channel_request_notices",
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
      messageId: k.int("message_id").notNull(),
      createdAt: k.createdAt(),
    },
    (t) => [k.uniqueIndex("channel_request_notices_channel").on(t.userId, t.channelId)],
  );
  return { channelRequestNotices };
}
