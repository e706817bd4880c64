import type { Deps } from "../core/deps";
import { cleanupExpired } from "./cleanup";

export interface Job {
  name: string;
  /** cron pattern (croner syntax, server time zone) */
  pattern: string;
  run(deps: Deps): unknown | Promise<unknown>;
}

/** Periodic jobs. main.ts schedules every entry with croner; add yours here. */
export const JOBS: Job[] = [{ name: "cleanup-expired", pattern: "*/15 * * * *", run: cleanupExpired }];
