/**
 * A link's clicks per local bucket of a time zone (hours, days, hours of the week): the timeline
 * and the heatmap. Each stretch of constant UTC offset is read from the roll-ups that fit it (day or
 * hour rows for whole-hour offsets, the quarter columns for part-hour ones) or from raw clicks at a
 * range's edges, with the plan and SQL pieces of query.ts.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { DAY, HOUR, QUARTER, SPANS, offsetSegments, type Range } from "./range";
import { bucketsOf, clicksOf, epochMs, int, num, planOf, signOf, uniqueHumans, unionOf, type Db, type PlanPiece } from "./query";

/**
 * How a UTC instant t maps to a local key in a segment with offset o:
 * k = (floor((t + o) / size) + add) % mod. Timelines use size = hour or day; the heatmap uses
 * size = hour, add = 96, mod = 168 (hour of the week from Sunday 00:00; 1970-01-01 was a Thursday).
 */
export interface LocalKey {
  size: number;
  add?: number;
  mod?: number;
}

type Series = Map<number, { clicks: number; unique: number }>;

/**
 * Clicks and unique human clicks per local key in zone `tz`. Keys of a timeline are floor(localMs /
 * size), localMs being the wall-clock time read as if it were UTC; the two wall-clock hours of a DST
 * fall-back share a key and are summed. Whole-hour offsets read hour/day buckets; other offsets
 * (e.g. +05:30, +05:45) read each hour's four quarters. One statement for the whole range.
 */
export async function localSeries(deps: Db, linkIds: number[], range: Range, tz: string, key: LocalKey): Promise<Series> {
  const db = deps.asyncDb;
  const { clicks: c, linkStatsTime: st } = db.tables;
  const { size, add = 0, mod = Number.MAX_SAFE_INTEGER } = key;
  if (!linkIds.length) return new Map();
  // (floor((t + o) / size) + add) % mod, in integers on both databases (t + o is positive: no rounding toward zero to mind)
  const keyOf = (t: SQL | SQLWrapper, o: number) => sql`((${t} + ${int(o)}) / ${int(size)} + ${int(add)}) % ${int(mod)}`;
  // buckets of `span` grouped in the database when several share a key; otherwise their rows come as they are
  const grouped = (span: number) => size > span || mod !== Number.MAX_SAFE_INTEGER;
  const parts: SQL[] = [];
  for (const seg of offsetSegments(tz, range)) {
    const o = seg.offset;
    // the offset's part below a whole hour (30 min for +05:30 and -03:30, 45 min for +05:45), and the rest
    const m = ((o % HOUR) + HOUR) % HOUR;
    const w = o - m;
    const usable = SPANS.filter(
      (sp) => sp <= size && size % sp === 0 && ((o % sp) + sp) % sp === 0 && (mod === Number.MAX_SAFE_INTEGER || sp === HOUR),
    );
    const byQuarter = usable.length === 0;
    // days in a zone with a part-hour offset: from the UTC day rows, with the hours of each UTC day
    // that fall on the neighbouring local day moved over (see dayParts), instead of the quarters of
    // every hour row. (For whole-hour offsets, which group hour rows without quarters, it was no
    // faster on PostgreSQL: three reads of the rows instead of one.)
    const byDays = size === DAY && mod === Number.MAX_SAFE_INTEGER && m > 0;
    // the quarters of an hour that fall on the next local hour (m > 0), as sums of clicks and of uniques
    const late = [
      [st.q0, st.u0],
      [st.q1, st.u1],
      [st.q2, st.u2],
      [st.q3, st.u3],
    ].filter((_, i) => m > 0 && m + i * QUARTER >= HOUR);
    const lc = sql`(${sql.join(
      late.map(([q]) => sql`${q}`),
      sql` + `,
    )})`;
    const lu = sql`(${sql.join(
      late.map(([, q]) => sql`${q}`),
      sql` + `,
    )})`;
    // whether an hour row is the last hour of its local bucket: the next hour starts another key
    const lastOfKey = sql`(${st.bucket} + ${int(HOUR + w)}) % ${int(size)} = 0`;
    for (const p of planOf(deps, seg, byDays ? [HOUR, DAY] : byQuarter ? [HOUR] : usable)) {
      const s = signOf(p);
      if (!p.span) {
        const k = keyOf(epochMs(db, c.clickedAt), o);
        parts.push(
          sql`select ${k} as k, ${s}count(*) as c, ${s}${uniqueHumans(c)} as u, 0 as lc, 0 as lu from ${c} where ${clicksOf(c, linkIds, p)} group by ${k}`,
        );
      } else if (byDays && p.span === DAY) parts.push(...dayParts(p, o, w, late.length ? { lc, lu, lastOfKey } : null));
      else if (!byQuarter) {
        const k = keyOf(st.bucket, o);
        parts.push(
          grouped(p.span)
            ? sql`select ${k} as k, ${s}sum(${st.clicks}) as c, ${s}sum(${st.uniques}) as u, 0 as lc, 0 as lu from ${st} where ${bucketsOf(st, linkIds, p)} group by ${k}`
            : sql`select ${k} as k, ${s}${st.clicks} as c, ${s}${st.uniques} as u, 0 as lc, 0 as lu from ${st} where ${bucketsOf(st, linkIds, p)}`,
        );
      } else {
        // the offset puts an hour's quarters in two local hours: those before the local hour ends
        // (the early ones) share the key of the bucket's start, the late ones the key of the next
        // local hour (a quarter never straddles). One read of the rows: the hour less its late
        // quarters goes to its key, and the late quarters (lc, lu) to the next key, which only differs
        // from the hour's own key for the last hour of a local bucket (for days, one hour in 24)
        const k = keyOf(st.bucket, o);
        const onLast = (x: SQL) => (size === HOUR ? x : sql`case when ${lastOfKey} then ${x} else 0 end`);
        parts.push(
          grouped(HOUR)
            ? sql`select ${k} as k, ${s}sum(${st.clicks} - ${onLast(lc)}) as c, ${s}sum(${st.uniques} - ${onLast(lu)}) as u, ${s}sum(${onLast(lc)}) as lc, ${s}sum(${onLast(lu)}) as lu from ${st} where ${bucketsOf(st, linkIds, p)} group by ${k}`
            : sql`select ${k} as k, ${s}(${st.clicks} - ${lc}) as c, ${s}(${st.uniques} - ${lu}) as u, ${s}(${lc}) as lc, ${s}(${lu}) as lu from ${st} where ${bucketsOf(st, linkIds, p)}`,
        );
      }
    }
  }

  /**
   * The local days of UTC day rows `p` (offset o = w + m): local days start at the same hour e of
   * every UTC day, so a UTC day's hours before e belong to one local day and the rest to the next.
   * Each day row goes whole to the local day of the longer side, and the hour rows of the shorter
   * side are moved to their own local day (1 hour a day for Europe/Berlin in winter, 5 for
   * Asia/Kolkata and America/New_York, instead of all 24). With a part-hour offset, the late
   * quarters of each local day's last hour then move on to the next day, as in the quarter path.
   * Rows (k, c, u, lc, lu): c and u count for key k, lc and lu for the key after it.
   */
  function dayParts(p: PlanPiece, o: number, w: number, quarters: { lc: SQL; lu: SQL; lastOfKey: SQL } | null): SQL[] {
    const s = signOf(p);
    const neg = sql.raw(p.sign < 0 ? "" : "-");
    const e = (((-w % DAY) + DAY) % DAY) as number;
    // the hours from e on are the shorter side: the day row counts for the local day of its start
    const toStart = e >= DAY / 2;
    const hours = { ...p, span: HOUR };
    const k = keyOf(st.bucket, o);
    const out = [
      sql`select ${keyOf(sql`${st.bucket} + ${int(toStart ? 0 : DAY - HOUR)}`, o)} as k, ${s}${st.clicks} as c, ${s}${st.uniques} as u, 0 as lc, 0 as lu from ${st} where ${bucketsOf(st, linkIds, p)}`,
    ];
    if (toStart)
      // hours from e on: taken from the day before their own (k - 1), added to their own (the key after)
      out.push(
        sql`select ${k} - 1 as k, ${neg}sum(${st.clicks}) as c, ${neg}sum(${st.uniques}) as u, ${s}sum(${st.clicks}) as lc, ${s}sum(${st.uniques}) as lu from ${st} where ${bucketsOf(st, linkIds, hours)} and ${st.bucket} % ${int(DAY)} >= ${int(e)} group by ${k}`,
      );
    else if (e > 0)
      // hours before e: added to their own day (k), taken from the day after it, where the day row counted them
      out.push(
        sql`select ${k} as k, ${s}sum(${st.clicks}) as c, ${s}sum(${st.uniques}) as u, ${neg}sum(${st.clicks}) as lc, ${neg}sum(${st.uniques}) as lu from ${st} where ${bucketsOf(st, linkIds, hours)} and ${st.bucket} % ${int(DAY)} < ${int(e)} group by ${k}`,
      );
    if (quarters)
      out.push(
        sql`select ${k} as k, ${neg}sum(${quarters.lc}) as c, ${neg}sum(${quarters.lu}) as u, ${s}sum(${quarters.lc}) as lc, ${s}sum(${quarters.lu}) as lu from ${st} where ${bucketsOf(st, linkIds, hours)} and ${quarters.lastOfKey} group by ${k}`,
      );
    return out;
  }

  return seriesOf(await unionOf(db, parts), mod);
}

