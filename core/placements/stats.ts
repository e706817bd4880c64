/**
 * A placement's figures: the latest views reading, clicks and unique clicks of its links (and of the
 * tracking links in front of its invites), joins and leaves through its invites, who stayed after
 * 24 h / 7 d / 30 d (from the updates' dates, as an invite's retention), and what each cost. Read
 * for many placements at once, a few queries each looking rows up by index.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Deps } from "../deps";
import { rowsOf, type AsyncDbOrTx } from "../../db/async";
import type { InviteCost } from "../../db/tables/channels";
import { RETENTION_WINDOWS, ratio, retention, type Retention, type RetentionWindow } from "../channels/retention";
import { emptyConversionStats, type ConversionStats } from "../conversions/stats";

type Window = RetentionWindow;
type Stayed = Retention;

/** PlacementStats: the `stats` of a placement in the API. */
export interface PlacementStats {
  /** the latest reading of the ad post's views; null when never read */
  views: number | null;
  clicks: number;
  unique_clicks: number;
  joins: number;
  leaves: number;
  stayed: Record<Window, Stayed>;
  /** conversions attributed to the placement (joins through its invites among them, as `join`) */
  conversions: ConversionStats;
  cpm: number | null;
  cpc: number | null;
  cost_per_join: number | null;
  cost_per_retained: number | null;
  roas: number | null;
}

/** The raw counts stats are computed from. */
interface Counts {
  clicks: number;
  unique: number;
  joins: number;
  leaves: number;
  eligible: Record<Window, number>;
  stayed: Record<Window, number>;
  conversions: ConversionStats;
}

const zero = (): Counts => ({
  clicks: 0,
  unique: 0,
  joins: 0,
  leaves: 0,
  eligible: { h24: 0, d7: 0, d30: 0 },
  stayed: { h24: 0, d7: 0, d30: 0 },
  conversions: emptyConversionStats(),
});

/** The figures from the counts, the latest views and the price. */
function statsOf(c: Counts, views: number | null, cost: InviteCost | null): PlacementStats {
  const stayed = Object.fromEntries(
    (Object.keys(RETENTION_WINDOWS) as Window[]).map((w) => [w, retention(c.stayed[w], c.eligible[w])]),
  ) as Record<Window, Stayed>;
  const amount = cost?.amount;
  const per = (n: number | null, times = 1) => (amount === undefined || n === null ? null : ratio(amount * times, n, 2));
  return {
    views,
    clicks: c.clicks,
    unique_clicks: c.unique,
    joins: c.joins,
    leaves: c.leaves,
    stayed,
    conversions: c.conversions,
    cpm: per(views, 1000),
    cpc: per(c.unique),
    cost_per_join: per(c.joins),
    cost_per_retained: per(stayed.d7.stayed),
    // return on ad spend: the conversions' value in the price's currency per unit spent
    roas:
      cost && cost.amount > 0 && c.conversions.value[cost.currency] !== undefined
        ? ratio(c.conversions.value[cost.currency]!, cost.amount, 2)
        : null,
  };
}

/** A point in time as each engine's raw SQL compares it: ms on SQLite, a timestamp on PostgreSQL. */
export const timeParam = (db: AsyncDbOrTx, ms: number) =>
  db.engine === "postgres" ? sql`${new Date(ms).toISOString()}::timestamptz` : sql`${ms}`;

/** Ids in lists short enough for any engine's parameter limit. */
function chunks(ids: number[], size = 1000): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/** `j.left_at` is at least `ms` after `j.joined_at`. */
const leftAfter = (db: AsyncDbOrTx, ms: number) =>
  db.engine === "postgres" ? sql`j.left_at >= j.joined_at + ${ms} * interval '1 millisecond'` : sql`j.left_at - j.joined_at >= ${ms}`;

/**
 * The counts of every placement `where` selects (a condition on `p`, the placements table), by id.
 * Placements with nothing bound are absent (all zeros).
 */
