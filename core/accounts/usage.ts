import { and, count, eq, isNotNull, isNull, sum } from "drizzle-orm";
import type { Deps } from "../deps";
import { first } from "../../db/async";
import { getUser } from "./users";
import { limitsOf, subscriptionOf, type Subscription } from "./plans";
import type { PlanLimits } from "../../config-plans";

export interface AccountUsage {
  subscription: Subscription;
  limits: PlanLimits;
  usage: PlanLimits;
}

/** The user's plan, its limits and how much of each limit is used (for the dashboard's settings page). */
export async function accountUsage(deps: Pick<Deps, "asyncDb" | "config" | "clock">, userId: number): Promise<AccountUsage> {
  const user = await getUser(deps, userId);
  const { links, trackers, secureFiles } = deps.asyncDb.tables;
  // PostgreSQL reads counts and sums back as strings
  const n = async (table: typeof links | typeof trackers | typeof secureFiles) =>
    Number(first(await deps.asyncDb.select({ n: count() }).from(table).where(eq(table.userId, userId)))?.n ?? 0);
  // the owner's own files and what strangers sent through request links are two quotas
  const mb = async (fromRequest: boolean) => {
    const pool = fromRequest ? isNotNull(secureFiles.requestId) : isNull(secureFiles.requestId);
    const b = first(
      await deps.asyncDb
        .select({ b: sum(secureFiles.fileSize) })
        .from(secureFiles)
        .where(and(eq(secureFiles.userId, userId), pool)),
    )?.b;
    return Math.round((Number(b ?? 0) / (1024 * 1024)) * 10) / 10;
  };
  return {
    subscription: subscriptionOf(user, deps.clock.now()),
    limits: limitsOf(deps, user),
    usage: {
      links: await n(links),
      trackers: await n(trackers),
      secureFiles: await n(secureFiles),
      storageMB: await mb(false),
      requestStorageMB: await mb(true),
    },
  };
}
