import { Api } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import type { Config } from "../config";
import type { Db, DbHandle } from "../db/client";
import { openSqlite } from "../db/async-sqlite";
import { systemClock, type Clock } from "../core/clock";
import type { Deps } from "../core/deps";
import { createLogger, type Logger } from "../core/log";
import { createMailer, type Mailer } from "../core/mail";
import { LinkCache } from "../core/links/link-cache";
import { createTrackerIndexCache } from "../core/tracking/index-cache";
import { createClickSink } from "../core/clicks/sink";
import { createClickWriter } from "../core/clicks/writer";
import { createGeoLookup } from "../core/clicks/enrich";
import type { ClickListener } from "../core/clicks/listeners";
import { CLICK_LISTENERS } from "./click-listeners";
import { join } from "node:path";
import { createPrivateFile, lockDownDataDir } from "../core/data-dir";
import { createRevokedSessions } from "../core/auth/revoked-sessions";
import { createLocalCluster, createPgCluster } from "../core/cluster";
import { createPgClickWriter } from "../core/clicks/writer-pg";
import { createPgDb } from "../db/postgres";
import { createAsyncPg } from "../db/async-pg";
import * as schemaPg from "../db/schema-pg";
import type { Tables } from "../db/async";
import { randomBytes } from "node:crypto";
import { announce, CACHE_TOPICS } from "../core/cluster/caches";
import { createFileStorage } from "../core/storage";
import { countBotApiCalls, createMetrics, type Metrics } from "../core/metrics";
import { watchService } from "../core/service-metrics";
import { applicationNameOf, nodeDatabaseUrl } from "../db/postgres";
import { pendingMigrations } from "../db/migrations-state";

/** Where the click journal lives under DATA_DIR unless JOURNAL_DIR says otherwise. */
export const CLICK_JOURNAL_DIR = "click-journal";

/**
 * This process's click journal: on one node JOURNAL_DIR (default DATA_DIR/click-journal) with the
 * writer's mark `local`; in cluster mode a directory and a mark per node (NODE_NAME) under it, so
 * each node replays only what it journaled and its mark says only what it committed.
 */
export function clickJournalOf(config: Pick<Config, "journalDir" | "databaseUrl" | "nodeName">): { dir: string; name: string } {
  if (config.databaseUrl === null) return { dir: config.journalDir, name: "local" };
  return { dir: join(config.journalDir, config.nodeName), name: `node:${config.nodeName}` };
}
/** The entry module of the click writer thread. */
export const CLICK_WRITER_THREAD = new URL("./click-writer-thread.ts", import.meta.url).href;

/**
 * Wires the core dependencies from configuration. Tests pass overrides (clock, logger, mailer, db
 * path, and the click listeners when a test adds its own to the table); the redirect benchmark turns
 * the click journal off (`journalDir: null`) to measure what it costs.
 */
export function createDeps(
  config: Config,
  overrides: Partial<{ clock: Clock; log: Logger; mailer: Mailer; dbPath: string; clickListeners: readonly ClickListener[]; journalDir: string | null; metrics: Metrics }> = {},
): Deps & { db: Db; handle: DbHandle } {
  const log = overrides.log ?? createLogger(config.logLevel, undefined, config.logFormat);
  lockDownDataDir(config.dataDir);
  const dbPath = overrides.dbPath ?? join(config.dataDir, "app.db");
  if (dbPath !== ":memory:") createPrivateFile(dbPath);
  const { handle, seam } = openSqlite(dbPath, { migrate: config.migrate === "auto" });
  for (const name of handle.migrated) log.info(`migration ${name} applied`);
  // -wal and -shm of an existing database may have been made before its mode was tightened
  lockDownDataDir(config.dataDir);
  const metrics = overrides.metrics ?? createMetrics();
  const telegram = config.botToken ? new Api(config.botToken, { apiRoot: config.botApiRoot }) : null;
  // counted first, so that every attempt is (the retries below included)
  telegram?.config.use(countBotApiCalls(metrics));
  // 429s wait retry_after (up to 30 s) and retry; network and 5xx failures surface at once as clear errors
  telegram?.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowHttpErrors: true, rethrowInternalServerErrors: true }));
  const clock = overrides.clock ?? systemClock;
  const deps: Deps & { db: Db; handle: DbHandle } = {
    handle,
    db: handle.db,
    asyncDb: seam.db,
    config,
    clock,
    log,
    mailer: overrides.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log }),
    telegram,
    geo: createGeoLookup(config),
    linkCache: new LinkCache(clock),
    trackerIndex: createTrackerIndexCache(),
    clicks: createClickSink({
      log,
      config,
      // made on first use: the writer thread's own deps never write through their sink
      writer: () => createClickWriter(deps, overrides.clickListeners ?? CLICK_LISTENERS, { journal: clickJournalOf(config).name }),
      // null only in the redirect benchmark's comparison run: clicks then wait in memory for the writer
      journalDir: overrides.journalDir !== undefined ? overrides.journalDir : clickJournalOf(config).dir,
      threadEntry: CLICK_WRITER_THREAD,
      written: clicksCounted(metrics),
    }),
    // an ended sign-in is announced on the change bus, so every node's cached set is read again
    revokedSessions: createRevokedSessions(seam.db, (ids) => announce(deps, CACHE_TOPICS.revokedSessions, ids.join(","))),
    cluster: createLocalCluster({ dataDir: config.dataDir, clock }),
    storage: createFileStorage(config, { now: () => clock.now() }),
    metrics,
  };
  watchService(deps, metrics);
  return deps;
}

