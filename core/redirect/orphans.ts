import { and, count, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, type Tables } from "../../db/async";
import { isDatabaseUnavailable } from "../../db/unavailable";
import { briefError, createRepeatLog } from "../log";

/** Distinct (code, host) counts one owner keeps per UTC day; visits to further codes that day count under OTHER_CODES. */
export const ORPHAN_CODES_PER_DAY = 1000;
/** The code under which an owner's visits past ORPHAN_CODES_PER_DAY distinct codes in a day are counted. */
const OTHER_CODES = "*";
/** How long an owner's orphan counts are kept (longer than the longest period but `all`). */
const ORPHAN_KEEP_DAYS = 400;

const DAY_MS = 86_400_000;
const dayOf = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/**
 * Records visits to SHORT_URL/<code> that found no active link, in the background: the 404 is
 * answered without waiting for the database. Who may see a visit is decided here: the owner of the
 * disabled link (`disabled`), else of the deleted link that had the code, else of the verified custom
 * domain the request came in on. A visit nobody may see (an unknown code on the service's own host)
 * is not stored at all. A visit adds one to its owner's count for the code, host and UTC day, so a
 * scan of random codes grows a count, not the table; past ORPHAN_CODES_PER_DAY distinct codes in a
 * day an owner's visits count under OTHER_CODES. Nothing about the visitor is stored. A failure to
 * write is logged and never changes the 404.
 */
export function createOrphanRecorder(deps: Pick<Deps, "asyncDb" | "clock" | "log">) {
  const db = deps.asyncDb;
  const { domains, linkTombstones, orphanVisitDays: days } = db.tables;
  const tombstoneOwner = async (code: string) =>
    first(await db.select({ userId: linkTombstones.userId }).from(linkTombstones).where(eq(linkTombstones.code, code)))?.userId;
  // only a verified domain has an owner: anyone may claim a hostname, and a claim proves nothing
  const domainOwner = async (host: string) =>
    first(
      await db
        .select({ userId: domains.userId })
        .from(domains)
        .where(and(eq(domains.hostname, host), isNotNull(domains.verifiedAt))),
    )?.userId;
  const repeat = createRepeatLog(deps.log);
  const record = async (code: string, host: string | null, disabled: Tables["links"]["$inferSelect"] | null, at: Date) => {
    const userId = disabled?.userId ?? (await tombstoneOwner(code)) ?? (host ? await domainOwner(host) : undefined);
    if (userId === undefined) return;
    const day = dayOf(at);
    let key = { code: code.slice(0, 64), host: host?.slice(0, 253) ?? "" };
    const mine = and(eq(days.userId, userId), eq(days.day, day));
    const known = first(
      await db
        .select({ n: count() })
        .from(days)
        .where(and(mine, eq(days.code, key.code), eq(days.host, key.host))),
    )!.n;
    if (!Number(known) && Number(first(await db.select({ n: count() }).from(days).where(mine))!.n) >= ORPHAN_CODES_PER_DAY)
      key = { code: OTHER_CODES, host: "" };
    await db
      .insert(days)
      .values({ userId, day, ...key, visits: 1, lastAt: at })
      .onConflictDoUpdate({ target: [days.userId, days.day, days.code, days.host], set: { visits: sql`${days.visits} + 1`, lastAt: at } });
  };
  return (code: string, host: string | null, disabled: Tables["links"]["$inferSelect"] | null): void => {
    record(code, host, disabled, deps.clock.now()).catch((e) =>
      isDatabaseUnavailable(e)
        ? repeat("warn", "unavailable", `orphan visit not recorded: ${briefError(e)}`)
        : deps.log.error("orphan visit not recorded", e),
    );
  };
}

/** Deletes orphan counts of days older than ORPHAN_KEEP_DAYS. Returns how many day rows went. */
export async function pruneOrphanVisits(deps: Pick<Deps, "asyncDb" | "clock">): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - ORPHAN_KEEP_DAYS * DAY_MS);
  const { orphanVisitDays: days } = deps.asyncDb.tables;
  return (await deps.asyncDb.delete(days).where(lt(days.day, before)).returning({ userId: days.userId })).length;
}