/**
 * The rows of the parts summed per key: c and u count for the row's key, lc and lu (the late
 * quarters) for the next local bucket (the hour of the week after the last wraps to the first).
 */
function seriesOf(rows: Record<string, unknown>[], mod: number): Series {
  const series: Series = new Map();
  const nextKey = (k: number) => (mod === Number.MAX_SAFE_INTEGER ? k + 1 : (k + 1) % mod);
  const bump = (k: number, clicks: number, unique: number) => {
    const cur = series.get(k);
    if (cur) {
      cur.clicks += clicks;
      cur.unique += unique;
    } else series.set(k, { clicks, unique });
  };
  for (const r of rows) {
    const k = num(r.k);
    bump(k, num(r.c), num(r.u));
    if (num(r.lc) || num(r.lu)) bump(nextKey(k), num(r.lc), num(r.lu));
  }
  // a key whose clicks were all taken away again (an edge counted as its bucket less the rest) has none
  for (const [k, v] of series) if (!v.clicks) series.delete(k);
  return series;
}

/** Every local bucket key the range covers in `tz`, in order (hours skipped by DST are absent). */
export function localKeys(range: Range, tz: string, size: number): number[] {
  const keys: number[] = [];
  let last = -Infinity;
  for (const seg of offsetSegments(tz, range)) {
    const first = Math.floor((seg.from + seg.offset) / size);
    const end = Math.floor((seg.to - 1 + seg.offset) / size);
    for (let k = Math.max(first, last + 1); k <= end; k++) keys.push(k);
    last = Math.max(last, end);
  }
  return keys;
}
