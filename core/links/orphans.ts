import { and, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { changes } from "../../db/client";
import { domains, linkTombstones, orphanVisits, type LinkRow } from "../../db/schema";

/**
 * Records visits to SHORT_URL/<code> that found no active link, one row each, written at once (a
 * 404 is rare next to redirects, and the row is small). Who may see a visit is decided here: the
 * owner of the disabled link (`disabled`), else of the deleted link that had the code, else of the
 * verified custom domain the request came in on; nobody (null) for an unknown code on the service's own host.
 * Nothing about the visitor is stored. A failure to write is logged and never changes the 404.
 */
export function createOrphanRecorder(deps: Pick<Deps, "db" | "clock" | "log">) {
  const tombstone = deps.db.select({ userId: linkTombstones.userId }).from(linkTombstones).where(eq(linkTombstones.code, sql.placeholder("code"))).prepare();
  // only a verified domain has an owner: anyone may claim a hostname, and a claim proves nothing
  const domainOwner = deps.db.select({ userId: domains.userId }).from(domains)
    .where(and(eq(domains.hostname, sql.placeholder("host")), isNotNull(domains.verifiedAt))).prepare();
  const insert = deps.db.insert(orphanVisits).values({
    userId: sql.placeholder("userId"), code: sql.placeholder("code"), host: sql.placeholder("host"), visitedAt: sql.placeholder("at"),
  }).prepare();
  return (code: string, host: string | null, disabled: LinkRow | null): void => {
    try {
      const userId = disabled?.userId ?? tombstone.get({ code })?.userId ?? (host ? domainOwner.get({ host })?.userId : undefined) ?? null;
      insert.run({ userId, code: code.slice(0, 64), host: host?.slice(0, 253) ?? null, at: deps.clock.now() });
    } catch (e) {
      deps.log.error("orphan visit not recorded", e);
    }
  };
}

/** How long visits that belong to no account (unknown codes on the service's own host) are kept. */
export const UNOWNED_ORPHAN_DAYS = 30;

/**
 * Deletes orphan visits that belong to nobody and are older than UNOWNED_ORPHAN_DAYS: no user can
 * see them, and a scan of random codes would otherwise grow the table without end. Visits that
 * belong to a user are kept like clicks. Returns how many went.
 */
export function pruneUnownedOrphanVisits(deps: Pick<Deps, "db" | "clock">): number {
  const before = new Date(deps.clock.now().getTime() - UNOWNED_ORPHAN_DAYS * 86_400_000);
  return changes(deps.db.delete(orphanVisits).where(and(isNull(orphanVisits.userId), lt(orphanVisits.visitedAt, before))).run());
}
