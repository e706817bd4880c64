/**
 * Aggregations over the roll-ups plus, for the ragged edges of a range, the raw clicks. Every
 * function takes a set of link ids (one link, or all of a user's links for the summary). On the
 * async seam (db/async.ts): the same queries on SQLite and PostgreSQL (timestamps read as epoch ms,
 * booleans counted with `filter`, aggregates read back as numbers).
 */
import { and, eq, gte, inArray, lt, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Deps } from "../deps";
import type { Tables } from "../../db/async";
import { HOUR, QUARTER, SPANS, ceilTo, floorTo, offsetSegments, type Range } from "./range";
import type { Dim } from "./rollup";

/** A sub-range answered from roll-up buckets of `span` ms, or from raw clicks (span 0). */
export type Piece = Range & { span: number };

/**
 * Splits a range into the coarsest roll-up buckets that fit inside it (spans finest first) plus raw
 * edges, e.g. raw | hours | days | blocks | days | hours | raw.
 */
export function pieces(r: Range, spans: readonly number[] = SPANS): Piece[] {
  if (r.to <= r.from) return [];
  const a = ceilTo(r.from, spans[0]!);
  const b = floorTo(r.to, spans[0]!);
  if (!spans.length || a >= b) return [{ ...r, span: 0 }];
  return [...(r.from < a ? [{ from: r.from, to: a, span: 0 }] : []), ...aligned({ from: a, to: b }, spans, 0), ...(b < r.to ? [{ from: b, to: r.to, span: 0 }] : [])];
}

/** `r` is aligned to spans[i]: use spans[i] at the edges and coarser spans inside. */
function aligned(r: Range, spans: readonly number[], i: number): Piece[] {
  const next = spans[i + 1];
  const a = next ? ceilTo(r.from, next) : 0;
  const b = next ? floorTo(r.to, next) : 0;
  if (!next || a >= b) return [{ ...r, span: spans[i]! }];
  return [...(r.from < a ? [{ from: r.from, to: a, span: spans[i]! }] : []), ...aligned({ from: a, to: b }, spans, i + 1), ...(b < r.to ? [{ from: b, to: r.to, span: spans[i]! }] : [])];
}

type Db = Pick<Deps, "asyncDb">;

/** A count or sum as a number: PostgreSQL returns bigint aggregates as strings. */
const num = (v: unknown) => Number(v ?? 0);

/** The instant of a timestamp column in ms since the epoch, on either database (SQLite stores ms already). */
function epochMs(db: Db["asyncDb"], col: SQL | SQLWrapper): SQL {
  return db.engine === "postgres" ? sql`(extract(epoch from ${col}) * 1000)::bigint` : sql`${col}`;
}

/** Human clicks that are unique, counted on either database (booleans are 0/1 on SQLite, booleans on PostgreSQL). */
const uniqueHumans = (c: Tables["clicks"]) => sql`count(*) filter (where ${c.isUnique} and not ${c.isBot})`;

export interface Totals {
  clicks: number;
  uniques: number;
  bots: number;
}

/** Clicks, unique human clicks and bot clicks of `linkIds` in `range`. */
export async function totals(deps: Db, linkIds: number[], range: Range): Promise<Totals> {
  const db = deps.asyncDb;
  const { clicks, linkStatsTime: st } = db.tables;
  const out: Totals = { clicks: 0, uniques: 0, bots: 0 };
  if (!linkIds.length) return out;
  for (const p of pieces(range)) {
    const [row] = p.span
      ? await db.select({ c: sql`coalesce(sum(${st.clicks}), 0)`, u: sql`coalesce(sum(${st.uniques}), 0)`, b: sql`coalesce(sum(${st.bots}), 0)` }).from(st)
        .where(and(inArray(st.linkId, linkIds), eq(st.span, p.span), gte(st.bucket, p.from), lt(st.bucket, p.to)))
      : await db.select({ c: sql`count(*)`, u: uniqueHumans(clicks), b: sql`count(*) filter (where ${clicks.isBot})` }).from(clicks)
        .where(and(inArray(clicks.linkId, linkIds), gte(clicks.clickedAt, new Date(p.from)), lt(clicks.clickedAt, new Date(p.to))));
    out.clicks += num(row?.c);
    out.uniques += num(row?.u);
    out.bots += num(row?.b);
  }
  return out;
}

const RAW_DIM: Record<Dim, (c: Tables["clicks"]) => SQL> = {
  country: (c) => sql`coalesce(${c.country}, '')`,
  device: (c) => sql`coalesce(${c.device}, '')`,
  browser: (c) => sql`coalesce(${c.browser}, '')`,
  os: (c) => sql`coalesce(${c.os}, '')`,
  bot: (c) => sql`coalesce(${c.botName}, '')`,
};

