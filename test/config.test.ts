import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigError, loadConfig } from "../config";
import { ENV_NAMES, ENV_SCHEMA } from "../config-schema";
import { prepareDataDir } from "../app/data-dir";
import { clickJournalOf } from "../core/clicks/backlog";

let dir: string;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

test("reading the configuration writes nothing; preparing the node makes DATA_DIR and keeps the generated JWT secret there", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-config-"));
  const dataDir = join(dir, "data");
  const config = loadConfig({ DATA_DIR: dataDir });
  expect(config.jwtSecret).toBe("");
  expect(existsSync(dataDir)).toBe(false);
  const first = prepareDataDir(config).jwtSecret;
  expect(first.length).toBeGreaterThanOrEqual(32);
  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  expect(readFileSync(join(dataDir, "jwt-secret"), "utf8")).toBe(first);
  expect(prepareDataDir(loadConfig({ DATA_DIR: dataDir })).jwtSecret).toBe(first);
  // JWT_SECRET given: nothing kept
  const given = "g".repeat(32);
  const other = join(dir, "other");
  expect(prepareDataDir(loadConfig({ DATA_DIR: other, JWT_SECRET: given })).jwtSecret).toBe(given);
  expect(existsSync(join(other, "jwt-secret"))).toBe(false);
});

test("an empty or short kept JWT secret stops the start instead of signing with a guessable key", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-config-"));
  writeFileSync(join(dir, "jwt-secret"), "\n");
  expect(() => prepareDataDir(loadConfig({ DATA_DIR: dir }))).toThrow(/^JWT_SECRET: /);
  writeFileSync(join(dir, "jwt-secret"), "short");
  expect(() => prepareDataDir(loadConfig({ DATA_DIR: dir }))).toThrow(/^JWT_SECRET: /);
  expect(() => prepareDataDir(loadConfig({ DATA_DIR: dir, JWT_SECRET: "y".repeat(32) }))).not.toThrow();
});

test("with nothing set every variable takes its default", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-config-"));
  const c = loadConfig({ LOG_FORMAT: "json" });
  expect({
    host: c.host,
    port: c.port,
    baseUrl: c.baseUrl,
    shortUrl: c.shortUrl,
    dataDir: c.dataDir,
    botToken: c.botToken,
    botApiRoot: c.botApiRoot,
    botMode: c.botMode,
    trustProxy: c.trustProxy,
    webhookAllowPrivate: c.webhookAllowPrivate,
    webhookRetryDelays: c.webhookRetryDelays,
    webhookTimeoutMs: c.webhookTimeoutMs,
    logLevel: c.logLevel,
    privacyIp: c.privacyIp,
    rateLimit: c.rateLimit,
    databaseUrl: c.databaseUrl,
    fileStorage: c.fileStorage,
    s3: c.s3,
    drainSeconds: c.drainSeconds,
    migrate: c.migrate,
    pgPoolSize: c.pgPoolSize,
    journalMemoryClicks: c.journalMemoryClicks,
    mailFrom: c.mailFrom,
    mtproto: c.mtproto,
  }).toEqual({
    host: "0.0.0.0",
    port: 3000,
    baseUrl: "http://localhost:3000",
    shortUrl: "http://localhost:3000",
    dataDir: resolve("./data"),
    botToken: null,
    botApiRoot: "https://api.telegram.org",
    botMode: "polling",
    trustProxy: 0,
    webhookAllowPrivate: false,
    webhookRetryDelays: [0, 2, 5, 15, 30],
    webhookTimeoutMs: 5000,
    logLevel: "info",
    privacyIp: "full",
    rateLimit: { api: 300, auth: 10, windowSeconds: 60 },
    databaseUrl: null,
    fileStorage: "local",
    s3: null,
    drainSeconds: 0,
    migrate: "auto",
    pgPoolSize: 10,
    journalMemoryClicks: 200_000,
    mailFrom: "no-reply@localhost",
    mtproto: null,
  });
  // defaults that follow another variable
  const cluster = loadConfig({ PORT: "8080", DATABASE_URL: "postgres://u:p@db:5432/x", LOG_FORMAT: "json" });
  expect([cluster.baseUrl, cluster.fileStorage, cluster.drainSeconds]).toEqual(["http://localhost:8080", "postgres", 5]);
});

test("values are read as their entry says: words in any case where allowed, trailing slashes off, numbers and flags", () => {
  const c = loadConfig({
    BASE_URL: "https://links.example/",
    TRUST_PROXY: "true",
    WEBHOOK_ALLOW_PRIVATE: "yes",
    PRIVACY_IP: "Truncate",
    LOG_FORMAT: "PRETTY",
    WEBHOOK_RETRY_DELAYS: "1, 2.5,10",
    MTPROTO_API_ID: "12345",
    MTPROTO_API_HASH: "hash",
  });
  expect([c.baseUrl, c.shortUrl, c.trustProxy, c.webhookAllowPrivate, c.privacyIp, c.logFormat, c.webhookRetryDelays]).toEqual([
    "https://links.example",
    "https://links.example",
    1,
    true,
    "truncate",
    "pretty",
    [1, 2.5, 10],
  ]);
  expect(c.mtproto).toEqual({ apiId: 12345, apiHash: "hash", session: "" });
  expect(loadConfig({ TRUST_PROXY: "3", LOG_FORMAT: "json" }).trustProxy).toBe(3);
});

