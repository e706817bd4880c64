import { count, eq, sum } from "drizzle-orm";
import type { Deps } from "../deps";
import { links, secureFiles, trackers } from "../../db/schema";
import { getUser } from "./users";
import { limitsOf, subscriptionOf, type Subscription } from "./plans";
import type { PlanLimits } from "../../config";

export interface AccountUsage {
  subscription: Subscription;
  limits: PlanLimits;
  usage: PlanLimits;
}

/** The user's plan, its limits and how much of each limit is used (for the dashboard's settings page). */
export function accountUsage(deps: Pick<Deps, "db" | "config" | "clock">, userId: number): AccountUsage {
  const user = getUser(deps, userId);
  const n = (table: typeof links | typeof trackers | typeof secureFiles) =>
    deps.db.select({ n: count() }).from(table).where(eq(table.userId, userId)).get()?.n ?? 0;
  const bytes = deps.db.select({ b: sum(secureFiles.fileSize) }).from(secureFiles).where(eq(secureFiles.userId, userId)).get()?.b;
  return {
    subscription: subscriptionOf(user, deps.clock.now()),
    limits: limitsOf(deps, user),
    usage: {
      links: n(links),
      trackers: n(trackers),
      secureFiles: n(secureFiles),
      storageMB: Math.round((Number(bytes ?? 0) / (1024 * 1024)) * 10) / 10,
    },
  };
}