/**
 * What `openDeps` gives: the dependencies and the one thing to close when the process stops; on
 * SQLite also the synchronous handle of the connection (the click writer's).
 */
export type ServiceDeps = Deps & { handle: { close(): void | Promise<void>; migrated: string[] }; db?: Db };

type DepsOverrides = Parameters<typeof createDeps>[1];

/**
 * The service's dependencies for its configuration: on SQLite (no DATABASE_URL) what `createDeps`
 * builds; in cluster mode the PostgreSQL database at DATABASE_URL (migrated first, under the
 * migration lock), the PostgreSQL cluster primitives, the PostgreSQL click writer, and the JWT
 * secret every node shares (JWT_SECRET when set; otherwise made by the first node to start and kept
 * in the database, so a token signed by one node is accepted by all).
 */
export async function openDeps(config: Config, overrides: DepsOverrides = {}): Promise<ServiceDeps> {
  if (config.databaseUrl !== null) return createClusterDeps(config, config.databaseUrl, overrides);
  const deps = createDeps(config, overrides);
  await refuseOutdated(config, deps.asyncDb, () => deps.handle.close());
  return deps;
}

/** With MIGRATE=skip, a node does not run on a database older than its code: it says which migrations it lacks. */
async function refuseOutdated(config: Config, db: Deps["asyncDb"], close: () => void | Promise<void>): Promise<void> {
  if (config.migrate !== "skip") return;
  let pending: string[];
  try {
    pending = await pendingMigrations(db);
  } catch (e) {
    await close();
    throw e;
  }
  if (!pending.length) return;
  await close();
  throw new Error(`it lacks ${pending.length} migration(s) this build ships (${pending.join(", ")}); run "bun run cli migrate" first, or start with MIGRATE=auto`);
}

async function createClusterDeps(config: Config, url: string, overrides: DepsOverrides = {}): Promise<ServiceDeps> {
  const log = overrides.log ?? createLogger(config.logLevel, undefined, config.logFormat);
  lockDownDataDir(config.dataDir);
  const metrics = overrides.metrics ?? createMetrics();
  // every connection names the node (application_name), so the server can count them
  url = nodeDatabaseUrl(url, config.nodeName);
  const handle = await createPgDb(url, { max: config.pgPoolSize, migrate: config.migrate === "auto" });
  for (const name of handle.migrated) log.info(`migration ${name} applied`);
  const asyncDb = createAsyncPg<Tables>(handle.db, schemaPg as unknown as Record<keyof Tables, unknown>);
  await refuseOutdated(config, asyncDb, () => handle.close());
  const clock = overrides.clock ?? systemClock;
  const cluster = createPgCluster({ url, handle, clock });
  const jwtSecret = config.jwtSecret || (await cluster.settings.getOrCreate("jwt-secret", () => randomBytes(48).toString("base64url")));
  const shared: Config = { ...config, jwtSecret };
  const telegram = shared.botToken ? new Api(shared.botToken, { apiRoot: shared.botApiRoot }) : null;
  telegram?.config.use(countBotApiCalls(metrics));
  telegram?.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowHttpErrors: true, rethrowInternalServerErrors: true }));
  const journal = clickJournalOf(shared);
  const deps: ServiceDeps = {
    asyncDb,
    config: shared,
    clock,
    log,
    mailer: overrides.mailer ?? createMailer({ smtpUrl: shared.smtpUrl, from: shared.mailFrom, log }),
    telegram,
    geo: createGeoLookup(shared),
    linkCache: new LinkCache(clock),
    trackerIndex: createTrackerIndexCache(),
    clicks: createClickSink({
      log,
      config: shared,
      writer: () => createPgClickWriter(deps, overrides.clickListeners ?? CLICK_LISTENERS, { journal: journal.name }),
      journalDir: overrides.journalDir !== undefined ? overrides.journalDir : journal.dir,
      threadEntry: CLICK_WRITER_THREAD,
      written: clicksCounted(metrics),
    }),
    revokedSessions: createRevokedSessions(asyncDb, (ids) => announce(deps, CACHE_TOPICS.revokedSessions, ids.join(","))),
    cluster,
    storage: createFileStorage(shared, { sql: handle.sql, now: () => clock.now() }),
    handle: { close: () => handle.close(), migrated: handle.migrated },
    metrics,
  };
  watchService(deps, metrics, { sql: handle.sql, applicationName: applicationNameOf(config.nodeName) });
  return deps;
}

/** The click sink's report of what its writer did, as the node's counters. */
const clicksCounted = (metrics: Metrics) => ({ written: (n: number) => metrics.clicksWritten.inc(n), dropped: (n: number) => metrics.clicksDropped.inc(n) });

/** The click writer for `deps`' database: SQLite's on its connection, or PostgreSQL's. */
export function clickWriterOf(deps: ServiceDeps, listeners: readonly ClickListener[] = CLICK_LISTENERS) {
  const journal = clickJournalOf(deps.config).name;
  return deps.db ? createClickWriter({ ...deps, db: deps.db }, listeners, { journal }) : createPgClickWriter(deps, listeners, { journal });
}
