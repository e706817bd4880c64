/**
 * The report's line about ads: of the placements that brought anyone in the report's period, the
 * best and the worst, each with what it brought. Joins are counted on the placement's invites and
 * unique clicks on its links and on the tracking link in front of each of its invites (a link bound
 * both ways counts once), inside the period only, each in one grouped statement. Ranked by what a
 * join cost (the price over the period's joins), within the currency most of them are priced in;
 * the others (no price, another currency, or no join) after them by joins, then unique clicks.
 */
import { sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { Range } from "../analytics/range";
import { rowsOf, type AsyncDbOrTx } from "../../db/async";
import { t, type Language } from "../i18n/translate";

export interface PlacementOfPeriod {
  name: string;
  joins: number;
  clicks: number;
}

// core/placements reads this folder's settings, so its helpers are not imported here (no cycle):
// a point in time as each engine's raw SQL compares it, ms on SQLite, a timestamp on PostgreSQL
const timeParam = (db: AsyncDbOrTx, ms: number) =>
  db.engine === "postgres" ? sql`${new Date(ms).toISOString()}::timestamptz` : sql`${ms}`;

type Seen = PlacementOfPeriod & { perJoin: number | null; currency: string | null };

/** The best and the worst placement of `range` (the same one when only one brought anyone), or null when none did. */
export async function bestAndWorst(
  deps: Deps,
  userId: number,
  range: Range,
): Promise<{ best: PlacementOfPeriod; worst: PlacementOfPeriod } | null> {
  const db = deps.asyncDb;
  const from = timeParam(db, range.from);
  const to = timeParam(db, range.to);
  const joins = await rowsOf<{ pid: number; n: number }>(
    db,
    sql`select pi.placement_id as pid, count(*) as n from placement_invites pi
          join placements p on p.id = pi.placement_id
          join channel_joins j on j.invite_id = pi.invite_id
        where p.user_id = ${userId} and j.joined_at >= ${from} and j.joined_at < ${to}
        group by pi.placement_id`,
  );
  const clicks = await rowsOf<{ pid: number; n: number }>(
    db,
    sql`select b.pid as pid, count(*) as n from (
          select pl.placement_id as pid, pl.link_id as lid from placement_links pl join placements p on p.id = pl.placement_id
            where p.user_id = ${userId}
          union
          select pi.placement_id, ci.link_id from placement_invites pi join placements p on p.id = pi.placement_id
            join channel_invites ci on ci.id = pi.invite_id where p.user_id = ${userId} and ci.link_id is not null
        ) b join clicks c on c.link_id = b.lid
        where c.clicked_at >= ${from} and c.clicked_at < ${to} and c.is_unique and not c.is_bot
        group by b.pid`,
  );
  const counts = new Map<number, { joins: number; clicks: number }>();
  const get = (id: number) => counts.get(id) ?? counts.set(id, { joins: 0, clicks: 0 }).get(id)!;
  for (const r of joins) get(Number(r.pid)).joins = Number(r.n);
  for (const r of clicks) get(Number(r.pid)).clicks = Number(r.n);
  if (!counts.size) return null;
  const { placements } = db.tables;
  const rows = await db
    .select({ id: placements.id, name: placements.name, cost: placements.cost })
    .from(placements)
    .where(sql`${placements.id} in (${sql.join([...counts.keys()], sql`, `)})`);
  const seen: Seen[] = rows.map((r) => {
    const c = counts.get(r.id)!;
    const priced = r.cost && c.joins ? r.cost : null;
    return { name: r.name, ...c, perJoin: priced ? priced.amount / c.joins : null, currency: priced?.currency ?? null };
  });
  return rank(seen);
}

/** Best and worst: by cost per join within the currency most placements are priced in, the rest after by joins. */
function rank(seen: Seen[]): { best: PlacementOfPeriod; worst: PlacementOfPeriod } | null {
  if (!seen.length) return null;
  const byCurrency = new Map<string, number>();
  for (const s of seen) if (s.currency) byCurrency.set(s.currency, (byCurrency.get(s.currency) ?? 0) + 1);
  const currency = [...byCurrency].sort((a, b) => b[1] - a[1])[0]?.[0];
  const priced = (s: Seen) => s.currency === currency && s.perJoin !== null;
  const sorted = [...seen].sort((a, b) => {
    if (priced(a) !== priced(b)) return priced(a) ? -1 : 1;
    if (priced(a) && a.perJoin !== b.perJoin) return a.perJoin! - b.perJoin!;
    return b.joins - a.joins || b.clicks - a.clicks || a.name.localeCompare(b.name);
  });
  const strip = ({ name, joins, clicks }: Seen): PlacementOfPeriod => ({ name, joins, clicks });
  const best = strip(sorted[0]!);
  return { best, worst: sorted.length === 1 ? best : strip(sorted.at(-1)!) };
}

/** The line in `lang` (HTML), or null without placements that brought anyone. */
export function bestAndWorstLine(lang: Language, found: { best: PlacementOfPeriod; worst: PlacementOfPeriod } | null): string | null {
  if (!found) return null;
  const { best, worst } = found;
  const esc = Bun.escapeHTML;
  if (best === worst) return t(lang, "report-ads-one", { name: esc(best.name), joins: best.joins, clicks: best.clicks });
  return t(lang, "report-ads", {
    best: esc(best.name),
    bestJoins: best.joins,
    bestClicks: best.clicks,
    worst: esc(worst.name),
    worstJoins: worst.joins,
    worstClicks: worst.clicks,
  });
}
