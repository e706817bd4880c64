/**
 * The composition root: the service's dependencies (core/deps.ts) built from the configuration, once,
 * for either engine. What differs between SQLite and PostgreSQL is chosen in app/engine.ts; what
 * every node has (logger, clock, mailer, Bot API client, caches, click sink, storage, metrics) is
 * assembled here the same way for both.
 */
import { randomBytes } from "node:crypto";
import { Api } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import type { Config } from "../config";
import { systemClock, type Clock } from "../core/clock";
import type { Deps } from "../core/deps";
import { createLogger, type Logger } from "../core/log";
import { createMailer, type Mailer } from "../core/mail";
import { LinkCache } from "../core/redirect/link-cache";
import { createMatchHost } from "../core/tracking/match-host";
import { createClickSink } from "../core/clicks/sink";
import { createGeoLookup } from "../core/clicks/enrich";
import { clickJournalOf } from "../core/clicks/backlog";
import { existingHolderId } from "../core/cluster/name-fence";
import { watchJournalDisk } from "../core/clicks/journal-disk";
import type { ClickListener } from "../core/clicks/listeners";
import { createRevokedSessions } from "../core/auth/revoked-sessions";
import { StandingCache } from "../core/channels/standing";
import type { Cluster } from "../core/cluster";
import { announce, CACHE_TOPICS } from "../core/cluster/caches";
import { createFileStorage } from "../core/storage";
import { countBotApiCalls, createMetrics, type Metrics } from "../core/metrics";
import { watchService } from "../core/service-metrics";
import { openEngine, openSqliteEngine, refuseOutdated, type Engine } from "./engine";
import { CLICK_LISTENERS } from "./click-listeners";
import { prepareDataDir } from "./data-dir";
import { htmlByDefault } from "../core/delivery/parse-mode";
import { PrimaryLinkCache } from "../core/ads/primary-links";

/** The entry module of the click writer thread. */
export const CLICK_WRITER_THREAD = new URL("./click-writer-thread.ts", import.meta.url).href;

/**
 * What tests, benchmarks and the service may set instead of the defaults: the clock, the logger,
 * the mailer, the SQLite file, the click listeners (a test adds its own to the table), the click
 * journal (`null` turns it off: the redirect benchmark measures what it costs), the metrics.
 */
export type DepsOverrides = Partial<{
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  dbPath: string;
  clickListeners: readonly ClickListener[];
  journalDir: string | null;
  metrics: Metrics;
}>;

/**
 * The dependencies on `engine`, with the engine itself and its handles: its close and migrations,
 * and on SQLite the synchronous handle of the connection.
 */
export type AssembledDeps<E extends Engine = Engine> = Deps & { engine: E; handle: E["handle"]; db: E["db"] };

/**
 * What `openDeps` gives: the dependencies and the one thing to close when the process stops; on
 * SQLite also the synchronous handle of the connection (the click writer's).
 */
export type ServiceDeps = AssembledDeps;

/**
 * Builds the service's dependencies on an open engine. `cluster` is given when the caller built the
 * engine's cluster primitives already (openDeps reads the shared JWT secret through them first).
 */
