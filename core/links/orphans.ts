import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, type Tables } from "../../db/async";
import { isDatabaseUnavailable } from "../../db/unavailable";
import { briefError, createRepeatLog } from "../log";

/**
 * Records visits to SHORT_URL/<code> that found no active link, one row each, written in the
 * background: the 404 is answered without waiting for the database (a 404 is rare next to
 * redirects, and the row is small). Who may see a visit is decided here: the
 * owner of the disabled link (`disabled`), else of the deleted link that had the code, else of the
 * verified custom domain the request came in on; nobody (null) for an unknown code on the service's own host.
 * Nothing about the visitor is stored. A failure to write is logged and never changes the 404.
 */
export function createOrphanRecorder(deps: Pick<Deps, "asyncDb" | "clock" | "log">) {
  const db = deps.asyncDb;
  const { domains, linkTombstones, orphanVisits } = db.tables;
  const tombstoneOwner = async (code: string) => first(await db.select({ userId: linkTombstones.userId }).from(linkTombstones).where(eq(linkTombstones.code, code)))?.userId;
  // only a verified domain has an owner: anyone may claim a hostname, and a claim proves nothing
  const domainOwner = async (host: string) =>
    first(await db.select({ userId: domains.userId }).from(domains).where(and(eq(domains.hostname, host), isNotNull(domains.verifiedAt))))?.userId;
  const repeat = createRepeatLog(deps.log);
  const record = async (code: string, host: string | null, disabled: Tables["links"]["$inferSelect"] | null, at: Date) => {
    const userId = disabled?.userId ?? (await tombstoneOwner(code)) ?? (host ? await domainOwner(host) : undefined) ?? null;
    await db.insert(orphanVisits).values({ userId, code: code.slice(0, 64), host: host?.slice(0, 253) ?? null, visitedAt: at });
  };
  return (code: string, host: string | null, disabled: Tables["links"]["$inferSelect"] | null): void => {
    record(code, host, disabled, deps.clock.now()).catch((e) =>
      isDatabaseUnavailable(e) ? repeat("warn", "unavailable", `orphan visit not recorded: ${briefError(e)}`) : deps.log.error("orphan visit not recorded", e),
    );
  };
}

/** How long visits that belong to no account (unknown codes on the service's own host) are kept. */
export const UNOWNED_ORPHAN_DAYS = 30;

/**
 * Deletes orphan visits that belong to nobody and are older than UNOWNED_ORPHAN_DAYS: no user can
 * see them, and a scan of random codes would otherwise grow the table without end. Visits that
 * belong to a user are kept like clicks. Returns how many went.
 */
export async function pruneUnownedOrphanVisits(deps: Pick<Deps, "asyncDb" | "clock">): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - UNOWNED_ORPHAN_DAYS * 86_400_000);
  const { orphanVisits } = deps.asyncDb.tables;
  return (await deps.asyncDb.delete(orphanVisits).where(and(isNull(orphanVisits.userId), lt(orphanVisits.visitedAt, before))).returning({ id: orphanVisits.id })).length;
}
