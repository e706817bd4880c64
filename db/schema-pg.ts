/**
 * The PostgreSQL schema of cluster mode: the tables of db/tables/ built with PostgreSQL's kit (the
 * same tables, columns and indexes as SQLite's, with the types db/kit.ts maps), plus the cluster's
 * shared state, which only PostgreSQL has.
 */
import { pgKit } from "./kit";
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
} = declareTables(pgKit);

export * from "./schema-pg/cluster";
export * from "./schema-pg/storage";
