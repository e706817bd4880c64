import { Api } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import type { Config } from "../config";
import { createDb, type DbHandle } from "../db/client";
import { systemClock, type Clock } from "./clock";
import type { Deps } from "./deps";
import { createLogger, type Logger } from "./log";
import { createMailer, type Mailer } from "./mail";
import { join } from "node:path";

/** Wires the core dependencies from configuration. Tests pass overrides (clock, logger, mailer, db path). */
export function createDeps(
  config: Config,
  overrides: Partial<{ clock: Clock; log: Logger; mailer: Mailer; dbPath: string }> = {},
): Deps & { handle: DbHandle } {
  const log = overrides.log ?? createLogger(config.logLevel);
  const handle = createDb(overrides.dbPath ?? join(config.dataDir, "app.db"));
  const telegram = config.botToken ? new Api(config.botToken, { apiRoot: config.botApiRoot }) : null;
  // 429s wait retry_after (up to 30 s) and retry; network and 5xx failures surface at once as clear errors
  telegram?.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowHttpErrors: true, rethrowInternalServerErrors: true }));
  return {
    handle,
    db: handle.db,
    config,
    clock: overrides.clock ?? systemClock,
    log,
    mailer: overrides.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log }),
    telegram,
  };
}
