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
import { HOUR, SPANS, ceilTo, floorTo, type Range } from "./range";
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
export type Db = Pick<Deps, "asyncDb"> & Partial<Pick<Deps, "clock">>;

/** The plan of `range` for `deps` (see plan). */
export const planOf = (deps: Db, range: Range, spans?: readonly number[]) =>
  plan(range, spans, deps.clock ? deps.clock.now().getTime() : undefined);

/** A count or sum as a number: PostgreSQL returns bigint aggregates as strings. */
export const num = (v: unknown) => Number(v ?? 0);

/** The instant of a timestamp column in ms since the epoch, on either database (SQLite stores ms already). */
export function epochMs(db: Db["asyncDb"], col: SQL | SQLWrapper): SQL {
  return db.engine === "postgres" ? sql`(extract(epoch from ${col}) * 1000)::bigint` : sql`${col}`;
}

/** Human clicks that are unique, counted on either database (booleans are 0/1 on SQLite, booleans on PostgreSQL). */
export const uniqueHumans = (c: Tables["clicks"]) => sql`count(*) filter (where ${c.isUnique} and not ${c.isBot})`;

/** `-` before an aggregate of a piece that is taken away. */
export const signOf = (p: PlanPiece) => sql.raw(p.sign < 0 ? "-" : "");

/** A whole number written into the SQL (made here, never from input): PostgreSQL then sees a grouped expression and the selected one as the same. */
export function int(n: number): SQL {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a whole number: ${n}`);
  return sql.raw(String(n));
}

/**
 * Runs one statement made of the plan's parts (`union all`), under `outer` when given, so every figure of an
 * answer comes from one snapshot of the database even while clicks keep arriving; the same SQL text
 * on SQLite and PostgreSQL.
 */
export async function unionOf(db: Db["asyncDb"], parts: SQL[], outer?: (union: SQL) => SQL): Promise<Record<string, unknown>[]> {
  if (!parts.length) return [];
  const all = sql.join(parts, sql` union all `);
  return rowsOf(db, outer ? outer(sql`(${all}) as p`) : all);
}

/** `link_id in (…)` of a table's column, with the ids written as numbers. */
const ofLinks = (col: SQLWrapper, linkIds: number[]) => sql`${col} in (${sql.join(linkIds.map(int), sql`, `)})`;

/** The rows of `st` (time roll-ups) or `sd` (dimension roll-ups) a bucket piece reads. */
export function bucketsOf(t: { linkId: SQLWrapper; span: SQLWrapper; bucket: SQLWrapper }, linkIds: number[], p: PlanPiece): SQL {
  return sql`${ofLinks(t.linkId, linkIds)} and ${t.span} = ${int(p.span)} and ${t.bucket} >= ${int(p.from)} and ${t.bucket} < ${int(p.to)}`;
}

/** The clicks a raw piece reads (index `clicks_link_time`). */
export function clicksOf(c: Tables["clicks"], linkIds: number[], p: PlanPiece): SQL {
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
