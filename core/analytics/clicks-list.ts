/** A link's clicks one page at a time, newest first (`GET /links/:id/clicks`). */
import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Deps } from "../deps";
import { FieldError } from "../errors";
import { ownedLink } from "../links/links";
import { ALL_TIME_END } from "./range";
import { totals } from "./query";

/** How many instants before a page's position the skip reads back, to count the ties of its first instant. */
const TIES_READ = 100;

/**
 * `limit` clicks of a link from position `skip` in the order newest first (ties by id, newest
 * first). OFFSET over the rows would read every skipped click from the table (25,000 of them for
 * page 500 of 50); the skip runs over the (link_id, clicked_at) index instead (an index-only scan on
 * PostgreSQL once vacuumed): it reads the instants, floored to the millisecond, at positions
 * skip - 100 to skip. The one at `skip` is T; the page is the clicks before T + 1 ms in the full
 * order, after those of T's millisecond that come before position `skip` (ties, or instants finer
 * than a millisecond), which are among the 100 read, or, when all 100 are in T's millisecond,
 * counted as the clicks of the link less those at or after T + 1 ms.
 */
async function clicksPage(deps: Pick<Deps, "asyncDb">, linkId: number, skip: number, limit: number) {
  const db = deps.asyncDb;
  const { clicks } = db.tables;
  const mine = eq(clicks.linkId, linkId);
  const page = (where: SQL | undefined, ahead: number) =>
    db.select().from(clicks).where(where).orderBy(desc(clicks.clickedAt), desc(clicks.id)).limit(limit).offset(ahead);
  if (!skip) return page(mine, 0);
  const from = Math.max(0, skip - TIES_READ);
  const skipped = db
    .select({ at: clicks.clickedAt })
    .from(clicks)
    .where(mine)
    .orderBy(desc(clicks.clickedAt))
    .limit(skip - from + 1)
    .offset(from)
    .as("skipped");
  // to the millisecond once past the skip: in the skip's own select list PostgreSQL would work it out for every click skipped
  const ms = db.engine === "postgres" ? sql`floor(extract(epoch from ${skipped.at}) * 1000)::bigint` : sql`${skipped.at}`;
  const instants = (await db.select({ at: ms }).from(skipped).orderBy(desc(skipped.at))).map((r) => Number(r.at));
  const t = instants[skip - from];
  if (t === undefined) return [];
  const before = new Date(t + 1);
  let ahead = 0;
  while (ahead < skip - from && instants[skip - from - 1 - ahead] === t) ahead++;
  if (ahead === skip - from && from > 0) {
    // more ties than were read: those later than T's millisecond are all ahead of position `skip` (at most `skip` of them)
    const later = db
      .select({ one: sql`1` })
      .from(clicks)
      .where(and(mine, gte(clicks.clickedAt, before)))
      .orderBy(desc(clicks.clickedAt))
      .limit(skip)
      .as("later");
    const [row] = await db.select({ n: sql`count(*)` }).from(later);
    ahead = skip - Number(row?.n ?? 0);
  }
  return page(and(mine, lt(clicks.clickedAt, before)), ahead);
}

/** `GET /links/:id/clicks`: the link's clicks, newest first. */
export async function linkClicks(deps: Deps, userId: number, linkId: number, q: { page?: number; limit?: number }) {
  const link = await ownedLink(deps, userId, linkId);
  const page = q.page ?? 1;
  const limit = q.limit ?? 50;
  // 1e300 is an integer to JavaScript, but no page of any link: the offset must stay a safe integer
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000) throw new FieldError("page", "must be a whole number from 1 to 1000000");
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new FieldError("limit", "must be a whole number from 1 to 100");
  const rows = await clicksPage(deps, link.id, (page - 1) * limit, limit);
  const total = (await totals(deps, [link.id], { from: 0, to: ALL_TIME_END })).clicks;
  return {
    data: rows.map((c) => ({
      id: c.id,
      clicked_at: c.clickedAt.toISOString(),
      ip: c.ip,
      country: c.country,
      city: c.city,
      device: c.device,
      browser: c.browser,
      os: c.os,
      referer: c.referer,
      is_bot: c.isBot,
      bot_name: c.botName,
      is_unique: c.isUnique,
      rule: c.rule,
      variant: c.variant,
      click_id: c.clickId,
      sub1: c.sub1,
      sub2: c.sub2,
      sub3: c.sub3,
      sub4: c.sub4,
      sub5: c.sub5,
    })),
    total,
    page,
    limit,
  };
}
