import type { Api } from "grammy";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Clock } from "./clock";
import type { Logger } from "./log";
import type { Mailer } from "./mail";

/** What core functions receive. Built once in main.ts (or by a test) and passed down. */
export interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  /** Bot API client for direct sends (charts, exports); null when BOT_TOKEN is unset */
  telegram: Api | null;
}
