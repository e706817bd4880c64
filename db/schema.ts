/**
 * The SQLite schema: the tables of db/tables/ built with SQLite's kit. Every table is declared
 * there once; this list only names them for drizzle-kit and for imports (a test holds it to the
 * declaration).
 */
import { sqliteKit } from "./kit";
import { declareTables } from "./tables";

export const {
  users,
  identities,
  emailCodes,
  refreshTokens,
  apiTokens,
  passkeys,
  webauthnChallenges,
  revokedSessions,
  emailCodeFailures,
  userSettings,
  tags,
  pixels,
  domains,
  links,
  linkTags,
  linkPixels,
  userAgents,
  clicks,
  clickVisitors,
  linkTombstones,
  orphanVisitDays,
  clickJournal,
  linkStatsTime,
  linkStatsDim,
  secureFolders,
  secureFiles,
  secureLinks,
  secureRequests,
  trackers,
  trackingSources,
  trackerMatches,
  trackerSeenTexts,
  forumTopics,
  channels,
  channelInvites,
  channelMemberUpdates,
  channelJoins,
  channelJoinRequests,
  channelRequestNotices,
  channelChatCounts,
  placements,
  placementLinks,
  placementInvites,
  placementViews,
  outbox,
  botKv,
  webhookSecrets,
  conversions,
  postbackKeys,
  postbacks,
  workspaceMembers,
  workspaceInvites,
  auditLog,
  teamChats,
} = declareTables(sqliteKit);

export type { InviteCost } from "./tables/channels";
export type LinkRow = typeof links.$inferSelect;
export type ClickRow = typeof clicks.$inferSelect;
export type NewClick = typeof clicks.$inferInsert;
