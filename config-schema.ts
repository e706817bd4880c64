/**
 * Every environment variable the service reads, once: its name, the type of its value, its default
 * and what it means. `readEnvironment` turns the strings of an environment into these values and
 * checks each against its entry; a bad value throws a ConfigError whose one line names the variable.
 * config.ts builds the Config from the result (defaults that follow other variables, the rules that
 * tie several together). README's configuration table lists exactly these variables (a test holds it).
 */
import { FormatRegistry, Type, type Static, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

export type Env = Record<string, string | undefined>;

/**
 * An absolute http(s) base that paths are put after: written with `//` (`http:host` parses, but is
 * not what anyone means), a host, and no query or fragment (`https://x.example/?ref=1` would make
 * every link `…/?ref=1/abc1234`).
 */
FormatRegistry.Set("http-url", (v) => {
  try {
    const u = new URL(v);
    return (
      ["http:", "https:"].includes(u.protocol) &&
      /^https?:\/\/[^/?#]/i.test(v) &&
      !u.search &&
      !u.hash &&
      !v.includes("#") &&
      !v.includes("?")
    );
  } catch {
    return false;
  }
});

/**
 * Annotations an entry may carry besides TypeBox's own: `expected` says what a good value looks like
 * (the message adds the value given); `problem` is the whole message for a value that is not echoed
 * (it holds a secret); `anyCase` accepts an enum's words in any case; `shownDefault` is the default
 * as README states it when it follows something else (the host name, another variable).
 */
interface Notes {
  description: string;
  expected?: string;
  problem?: string;
  anyCase?: true;
  shownDefault?: string;
}

const text = (notes: Notes & { pattern?: string; minLength?: number; default?: string }) => Type.Optional(Type.String(notes));
const httpUrl = (notes: Notes & { default?: string }) =>
  Type.Optional(Type.String({ format: "http-url", expected: "expected an absolute http(s) URL without a query or fragment", ...notes }));
const whole = (minimum: number, maximum: number, notes: Notes & { default?: number }) =>
  Type.Optional(Type.Integer({ minimum, maximum, ...notes }));
const flag = (notes: Notes & { default: boolean }) => Type.Optional(Type.Boolean(notes));
const oneOf = <const W extends readonly [string, ...string[]]>(words: W, notes: Notes & { default?: W[number] }) =>
  Type.Optional(
    Type.Unsafe<W[number]>(
      Type.Union(
        words.map((w) => Type.Literal(w)),
        notes,
      ),
    ),
  );

export const ENV_SCHEMA = Type.Object({
  HOST: text({ default: "0.0.0.0", description: "listen address" }),
  PORT: whole(0, 65535, { default: 3000, description: "listen port" }),
  BASE_URL: httpUrl({ shownDefault: "http://localhost:$PORT", description: "public base of the API and mini-app" }),
  SHORT_URL: httpUrl({ shownDefault: "BASE_URL", description: "base of short links and secure links" }),
  DATA_DIR: text({ default: "./data", description: "SQLite database, stored files, the generated JWT secret" }),
  BOT_TOKEN: text({
    pattern: "^\\d+:[A-Za-z0-9_-]{20,}$",
    problem: "does not look like a bot token (digits:secret)",
    description: "Telegram bot token; unset: no bot",
  }),
  BOT_API_ROOT: httpUrl({ default: "https://api.telegram.org", description: "Bot API root" }),
  TELEGRAM_WEB_URL: httpUrl({ default: "https://t.me", description: "Telegram's public web preview of posts" }),
  META_GRAPH_URL: httpUrl({ default: "https://graph.facebook.com", description: "Meta's Graph API (Conversions API events)" }),
  BOT_MODE: oneOf(["polling", "webhook"], { default: "polling", description: "how the bot receives updates" }),
  JWT_SECRET: text({
    minLength: 32,
    problem: "must be at least 32 characters",
    shownDefault: "generated once into DATA_DIR/jwt-secret",
    description: "signing key for access tokens",
  }),
  SMTP_URL: text({
    pattern: "^smtps?://",
    problem: "expected smtp://user:pass@host:port or smtps://…",
    description: "mail for one-time codes; unset: codes are written to the log",
  }),
  MAIL_FROM: text({ default: "no-reply@localhost", description: "sender of mail" }),
  TRUST_PROXY: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 20 }), Type.Boolean()], {
      default: false,
      expected: "expected true, false or the number of proxies in front (0 to 20)",
      description: "how many proxies in front append to X-Forwarded-For (true = 1)",
    }),
  ),
  WEBHOOK_ALLOW_PRIVATE: flag({ default: false, description: "let webhooks target loopback and private addresses (tests)" }),
  WEBHOOK_RETRY_DELAYS: text({
    default: "0,2,5,15,30",
    pattern: "^\\s*\\d+(\\.\\d+)?\\s*(,\\s*\\d+(\\.\\d+)?\\s*)*$",
    expected: "expected comma-separated seconds",
    description: "seconds before each retry of a failed webhook",
  }),
  WEBHOOK_TIMEOUT_MS: whole(100, 60_000, { default: 5000, description: "how long a webhook target has to answer" }),
  PLAN_LIMITS: text({ shownDefault: "built-in table", description: "JSON per plan, merged over the defaults" }),
  GEOIP_DB: text({ shownDefault: "the shipped DB-IP City Lite files", description: "path to an .mmdb city database" }),
  LOG_LEVEL: oneOf(["debug", "info", "warn", "error"], { default: "info", description: "the least level logged" }),
  LOG_FORMAT: oneOf(["json", "pretty"], {
    anyCase: true,
    shownDefault: "pretty when stdout is a terminal, else json",
    description: "how log lines are written",
  }),
  PRIVACY_IP: oneOf(["full", "truncate", "none"], {
    default: "full",
    anyCase: true,
    description: "what a click keeps of the visitor's address",
  }),
  RATE_LIMIT_API: whole(1, 1_000_000, { default: 300, description: "requests per window on /api per account" }),
  RATE_LIMIT_AUTH: whole(1, 1_000_000, { default: 10, description: "requests per window per IP on sign-in and code endpoints" }),
  RATE_LIMIT_WINDOW: whole(1, 86_400, { default: 60, description: "the rate limits' window in seconds" }),
  DATABASE_URL: text({ description: "PostgreSQL of cluster mode; unset: SQLite under DATA_DIR" }),
  FILE_STORAGE: oneOf(["local", "postgres", "s3"], {
    anyCase: true,
    shownDefault: "local without DATABASE_URL, postgres with it",
    description: "where uploaded files keep their bytes",
  }),
  S3_ENDPOINT: httpUrl({ description: "the S3-compatible service's URL; unset: AWS S3" }),
  S3_BUCKET: text({
    pattern: "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$",
    expected: 'expected a bucket name (3-63 lower-case letters, digits, "." and "-")',
    description: "the bucket for FILE_STORAGE=s3",
  }),
  S3_REGION: text({
    default: "us-east-1",
    pattern: "^[a-z0-9-]{1,40}$",
    expected: "expected a region such as us-east-1 or auto",
    description: "the bucket's region",
  }),
  S3_ACCESS_KEY_ID: text({ description: "the bucket's access key" }),
  S3_SECRET_ACCESS_KEY: text({ description: "the bucket's secret key (never echoed)" }),
  NODE_NAME: text({
    pattern: "^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$",
    problem: 'must be 1-64 letters, digits, ".", "_" or "-", not starting with "."',
    shownDefault: "the host name",
    description: "this node's name in a cluster",
  }),
  JOURNAL_DIR: text({ shownDefault: "DATA_DIR/click-journal", description: "where the click journal lives (a local disk)" }),
  JOURNAL_MEMORY_CLICKS: whole(1000, 10_000_000, { default: 200_000, description: "clicks waiting for the database held in memory" }),
  DRAIN_SECONDS: whole(0, 60, { shownDefault: "5 with DATABASE_URL, else 0", description: "seconds served with /readyz at 503 on a stop" }),
  METRICS_TOKEN: text({ minLength: 16, problem: "must be at least 16 characters", description: "the bearer token GET /metrics asks for" }),
  MIGRATE: oneOf(["auto", "skip"], { default: "auto", anyCase: true, description: "whether a start applies pending migrations" }),
  PG_POOL_SIZE: whole(1, 1000, { default: 10, description: "connections in the node's PostgreSQL pool" }),
  DNS_SERVERS: text({ shownDefault: "the system's", description: "ip:port resolvers for custom-domain verification" }),
  MTPROTO_API_ID: whole(1, 2 ** 31, { description: "MTProto source for keyword tracking: the application's id" }),
  MTPROTO_API_HASH: text({ description: "MTProto source: the application's hash" }),
  MTPROTO_SESSION: text({ default: "", description: "MTProto source: the saved session" }),
});

