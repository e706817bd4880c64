/**
 * Aggregations over the roll-ups plus, for the ragged edges of a range, the raw clicks. Every
 * function takes a set of link ids (one link, or all of a user's links for the summary). On the
 * async seam (db/async.ts): the same queries on SQLite and PostgreSQL (timestamps read as epoch ms,
 * booleans counted with `filter`, aggregates read back as numbers).
 */
import { referrerHostSql } from "./referrer";
import { and, eq, gte, inArray, lt, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Deps } from "../deps";
import { rowsOf, type Tables } from "../../db/async";
import { DAY, HOUR, QUARTER, SPANS, ceilTo, floorTo, offsetSegments, type Range } from "./range";
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
  return [
    ...(r.from < a ? [{ from: r.from, to: a, span: 0 }] : []),
    ...aligned({ from: a, to: b }, spans, 0),
    ...(b < r.to ? [{ from: b, to: r.to, span: 0 }] : []),
  ];
}

/** `r` is aligned to spans[i]: use spans[i] at the edges and coarser spans inside. */
function aligned(r: Range, spans: readonly number[], i: number): Piece[] {
  const next = spans[i + 1];
  const a = next ? ceilTo(r.from, next) : 0;
  const b = next ? floorTo(r.to, next) : 0;
  if (!next || a >= b) return [{ ...r, span: spans[i]! }];
  return [
    ...(r.from < a ? [{ from: r.from, to: a, span: spans[i]! }] : []),
    ...aligned({ from: a, to: b }, spans, i + 1),
    ...(b < r.to ? [{ from: b, to: r.to, span: spans[i]! }] : []),
  ];
}

/**
 * A piece of a query plan: a sub-range read from roll-up buckets of `span` ms or from raw clicks
 * (span 0), added to the answer (sign 1) or taken from it (sign -1).
 */
export type PlanPiece = Piece & { sign: 1 | -1 };

/**
 * The plan of a range: its roll-up pieces, and for each ragged edge (the part of a finest bucket the
 * range only partly covers) the cheaper of two exact ways to count it: the raw clicks of the part,
 * or the whole bucket less the raw clicks of the rest of it. Cheaper means fewer milliseconds before
 * `now` to scan (clicks are not recorded ahead of the clock), so a range ending now reads the hour in
 * progress from its roll-up row less the clicks after now (none, or a few from a clock ahead of
 * ours), however many clicks that hour holds.
 */
export function plan(r: Range, spans: readonly number[] = SPANS, now = Number.POSITIVE_INFINITY): PlanPiece[] {
  const h = spans[0]!;
  const past = (a: number, b: number) => Math.max(0, Math.min(b, now) - a);
  const buckets: PlanPiece[] = [];
  const raw: PlanPiece[] = [];
  for (const p of pieces(r, spans)) {
    if (p.span) {
      buckets.push({ ...p, sign: 1 });
      continue;
    }
    for (let a = p.from; a < p.to; ) {
      const start = floorTo(a, h);
      const end = Math.min(p.to, start + h);
      if (past(start, a) + past(end, start + h) < past(a, end)) {
        buckets.push({ from: start, to: start + h, span: h, sign: 1 });
        if (start < a) raw.push({ from: start, to: a, span: 0, sign: -1 });
        if (end < start + h) raw.push({ from: end, to: start + h, span: 0, sign: -1 });
      } else raw.push({ from: a, to: end, span: 0, sign: 1 });
      a = end;
    }
  }
  // a whole bucket taken for an edge joins the run of buckets of its span next to it
  buckets.sort((x, y) => x.span - y.span || x.from - y.from);
  const merged: PlanPiece[] = [];
  for (const b of buckets) {
    const last = merged.at(-1);
    if (last && last.span === b.span && last.to === b.from) last.to = b.to;
    else merged.push({ ...b });
  }
  return [...merged, ...raw];
}

/** What the query functions need: the seam, and the clock when there is one (to plan ranges that end now). */
type Db = Pick<Deps, "asyncDb"> & Partial<Pick<Deps, "clock">>;

/** The plan of `range` for `deps` (see plan). */
const planOf = (deps: Db, range: Range, spans?: readonly number[]) =>
  plan(range, spans, deps.clock ? deps.clock.now().getTime() : undefined);

/** A count or sum as a number: PostgreSQL returns bigint aggregates as strings. */
const num = (v: unknown) => Number(v ?? 0);

