/**
 * Builds the whole app for a test: a fresh SQLite file in a temp DATA_DIR, a manual clock, a
 * recording logger, and helpers to call the API in-process.
 */
import { afterEach, beforeEach } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../config";
import { CLICK_WRITER_THREAD, createDeps } from "../../app";
import { ManualClock } from "../../core/clock";
import { createApi } from "../../api/app";
import { createLogger } from "../../core/log";
import type { Mailer } from "../../core/mail";
import { upsertTelegramUser, upsertEmailUser } from "../../core/accounts/users";
import { signAccessToken } from "../../core/tokens/jwt";
import type { ClickListener } from "../../core/clicks/listeners";
import { createClickSink } from "../../core/clicks/sink";
import { createPgClickWriter } from "../../core/clicks/writer-pg";
import { createRevokedSessions } from "../../core/auth/revoked-sessions";
import { CLICK_LISTENERS } from "../../app/click-listeners";
import { freshPgDatabase, suiteDatabase } from "./suite-database";
import { sql, type SQL } from "drizzle-orm";
import type { AsyncDb } from "../../db/async";

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: ManualClock;
  mailer?: Mailer;
  /** serve on 127.0.0.1:0 and send `request` over real HTTP (the listening server's own routes) */
  listen?: boolean;
  /** what stored click batches feed (the service's table by default); a test may pass a copy it adds to */
  clickListeners?: readonly ClickListener[];
}

export function createTestApp(opts: TestAppOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "linkbot-test-"));
  // rate limits are high unless a test asks for its own (the limiter's tests use small values)
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    PORT: "3999",
    LOG_LEVEL: "error",
    WEBHOOK_ALLOW_PRIVATE: "true",
    RATE_LIMIT_API: "100000",
    RATE_LIMIT_AUTH: "100000",
    ...opts.env,
  });
  const clock = opts.clock ?? new ManualClock();
  const logs: string[] = [];
  const log = createLogger("debug", (l) => logs.push(l));
  const deps = createDeps(config, { clock, log, mailer: opts.mailer, clickListeners: opts.clickListeners });
  // the suite on PostgreSQL: the same app on a fresh PostgreSQL database (SQLite's file stays empty)
  const suite = suiteDatabase();
  let closePg = () => {};
  if (suite) {
    const pg = freshPgDatabase(suite);
    closePg = pg.close;
    // a click writer thread opens its own connection from the configuration: to this database
    config.databaseUrl = pg.url;
    deps.asyncDb = pg.asyncDb;
    deps.revokedSessions = createRevokedSessions(pg.asyncDb);
    deps.clicks = createClickSink({
      log,
      config,
      writer: () => createPgClickWriter(deps, opts.clickListeners ?? CLICK_LISTENERS),
      journalDir: null,
      threadEntry: CLICK_WRITER_THREAD,
    });
  }
  const app = createApi(deps);
  if (opts.listen) app.listen({ hostname: "127.0.0.1", port: 0 });
  const origin = opts.listen ? `http://127.0.0.1:${app.server!.port}` : "http://localhost";

  async function request(method: string, path: string, init: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: BodyInit | undefined;
    if (init.body instanceof FormData || typeof init.body === "string") body = init.body as BodyInit;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["content-type"] = "application/json";
    }
    const req = new Request(`${origin}${path}`, { method, headers, body, redirect: "manual" });
    const res = opts.listen ? await fetch(req) : await app.handle(req);
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: parseJson(text), text };
  }

  /** A Telegram user with a signed-in session token. */
  async function telegramUser(tgId = 42, username = "alice") {
    const user = await upsertTelegramUser(deps, { id: tgId, username, firstName: username });
    return { user, token: await signAccessToken(deps, user.id) };
  }

  async function emailUser(email = "bob@example.com") {
    const user = await upsertEmailUser(deps, email);
    return { user, token: await signAccessToken(deps, user.id) };
  }

  function close() {
    app.server?.stop(true);
    deps.trackerIndex.close();
    deps.handle.close();
    closePg();
    rmSync(dataDir, { recursive: true, force: true });
  }

  return { deps, config, clock, app, logs, request, telegramUser, emailUser, close, dataDir };
}

/** Runs one raw SQL statement on the app's database, whichever it is (for tests that break the database on purpose). */
export async function rawSql(db: AsyncDb, statement: string): Promise<void> {
  const q = sql.raw(statement);
  if (db.engine === "postgres") await (db as unknown as { execute(q: SQL): Promise<unknown> }).execute(q);
  else await (db as unknown as { run(q: SQL): Promise<unknown> }).run(q);
}

/** The JSON value of a response body, or undefined when it is not JSON. */
export function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type TestApp = ReturnType<typeof createTestApp>;

/**
 * For a test file whose every test wants a fresh app and a signed-in Telegram user: registers the
 * beforeEach/afterEach pair and gives both through getters (`const s = eachWithUser(); s.t, s.token`).
 */
export function eachWithUser(opts: TestAppOptions = {}): { readonly t: TestApp; readonly token: string } {
  let t: TestApp;
  let token: string;
  beforeEach(async () => {
    t = createTestApp(opts);
    token = (await t.telegramUser()).token;
  });
  afterEach(() => t.close());
  return {
    get t() {
      return t;
    },
    get token() {
      return token;
    },
  };
}
