import { count, inArray, isNull } from "drizzle-orm";
import type { Deps } from "../deps";

export interface ServiceStats {
  users: number;
  links: number;
  clicks: number;
  trackers: number;
  secureFiles: number;
  /** outbox rows not yet delivered, by kind (webhook, bot) and status (pending, sending, failed) */
  queues: Record<string, { pending: number; sending: number; failed: number }>;
}

/** Counts for the operator: accounts, resources and the delivery queue's depth. */
export async function serviceStats(deps: Pick<Deps, "asyncDb">): Promise<ServiceStats> {
  const db = deps.asyncDb;
  const { clicks, links, outbox, secureFiles, trackers, users } = db.tables;
  // PostgreSQL counts are bigints, read back as strings
  const n = (rows: { n: unknown }[]) => Number(rows[0]?.n ?? 0);
  const queues: ServiceStats["queues"] = { webhook: { pending: 0, sending: 0, failed: 0 }, bot: { pending: 0, sending: 0, failed: 0 } };
  const depth = await db
    .select({ kind: outbox.kind, status: outbox.status, n: count() })
    .from(outbox)
    .where(inArray(outbox.status, ["pending", "sending", "failed"]))
    .groupBy(outbox.kind, outbox.status);
  for (const row of depth) (queues[row.kind] ??= { pending: 0, sending: 0, failed: 0 })[row.status as "pending"] = Number(row.n);
  return {
    users: n(await db.select({ n: count() }).from(users).where(isNull(users.mergedIntoId))),
    links: n(await db.select({ n: count() }).from(links)),
    clicks: n(await db.select({ n: count() }).from(clicks)),
    trackers: n(await db.select({ n: count() }).from(trackers)),
    secureFiles: n(await db.select({ n: count() }).from(secureFiles)),
    queues,
  };
}