export type EnvValues = Static<typeof ENV_SCHEMA>;
export type EnvName = keyof EnvValues;
export const ENV_NAMES = Object.keys(ENV_SCHEMA.properties) as EnvName[];

type Entry = TSchema & Partial<Notes> & { minimum?: number; maximum?: number; anyOf?: Entry[]; const?: unknown };

/** An environment value: unset when absent or blank, else trimmed. */
export function given(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

const words = (list: unknown[]) => (list.length < 2 ? String(list[0]) : `${list.slice(0, -1).join(", ")} or ${list.at(-1)}`);

/** The string as the type its entry wants; a value that cannot be one is left as it is (the check then refuses it). */
function typed(entry: Entry, raw: string): unknown {
  const kinds = entry.anyOf ? entry.anyOf.map((b) => b.type) : [entry.type];
  if (kinds.includes("integer") && /^\d+$/.test(raw)) return Number(raw);
  if (kinds.includes("boolean")) {
    if (["true", "1", "yes"].includes(raw.toLowerCase())) return true;
    if (["false", "0", "no"].includes(raw.toLowerCase())) return false;
  }
  return entry.anyCase ? raw.toLowerCase() : raw;
}

function problemOf(entry: Entry, raw: string): string {
  if (entry.problem) return entry.problem;
  const got = `, got "${raw}"`;
  if (entry.expected) return entry.expected + got;
  if (entry.type === "integer") return `expected a whole number from ${entry.minimum} to ${entry.maximum}${got}`;
  if (entry.type === "boolean") return `expected true or false${got}`;
  if (entry.anyOf) return `expected ${words(entry.anyOf.map((b) => b.const))}${got}`;
  return `is invalid${got}`;
}

/** The environment's values of every entry, each checked against it (defaults filled in where they are fixed). */
export function readEnvironment(env: Env): EnvValues {
  const values: Record<string, unknown> = {};
  for (const name of ENV_NAMES) {
    const entry = ENV_SCHEMA.properties[name] as Entry;
    const raw = given(env, name);
    if (raw === undefined) {
      if (entry.default !== undefined) values[name] = entry.default;
      continue;
    }
    const value = typed(entry, raw);
    if (!Value.Check(entry, value)) throw new ConfigError(name, problemOf(entry, raw));
    values[name] = value;
  }
  return values as EnvValues;
}