test("a bad value is refused with one line naming the variable, and the value unless it is a secret", () => {
  for (const [name, value, message] of [
    ["PORT", "abc", 'PORT: expected a whole number from 0 to 65535, got "abc"'],
    ["PORT", "70000", 'PORT: expected a whole number from 0 to 65535, got "70000"'],
    ["BOT_MODE", "push", 'BOT_MODE: expected polling or webhook, got "push"'],
    ["LOG_LEVEL", "INFO", 'LOG_LEVEL: expected debug, info, warn or error, got "INFO"'],
    ["BASE_URL", "ftp://x", 'BASE_URL: expected an absolute http(s) URL without a query or fragment, got "ftp://x"'],
    // links are the base and a path: a query or fragment would end up in the middle of each
    [
      "BASE_URL",
      "https://links.example.com/?ref=x",
      'BASE_URL: expected an absolute http(s) URL without a query or fragment, got "https://links.example.com/?ref=x"',
    ],
    [
      "SHORT_URL",
      "https://s.example/#top",
      'SHORT_URL: expected an absolute http(s) URL without a query or fragment, got "https://s.example/#top"',
    ],
    [
      "BASE_URL",
      "http:links.example.com",
      'BASE_URL: expected an absolute http(s) URL without a query or fragment, got "http:links.example.com"',
    ],
    ["WEBHOOK_ALLOW_PRIVATE", "maybe", 'WEBHOOK_ALLOW_PRIVATE: expected true or false, got "maybe"'],
    ["TRUST_PROXY", "21", 'TRUST_PROXY: expected true, false or the number of proxies in front (0 to 20), got "21"'],
    ["WEBHOOK_RETRY_DELAYS", "1,soon", 'WEBHOOK_RETRY_DELAYS: expected comma-separated seconds, got "1,soon"'],
    ["BOT_TOKEN", "secret-ish", "BOT_TOKEN: does not look like a bot token (digits:secret)"],
    ["JWT_SECRET", "short-secret", "JWT_SECRET: must be at least 32 characters"],
    ["METRICS_TOKEN", "short", "METRICS_TOKEN: must be at least 16 characters"],
    ["FILE_STORAGE", "ftp", 'FILE_STORAGE: expected local, postgres or s3, got "ftp"'],
    ["FILE_STORAGE", "postgres", "FILE_STORAGE: postgres keeps files in the database of DATABASE_URL, which is not set"],
    ["S3_BUCKET", "b", "S3_BUCKET: expected a bucket name"],
    ["MTPROTO_API_ID", "1", "MTPROTO_API_HASH: MTPROTO_API_ID and MTPROTO_API_HASH go together"],
    ["PLAN_LIMITS", "{", "PLAN_LIMITS: is not valid JSON"],
    ["GEOIP_DB", "/nowhere.mmdb", 'GEOIP_DB: file not found: "/nowhere.mmdb"'],
    ["DATABASE_URL", "mysql://u:p@h/d", "DATABASE_URL: expected postgres://"],
  ] as const) {
    let thrown: unknown;
    try {
      loadConfig({ [name]: value, LOG_FORMAT: "json" });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toStartWith(message);
    expect((thrown as Error).message).not.toContain("\n");
    if (["BOT_TOKEN", "JWT_SECRET", "METRICS_TOKEN"].includes(name)) expect((thrown as Error).message).not.toContain(value);
  }
});

test("README's configuration table lists exactly the variables of the schema", () => {
  const readme = readFileSync(join(import.meta.dir, "..", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 3));
  const listed = new Set(
    section
      .split("\n")
      .filter((l) => l.startsWith("| `"))
      .flatMap((l) => [...(l.split("|")[1] ?? "").matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!)),
  );
  expect([...listed].sort()).toEqual([...ENV_NAMES].sort());
  for (const name of ENV_NAMES) expect(ENV_SCHEMA.properties[name].description?.length ?? 0).toBeGreaterThan(0);
});

test("NODE_NAME names this node (default: the host name); in cluster mode it gives each node its own click journal and mark", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-node-"));
  const single = loadConfig({ DATA_DIR: dir });
  expect(single.nodeName).toBe(
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, "-")
      .slice(0, 64),
  );
  expect(clickJournalOf(single)).toEqual({ dir: join(dir, "click-journal"), name: "local" });
  const node = loadConfig({ DATA_DIR: dir, NODE_NAME: "edge-2.fra", DATABASE_URL: "postgres://u:p@db.internal:5432/linkbot" });
  expect(clickJournalOf(node)).toEqual({ dir: join(dir, "click-journal", "edge-2.fra"), name: "node:edge-2.fra" });
  // JOURNAL_DIR puts the journal elsewhere (a local disk when DATA_DIR is shared), still one directory per node in cluster mode
  expect(clickJournalOf(loadConfig({ DATA_DIR: dir, JOURNAL_DIR: "/var/lib/linkbot/journal" }))).toEqual({
    dir: "/var/lib/linkbot/journal",
    name: "local",
  });
  expect(clickJournalOf({ ...node, journalDir: "/var/lib/linkbot/journal" })).toEqual({
    dir: "/var/lib/linkbot/journal/edge-2.fra",
    name: "node:edge-2.fra",
  });
  for (const bad of ["../x", ".hidden", "a/b", "x".repeat(65), "é"])
    expect(() => loadConfig({ DATA_DIR: dir, NODE_NAME: bad })).toThrow(/NODE_NAME: must be 1-64 letters/);
});
