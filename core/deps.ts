import type { Api } from "grammy";
import type { Config } from "../config";
import type { AsyncDb } from "../db/async";
import type { ClickSink } from "./clicks/sink";
import type { GeoLookup } from "./clicks/enrich";
import type { Clock } from "./clock";
import type { LinkCache } from "./redirect/link-cache";
import type { Logger } from "./log";
import type { Mailer } from "./mail";
import type { MatchHost } from "./tracking/match-host";
import type { StandingCache } from "./channels/standing";
import type { PrimaryLinkCache } from "./ads/primary-links";
import type { RevokedSessions } from "./auth/revoked-sessions";
import type { Cluster } from "./cluster";
import type { FileStorage } from "./storage";
import type { Metrics } from "./metrics";

/** What core functions receive. Built once in main.ts (or by a test) and passed down. */
export interface Deps {
  /**
   * The database, through the async seam (db/async.ts): SQLite (one connection, behind a gate) or
   * PostgreSQL (a pool) in cluster mode. Core code queries only through it.
   */
  asyncDb: AsyncDb;
  config: Config;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  /** Bot API client for direct sends (charts, exports); null when BOT_TOKEN is unset */
  telegram: Api | null;
  /** country and city of an address (GEOIP_DB), memoized; one per thread */
  geo: GeoLookup;
  /** the redirect's cache of links by code */
  linkCache: LinkCache;
  /** where the redirect puts each click (journaled and queued for the writer); main.ts starts and stops it */
  clicks: ClickSink;
  /** the keyword matcher: its thread, which holds the index of enabled trackers, and the recent posts */
  trackerIndex: MatchHost;
  /** who still runs which chat, as Telegram last said (a minute at most; chat_member updates replace it at once) */
  chatStandings: StandingCache;
  /** each channel's primary invite link as Telegram last said (for a few minutes), to know an ad post's links */
  primaryLinks: PrimaryLinkCache;
  /** the ended sign-ins, checked on every authenticated request */
  revokedSessions: RevokedSessions;
  /**
   * What the nodes of a cluster share (leases for one-node work, the change bus, shared counters and
   * settings, the update ledger): in-process implementations on SQLite, PostgreSQL ones in cluster mode.
   */
  cluster: Cluster;
  /** where uploaded files keep their bytes (FILE_STORAGE): DATA_DIR, the database or S3 */
  storage: FileStorage;
  /** this node's metrics (GET /metrics) */
  metrics: Metrics;
}