function assembleDeps<E extends Engine>(
  config: Config,
  engine: E,
  overrides: DepsOverrides & { cluster?: Cluster } = {},
): AssembledDeps<E> {
  const log = overrides.log ?? createLogger(config.logLevel, undefined, config.logFormat, config.nodeName);
  for (const name of engine.handle.migrated) log.info(`migration ${name} applied`);
  const clock = overrides.clock ?? systemClock;
  const metrics = overrides.metrics ?? createMetrics();
  const telegram = config.botToken ? new Api(config.botToken, { apiRoot: config.botApiRoot }) : null;
  // counted first, so that every attempt is (the retries below included)
  telegram?.config.use(countBotApiCalls(metrics));
  // 429s wait retry_after (up to 30 s) and retry; network and 5xx failures surface at once as clear errors
  telegram?.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowHttpErrors: true, rethrowInternalServerErrors: true }));
  telegram?.config.use(htmlByDefault);
  const journal = clickJournalOf(config);
  const { asyncDb } = engine;
  const deps: AssembledDeps<E> = {
    engine,
    handle: engine.handle,
    db: engine.db,
    asyncDb,
    config,
    clock,
    log,
    mailer: overrides.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log }),
    telegram,
    geo: createGeoLookup(config),
    linkCache: new LinkCache(clock),
    trackerIndex: createMatchHost(() => deps.asyncDb, log),
    // a standing Telegram reported changed is announced, so every node asks Telegram again
    chatStandings: new StandingCache(clock, (key) => announce(deps, CACHE_TOPICS.chatStandings, key)),
    primaryLinks: new PrimaryLinkCache(),
    clicks: createClickSink({
      log,
      config,
      // made on first use: with the writer thread running, replay and the fallback are its only uses
      writer: () => engine.clickWriter(deps, overrides.clickListeners ?? CLICK_LISTENERS, journal.name, existingHolderId(journal.dir)),
      // null only in the redirect benchmark's comparison run: clicks then wait in memory for the writer
      journalDir: overrides.journalDir !== undefined ? overrides.journalDir : journal.dir,
      threadEntry: CLICK_WRITER_THREAD,
      written: clicksCounted(metrics),
    }),
    // an ended sign-in is announced on the change bus, so every node's cached set is read again
    revokedSessions: createRevokedSessions(asyncDb, (ids) => announce(deps, CACHE_TOPICS.revokedSessions, ids.join(","))),
    cluster: overrides.cluster ?? engine.cluster(clock),
    storage: createFileStorage(config, { sql: engine.pg?.sql, now: () => clock.now() }),
    metrics,
  };
  watchService(deps, metrics, engine.pg);
  watchJournalDisk(journal.dir, clock, metrics);
  return deps;
}

/** The service's dependencies on SQLite, synchronously (tests, benchmarks and scripts that want a database file at hand). */
export function createDeps(given: Config, overrides: DepsOverrides = {}) {
  const config = prepareDataDir(given);
  return assembleDeps(config, openSqliteEngine(config, { migrate: config.migrate === "auto", dbPath: overrides.dbPath }), overrides);
}

/**
 * The service's dependencies for its configuration: on SQLite (no DATABASE_URL) or on the
 * PostgreSQL database at DATABASE_URL (app/engine.ts), with the JWT secret every node shares: on
 * one node the one kept in DATA_DIR (data-dir.ts); in cluster mode JWT_SECRET when set, otherwise made
 * by the first node to start and kept in the database, so a token signed by one node is accepted by all.
 */
export async function openDeps(given: Config, overrides: DepsOverrides = {}): Promise<ServiceDeps> {
  const config = prepareDataDir(given);
  const clock = overrides.clock ?? systemClock;
  const engine = await openEngine(config, { migrate: config.migrate === "auto", dbPath: overrides.dbPath });
  if (config.migrate === "skip") await refuseOutdated(engine);
  const cluster = engine.cluster(clock);
  const jwtSecret = config.jwtSecret || (await cluster.settings.getOrCreate("jwt-secret", () => randomBytes(48).toString("base64url")));
  return assembleDeps(jwtSecret === config.jwtSecret ? config : { ...config, jwtSecret }, engine, { ...overrides, clock, cluster });
}

/** A click writer on `deps`' engine (its connection), fed with the listener table; the benchmarks write through it. */
export function clickWriterOf(deps: ServiceDeps, listeners: readonly ClickListener[] = CLICK_LISTENERS) {
  return deps.engine.clickWriter(deps, listeners, clickJournalOf(deps.config).name);
}

/** The click sink's report of what its writer did, as the node's counters. */
const clicksCounted = (metrics: Metrics) => ({
  written: (n: number) => metrics.clicksWritten.inc(n),
  dropped: (n: number) => metrics.clicksDropped.inc(n),
});
