import type { Deps } from "../core/deps";
import { refreshChannelMembers } from "../core/channels/ownership";

/** Hourly: the member counts of the chats the bot administers (channel figures show them). */
export const CHANNEL_MEMBERS_CRON = "23 * * * *";

export async function channelMembersJob(deps: Deps): Promise<void> {
  const api = deps.telegram;
  if (!api) return;
  const changed = await refreshChannelMembers(deps, (chatId) => api.getChatMemberCount(chatId));
  deps.log.info(`channels: member counts refreshed, ${changed} chats changed`);
}
