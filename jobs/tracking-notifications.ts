import type { Deps } from "../core/deps";
import { flushTrackerNotifications } from "../core/tracking/notify";
import { flushTrackerDigests } from "../core/tracking/digests";

/** How often grouped keyword-match notifications are flushed (main.ts schedules it). */
export const TRACKING_NOTIFICATIONS_CRON = "*/10 * * * * *";

/** Queues the grouped bot message of every owner whose burst window has closed, and the digests of the hours and days that ended. */
export async function trackingNotificationsJob(deps: Deps): Promise<void> {
  const sent = await flushTrackerNotifications(deps);
  if (sent) deps.log.debug(`tracking: ${sent} grouped notification(s) queued`);
  const digests = await flushTrackerDigests(deps);
  if (digests) deps.log.debug(`tracking: ${digests} digest(s) queued`);
}