/** The instant of a timestamp column in ms since the epoch, on either database (SQLite stores ms already). */
function epochMs(db: Db["asyncDb"], col: SQL | SQLWrapper): SQL {
  return db.engine === "postgres" ? sql`(extract(epoch from ${col}) * 1000)::bigint` : sql`${col}`;
}

/** Human clicks that are unique, counted on either database (booleans are 0/1 on SQLite, booleans on PostgreSQL). */
const uniqueHumans = (c: Tables["clicks"]) => sql`count(*) filter (where ${c.isUnique} and not ${c.isBot})`;

/** `-` before an aggregate of a piece that is taken away. */
const signOf = (p: PlanPiece) => sql.raw(p.sign < 0 ? "-" : "");

/** A whole number written into the SQL (made here, never from input): PostgreSQL then sees a grouped expression and the selected one as the same. */
function int(n: number): SQL {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a whole number: ${n}`);
  return sql.raw(String(n));
}

/**
 * Runs one statement made of the plan's parts (`union all`), under `outer` when given, so every figure of an
 * answer comes from one snapshot of the database even while clicks keep arriving; the same SQL text
 * on SQLite and PostgreSQL.
 */
async function unionOf(db: Db["asyncDb"], parts: SQL[], outer?: (union: SQL) => SQL): Promise<Record<string, unknown>[]> {
  if (!parts.length) return [];
  const all = sql.join(parts, sql` union all `);
  return rowsOf(db, outer ? outer(sql`(${all}) as p`) : all);
}

/** `link_id in (…)` of a table's column, with the ids written as numbers. */
const ofLinks = (col: SQLWrapper, linkIds: number[]) => sql`${col} in (${sql.join(linkIds.map(int), sql`, `)})`;

/** The rows of `st` (time roll-ups) or `sd` (dimension roll-ups) a bucket piece reads. */
function bucketsOf(t: { linkId: SQLWrapper; span: SQLWrapper; bucket: SQLWrapper }, linkIds: number[], p: PlanPiece): SQL {
  return sql`${ofLinks(t.linkId, linkIds)} and ${t.span} = ${int(p.span)} and ${t.bucket} >= ${int(p.from)} and ${t.bucket} < ${int(p.to)}`;
}

/** The clicks a raw piece reads (index `clicks_link_time`). */
function clicksOf(c: Tables["clicks"], linkIds: number[], p: PlanPiece): SQL {
  return sql`${ofLinks(c.linkId, linkIds)} and ${and(gte(c.clickedAt, new Date(p.from)), lt(c.clickedAt, new Date(p.to)))}`;
}

export interface Totals {
  clicks: number;
  uniques: number;
  bots: number;
}

/** Clicks, unique human clicks and bot clicks of `linkIds` in `range`. */
export async function totals(deps: Db, linkIds: number[], range: Range): Promise<Totals> {
  const db = deps.asyncDb;
  const { clicks: c, linkStatsTime: st } = db.tables;
  if (!linkIds.length) return { clicks: 0, uniques: 0, bots: 0 };
  const parts = planOf(deps, range).map((p) =>
    p.span
      ? sql`select ${signOf(p)}sum(${st.clicks}) as c, ${signOf(p)}sum(${st.uniques}) as u, ${signOf(p)}sum(${st.bots}) as b from ${st} where ${bucketsOf(st, linkIds, p)}`
      : sql`select ${signOf(p)}count(*) as c, ${signOf(p)}${uniqueHumans(c)} as u, ${signOf(p)}count(*) filter (where ${c.isBot}) as b from ${c} where ${clicksOf(c, linkIds, p)}`,
  );
  const [row] = await unionOf(
    db,
    parts,
    (u) => sql`select coalesce(sum(c), 0) as c, coalesce(sum(u), 0) as u, coalesce(sum(b), 0) as b from ${u}`,
  );
  return { clicks: num(row?.c), uniques: num(row?.u), bots: num(row?.b) };
}

/** A dimension's value of a raw click, and the clicks it counts (bots only for `bot`; those a rule or variant sent for those). */
const RAW_DIM: Record<Dim, { value: (c: Tables["clicks"], engine: "sqlite" | "postgres") => SQL; only?: (c: Tables["clicks"]) => SQL }> = {
  referrer: { value: (c, engine) => referrerHostSql(engine, c.referer) },
  country: { value: (c) => sql`coalesce(${c.country}, '')` },
  device: { value: (c) => sql`coalesce(${c.device}, '')` },
  browser: { value: (c) => sql`coalesce(${c.browser}, '')` },
  os: { value: (c) => sql`coalesce(${c.os}, '')` },
  bot: { value: (c) => sql`coalesce(${c.botName}, '')`, only: (c) => sql`${c.isBot}` },
  rule: { value: (c) => sql`cast(${c.rule} as text)`, only: (c) => sql`${c.rule} is not null` },
  variant: { value: (c) => sql`cast(${c.variant} as text)`, only: (c) => sql`${c.variant} is not null` },
};

/** Click counts per value of `dim` ('' = unknown) of `linkIds` in `range`. */
export async function dimCounts(deps: Db, linkIds: number[], range: Range, dim: Dim): Promise<Map<string, number>> {
  return (await dimsCounts(deps, linkIds, range, [dim]))[dim];
}

/** Click counts per value of each of `dims` ('' = unknown) of `linkIds` in `range`, in one statement. */
export async function dimsCounts<D extends Dim>(
  deps: Db,
  linkIds: number[],
  range: Range,
  dims: readonly D[],
): Promise<Record<D, Map<string, number>>> {
  const tallies = await dimsTallies(deps, linkIds, range, dims);
  return Object.fromEntries(dims.map((d) => [d, new Map([...tallies[d]].map(([v, t]) => [v, t.clicks]))])) as Record<
    D,
    Map<string, number>
  >;
}

/**
 * Clicks and unique human clicks per value of each of `dims` of `linkIds` in `range`, in one
 * statement. The roll-ups keep uniques for `variant` only: for the other dimensions `uniques` is not
 * a figure to show.
 */
export async function dimsTallies<D extends Dim>(
  deps: Db,
  linkIds: number[],
  range: Range,
  dims: readonly D[],
): Promise<Record<D, Map<string, { clicks: number; uniques: number }>>> {
  const db = deps.asyncDb;
  const { clicks: c, linkStatsDim: sd } = db.tables;
  const out = Object.fromEntries(dims.map((d) => [d, new Map()])) as Record<D, Map<string, { clicks: number; uniques: number }>>;
  if (!linkIds.length || !dims.length) return out;
  const names = sql.join(
    dims.map((d) => sql.raw(`'${d}'`)),
    sql`, `,
  );
  const parts = planOf(deps, range).flatMap((p) =>
    p.span
      ? [
          sql`select ${sd.dim} as d, ${sd.value} as v, ${signOf(p)}sum(${sd.clicks}) as n, ${signOf(p)}sum(${sd.uniques}) as u from ${sd} where ${ofLinks(sd.linkId, linkIds)} and ${sd.span} = ${int(p.span)} and ${sd.dim} in (${names}) and ${sd.bucket} >= ${int(p.from)} and ${sd.bucket} < ${int(p.to)} group by ${sd.dim}, ${sd.value}`,
        ]
      : dims.map((d) => {
          const { value, only } = RAW_DIM[d];
          const v = value(c, db.engine);
          return sql`select ${sql.raw(`'${d}'`)} as d, ${v} as v, ${signOf(p)}count(*) as n, ${signOf(p)}${uniqueHumans(c)} as u from ${c} where ${clicksOf(c, linkIds, p)}${only ? sql` and ${only(c)}` : sql``} group by ${v}`;
        }),
  );
  for (const { d, v, n, u } of await unionOf(db, parts, (all) => sql`select d, v, sum(n) as n, sum(u) as u from ${all} group by d, v`)) {
    const m = out[String(d) as D];
    const count = num(n);
    if (!m || !count) continue;
    const t = m.get(String(v)) ?? { clicks: 0, uniques: 0 };
    t.clicks += count;
    t.uniques += num(u);
    m.set(String(v), t);
  }
  return out;
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
  const series: Series = new Map();
  if (!linkIds.length) return series;
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

  // the late quarters' key: the next local bucket (the hour of the week after the last wraps to the first)
  const nextKey = (k: number) => (mod === Number.MAX_SAFE_INTEGER ? k + 1 : (k + 1) % mod);
  const bump = (k: number, clicks: number, unique: number) => {
    const cur = series.get(k);
    if (cur) {
      cur.clicks += clicks;
      cur.unique += unique;
    } else series.set(k, { clicks, unique });
  };
  for (const r of await unionOf(db, parts)) {
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

/** The earliest roll-up bucket of these links (ms), or null when they have no clicks. */
export async function firstClickBucket(deps: Db, linkIds: number[]): Promise<number | null> {
  if (!linkIds.length) return null;
  const { linkStatsTime: st } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select({ first: sql`min(${st.bucket})` })
    .from(st)
    .where(and(inArray(st.linkId, linkIds), eq(st.span, HOUR)));
  return row?.first == null ? null : num(row.first);
}
