/**
 * Readers of single environment variables for config.ts: each takes the environment it is given
 * (never the process environment itself), checks one variable and throws a ConfigError naming it.
 */
import { hostname } from "node:os";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import type { Config } from "./config";

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

export type Env = Record<string, string | undefined>;

export function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (["true", "1", "yes"].includes(v.toLowerCase())) return true;
  if (["false", "0", "no"].includes(v.toLowerCase())) return false;
  throw new ConfigError(name, `expected true or false, got "${v}"`);
}

export function proxyCount(env: Env): number {
  const v = str(env, "TRUST_PROXY");
  if (v !== undefined && /^\d+$/.test(v)) return int(env, "TRUST_PROXY", 0, 0, 20);
  try {
    return bool(env, "TRUST_PROXY", false) ? 1 : 0;
  } catch {
    throw new ConfigError("TRUST_PROXY", `expected true, false or the number of proxies in front (0 to 20), got "${v}"`);
  }
}

/** DNS_SERVERS: comma-separated `ip`, `ip:port` or `[ipv6]:port`, each checked to be an IP address. */
export function dnsServers(env: Env): string[] | null {
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

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${v}"`);
  return Number(v);
}

export function url(env: Env, name: string, fallback: string): string {
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
export function databaseUrl(env: Env): string | null {
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
export function nodeName(env: Env): string {
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
export function migrateMode(env: Env): Config["migrate"] {
  const v = (str(env, "MIGRATE") ?? "auto").toLowerCase();
  if (v !== "auto" && v !== "skip") throw new ConfigError("MIGRATE", `expected auto or skip, got "${str(env, "MIGRATE")}"`);
  return v;
}

/** METRICS_TOKEN: unset, or a secret of at least 16 characters; never echoed. */
export function metricsToken(env: Env): string | null {
  const v = str(env, "METRICS_TOKEN");
  if (v === undefined) return null;
  if (v.length < 16) throw new ConfigError("METRICS_TOKEN", "must be at least 16 characters");
  return v;
}

/** FILE_STORAGE: local, postgres (needs DATABASE_URL) or s3 (needs S3_*); the default follows DATABASE_URL. */
export function fileStorage(env: Env, cluster: boolean, s3: S3Config | null): FileStorageDriver {
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
export function s3Config(env: Env): S3Config | null {
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

export function loadJwtSecret(env: Env, dataDir: string, cluster: boolean): string {
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
