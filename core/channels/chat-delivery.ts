import type { TopicHandler } from "../delivery/topics";
import { AppError } from "../errors";
import { confirmPowers } from "./powers";

/**
 * Outbox topics that may post into one of the account's chats (a tracker's notify_via "chat", its
 * digest, its test message): checked before each attempt that the account still runs that chat.
 * A message for someone who no longer does is cancelled; when Telegram cannot confirm it, the
 * attempt fails and is retried later, never sent unconfirmed. A message to the owner's own private
 * chat (a positive id) needs no check.
 */
export const intoOwnedChat: TopicHandler = {
  async stillWanted(deps, row) {
    if (!row.target.startsWith("-") || row.userId === null) return true;
    try {
      await confirmPowers(deps, row.userId, row.target);
      return true;
    } catch (e) {
      if (e instanceof AppError && e.status === 403) {
        deps.log.info(`delivery ${row.deliveryId}: not posted into ${row.target}: ${e.message}`);
        return false;
      }
      throw e;
    }
  },
};

/** The topics that can post into a chat. */
export const CHAT_TOPICS = ["tracker_chat", "tracker_digest", "tracker_test"] as const;
