import type { Deps } from "../core/deps";
import { refreshMemberCounts } from "../core/tracking/sources";

/** Daily: member counts of the bot's sources (filter_min_subscribers compares them). */
export const TRACKING_SOURCES_CRON = "40 3 * * *";

export async function trackingSourcesJob(deps: Deps): Promise<void> {
  const api = deps.telegram;
  if (!api) return;
  const changed = await refreshMemberCounts(deps, "bot", (chatId) => api.getChatMemberCount(chatId));
  deps.log.info(`tracking: member counts refreshed, ${changed} changed`);
}