/** Click counts per value of `dim` ('' = unknown) of `linkIds` in `range`. */
export async function dimCounts(deps: Db, linkIds: number[], range: Range, dim: Dim): Promise<Map<string, number>> {
  const db = deps.asyncDb;
  const { clicks, linkStatsDim: sd } = db.tables;
  const counts = new Map<string, number>();
  if (!linkIds.length) return counts;
  for (const p of pieces(range)) {
    const value = RAW_DIM[dim](clicks);
    const rows = p.span
      ? await db.select({ v: sd.value, n: sql`sum(${sd.clicks})` }).from(sd)
        .where(and(inArray(sd.linkId, linkIds), eq(sd.span, p.span), eq(sd.dim, dim), gte(sd.bucket, p.from), lt(sd.bucket, p.to)))
        .groupBy(sd.value)
      : await db.select({ v: value, n: sql`count(*)` }).from(clicks)
        .where(and(inArray(clicks.linkId, linkIds), gte(clicks.clickedAt, new Date(p.from)), lt(clicks.clickedAt, new Date(p.to)), dim === "bot" ? eq(clicks.isBot, true) : undefined))
        .groupBy(value);
    for (const { v, n } of rows) counts.set(String(v), (counts.get(String(v)) ?? 0) + num(n));
  }
  return counts;
}

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

function addTo(series: Series, k: number, clicks: number, unique: number) {
  const cur = series.get(k);
  if (cur) {
    cur.clicks += clicks;
    cur.unique += unique;
  } else series.set(k, { clicks, unique });
}

/**
 * Clicks and unique human clicks per local key in zone `tz`. Keys of a timeline are floor(localMs /
 * size), localMs being the wall-clock time read as if it were UTC; the two wall-clock hours of a DST
 * fall-back share a key and are summed. Whole-hour offsets read hour/day buckets; other offsets
 * (e.g. +05:30, +05:45) read each hour's four quarters.
 */
export async function localSeries(deps: Db, linkIds: number[], range: Range, tz: string, key: LocalKey): Promise<Series> {
  const db = deps.asyncDb;
  const { clicks, linkStatsTime: st } = db.tables;
  const { size, add = 0, mod = Number.MAX_SAFE_INTEGER } = key;
  const series: Series = new Map();
  if (!linkIds.length) return series;
  // (floor((t + o) / size) + add) % mod, in integers on both databases (t + o is positive: no rounding
  // toward zero to mind). The numbers are written into the SQL, not bound, so that PostgreSQL sees the
  // grouped expression and the selected one as the same; all four are whole numbers made here.
  const int = (n: number) => {
    if (!Number.isSafeInteger(n)) throw new RangeError(`not a whole number: ${n}`);
    return sql.raw(String(n));
  };
  const keyOf = (t: SQL | SQLWrapper, o: number) => sql`((${t} + ${int(o)}) / ${int(size)} + ${int(add)}) % ${int(mod)}`;
  for (const seg of offsetSegments(tz, range)) {
    const o = seg.offset;
    const usable = SPANS.filter((sp) => sp <= size && size % sp === 0 && ((o % sp) + sp) % sp === 0 && (mod === Number.MAX_SAFE_INTEGER || sp === HOUR));
    const byQuarter = usable.length === 0;
    for (const p of pieces(seg, byQuarter ? [HOUR] : usable)) {
      if (!p.span) {
        const k = keyOf(epochMs(db, clicks.clickedAt), o);
        const rows = await db.select({ k, c: sql`count(*)`, u: uniqueHumans(clicks) }).from(clicks)
          .where(and(inArray(clicks.linkId, linkIds), gte(clicks.clickedAt, new Date(p.from)), lt(clicks.clickedAt, new Date(p.to))))
          .groupBy(k);
        for (const r of rows) addTo(series, num(r.k), num(r.c), num(r.u));
      } else if (!byQuarter) {
        const k = keyOf(st.bucket, o);
        const rows = await db.select({ k, c: sql`sum(${st.clicks})`, u: sql`sum(${st.uniques})` }).from(st)
          .where(and(inArray(st.linkId, linkIds), eq(st.span, p.span), gte(st.bucket, p.from), lt(st.bucket, p.to)))
          .groupBy(k);
        for (const r of rows) addTo(series, num(r.k), num(r.c), num(r.u));
      } else {
        const rows = await db.select({ bucket: st.bucket, q0: st.q0, q1: st.q1, q2: st.q2, q3: st.q3, u0: st.u0, u1: st.u1, u2: st.u2, u3: st.u3 }).from(st)
          .where(and(inArray(st.linkId, linkIds), eq(st.span, HOUR), gte(st.bucket, p.from), lt(st.bucket, p.to)));
        for (const r of rows) {
          const q = [r.q0, r.q1, r.q2, r.q3];
          const u = [r.u0, r.u1, r.u2, r.u3];
          for (let i = 0; i < 4; i++) if (q[i]) addTo(series, (Math.floor((r.bucket + i * QUARTER + o) / size) + add) % mod, q[i]!, u[i]!);
        }
      }
    }
  }
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

/** The earliest roll-up bucket of these links (ms), or null when they have no clicks. */
export async function firstClickBucket(deps: Db, linkIds: number[]): Promise<number | null> {
  if (!linkIds.length) return null;
  const { linkStatsTime: st } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb.select({ first: sql`min(${st.bucket})` }).from(st).where(and(inArray(st.linkId, linkIds), eq(st.span, HOUR)));
  return row?.first == null ? null : num(row.first);
}