export async function countsOf(deps: Pick<Deps, "asyncDb" | "clock">, where: SQL): Promise<Map<number, Counts>> {
  const db = deps.asyncDb;
  const now = deps.clock.now().getTime();
  const out = new Map<number, Counts>();
  const get = (id: number) => out.get(id) ?? out.set(id, zero()).get(id)!;
  // the bindings of the chosen placements first, then their links and joins by id: index lookups on
  // both engines, whatever the planner makes of the tables' sizes
  const bindings = await rowsOf<{ pid: number; lid: number | null; iid: number | null }>(
    db,
    sql`select pl.placement_id as pid, pl.link_id as lid, null as iid from placement_links pl
          where pl.placement_id in (select p.id from placements p where ${where})
        union all
        select pi.placement_id, ci.link_id, pi.invite_id from placement_invites pi join channel_invites ci on ci.id = pi.invite_id
          where pi.placement_id in (select p.id from placements p where ${where})`,
  );
  // a link bound directly and the tracking link in front of a bound invite count once
  const linkOwners = new Map<number, Set<number>>();
  const inviteOwner = new Map<number, number>();
  for (const b of bindings) {
    const pid = Number(b.pid);
    if (b.lid !== null) (linkOwners.get(Number(b.lid)) ?? linkOwners.set(Number(b.lid), new Set()).get(Number(b.lid))!).add(pid);
    if (b.iid !== null) inviteOwner.set(Number(b.iid), pid);
  }
  for (const ids of chunks([...linkOwners.keys()]))
    for (const r of await rowsOf<{ id: number; clicks: number; uniq: number }>(
      db,
      sql`select id, total_clicks - bot_clicks as clicks, unique_clicks as uniq from links where id in (${sql.join(ids, sql`, `)})`,
    ))
      for (const pid of linkOwners.get(Number(r.id)) ?? []) {
        const c = get(pid);
        c.clicks += Number(r.clicks);
        c.unique += Number(r.uniq);
      }
  const windows = Object.entries(RETENTION_WINDOWS) as [Window, number][];
  const cols = windows.map(
    ([w, ms]) =>
      sql`, sum(case when j.joined_at <= ${timeParam(db, now - ms)} then 1 else 0 end) as ${sql.raw(`e_${w}`)}, sum(case when j.joined_at <= ${timeParam(db, now - ms)} and (j.left_at is null or ${leftAfter(db, ms)}) then 1 else 0 end) as ${sql.raw(`s_${w}`)}`,
  );
  const joins: Record<string, number | string>[] = [];
  for (const ids of chunks([...inviteOwner.keys()]))
    joins.push(
      ...(await rowsOf<Record<string, number | string>>(
        db,
        sql`select j.invite_id as id, count(*) as joins, count(j.left_at) as leaves${sql.join(cols)}
          from channel_joins j where j.invite_id in (${sql.join(ids, sql`, `)}) and j.joined_at is not null group by j.invite_id`,
      )),
    );
  await addConversions(db, where, get);
  for (const r of joins) {
    const c = get(inviteOwner.get(Number(r.id))!);
    c.joins += Number(r.joins);
    c.leaves += Number(r.leaves);
    for (const [w] of windows) {
      c.eligible[w] += Number(r[`e_${w}`] ?? 0);
      c.stayed[w] += Number(r[`s_${w}`] ?? 0);
    }
  }
  return out;
}

/** The conversions attributed to the chosen placements, into their counts. */
async function addConversions(db: AsyncDbOrTx, where: SQL, get: (id: number) => Counts): Promise<void> {
  const rows = await rowsOf<{ pid: number; event: string; currency: string | null; n: number; micros: number | null }>(
    db,
    sql`select c.placement_id as pid, c.event, c.currency, count(*) as n, sum(c.value_micros) as micros from conversions c
          where c.placement_id in (select p.id from placements p where ${where}) group by c.placement_id, c.event, c.currency`,
  );
  for (const r of rows) {
    const conv = get(Number(r.pid)).conversions;
    const n = Number(r.n);
    conv.count += n;
    conv.by_event[r.event] = (conv.by_event[r.event] ?? 0) + n;
    if (r.currency !== null && r.micros !== null)
      conv.value[r.currency] = Math.round(((conv.value[r.currency] ?? 0) + Number(r.micros) / 1e6) * 1e6) / 1e6;
  }
}

/** The stats of placement rows, given their counts (absent: zeros). */
export function statsFor(counts: Map<number, Counts>, row: { id: number; views: number | null; cost: InviteCost | null }): PlacementStats {
  return statsOf(counts.get(row.id) ?? zero(), row.views, row.cost);
}
