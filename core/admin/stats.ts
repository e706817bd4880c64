import { count, isNull, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { clicks, links, outbox, secureFiles, trackers, users } from "../../db/schema";

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
export function serviceStats(deps: Pick<Deps, "db">): ServiceStats {
  const { db } = deps;
  const n = (rows: { n: number }[]) => rows[0]?.n ?? 0;
  const queues: ServiceStats["queues"] = { webhook: { pending: 0, sending: 0, failed: 0 }, bot: { pending: 0, sending: 0, failed: 0 } };
  const depth = db
    .select({ kind: outbox.kind, status: outbox.status, n: count() })
    .from(outbox)
    .where(sql`${outbox.status} in ('pending', 'sending', 'failed')`)
    .groupBy(outbox.kind, outbox.status)
    .all();
  for (const row of depth) (queues[row.kind] ??= { pending: 0, sending: 0, failed: 0 })[row.status as "pending"] = row.n;
  return {
    users: n(db.select({ n: count() }).from(users).where(isNull(users.mergedIntoId)).all()),
    links: n(db.select({ n: count() }).from(links).all()),
    clicks: n(db.select({ n: count() }).from(clicks).all()),
    trackers: n(db.select({ n: count() }).from(trackers).all()),
    secureFiles: n(db.select({ n: count() }).from(secureFiles).all()),
    queues,
  };
}
