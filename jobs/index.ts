import type { Deps } from "../core/deps";
import { cleanupExpired } from "./cleanup";
import { pruneOrphanVisits } from "../core/redirect/orphans";
import { TRACKING_NOTIFICATIONS_CRON, trackingNotificationsJob } from "./tracking-notifications";
import { TRACKING_SOURCES_CRON, trackingSourcesJob } from "./tracking-sources";
import { reverifyDomains } from "../core/catalog/domains";
import { CHANNEL_MEMBERS_CRON, channelMembersJob } from "./channel-members";
import { sendDueReports } from "../core/reports/report";
import { pruneSeenTexts } from "../core/tracking/ingest";
import { releaseAbandonedUploads } from "../core/secure/request-items";

export interface Job {
  name: string;
  /** cron pattern (croner syntax, server time zone) */
  pattern: string;
  run(deps: Deps): unknown | Promise<unknown>;
}

/** Periodic jobs. main.ts schedules every entry with croner; add yours here. */
export const JOBS: Job[] = [
  { name: "cleanup-expired", pattern: "*/15 * * * *", run: cleanupExpired },
  { name: "prune-orphan-visits", pattern: "17 3 * * *", run: pruneOrphanVisits },
  { name: "reverify-domains", pattern: "43 4 * * *", run: reverifyDomains },
  { name: "tracking-notifications", pattern: TRACKING_NOTIFICATIONS_CRON, run: trackingNotificationsJob },
  { name: "tracking-sources", pattern: TRACKING_SOURCES_CRON, run: trackingSourcesJob },
  // texts skip_reposts trackers matched over 24 h ago (a copy of them matches again anyway)
  { name: "prune-seen-texts", pattern: "23 * * * *", run: pruneSeenTexts },
  { name: "channel-members", pattern: CHANNEL_MEMBERS_CRON, run: channelMembersJob },
  // request-link uploads a crash cut off: their empty files go and their slots come back
  { name: "release-abandoned-uploads", pattern: "* * * * *", run: releaseAbandonedUploads },
  // daily and weekly reports: each user's at the hour of their day they chose
  { name: "reports", pattern: "* * * * *", run: sendDueReports },
  // ended windows of rate limits and password attempts (in memory on one node, rows in a cluster)
  { name: "sweep-counters", pattern: "*/5 * * * *", run: (deps) => deps.cluster.counters.sweep(deps.clock.now()) },
  // webhook-mode updates seen over a day ago (Telegram stops sending an update again by then)
  {
    name: "sweep-updates",
    pattern: "41 * * * *",
    run: (deps) => deps.cluster.updates.sweep(new Date(deps.clock.now().getTime() - 86_400_000)),
  },
];
