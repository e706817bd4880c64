/**
 * Aggregations over the roll-ups plus, for the ragged edges of a range, the raw clicks. Every
 * function takes a set of link ids (one link, or all of a user's links for the summary).
 */
import type { Database } from "bun:sqlite";
import type { Deps } from "../deps";
import { HOUR, QUARTER, SPANS, ceilTo, floorTo, offsetSegments, type Range } from "./range";
import type { Dim } from "./rollup";

/** A sub-range answered from roll-up buckets of `span` ms, or from raw clicks (span 0). */
export type Piece = Range & { span: number };

const IDS = "link_id IN (SELECT value FROM json_each(?))";

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

const sqlite = (deps: Pick<Deps, "db">): Database => deps.db.$client;

export interface Totals {
  clicks: number;
  uniques: number;
  bots: number;
}

/** Clicks, unique human clicks and bot clicks of `linkIds` in `range`. */
export function totals(deps: Pick<Deps, "db">, linkIds: number[], range: Range): Totals {
  const ids = JSON.stringify(linkIds);
  const out: Totals = { clicks: 0, uniques: 0, bots: 0 };
  for (const p of pieces(range)) {
    const row = p.span
      ? sqlite(deps).query(`SELECT coalesce(sum(clicks), 0), coalesce(sum(uniques), 0), coalesce(sum(bots), 0) FROM link_stats_time WHERE ${IDS} AND span = ? AND bucket >= ? AND bucket < ?`).values(ids, p.span, p.from, p.to)[0]
      : sqlite(deps).query(`SELECT count(*), coalesce(sum(is_unique AND NOT is_bot), 0), coalesce(sum(is_bot), 0) FROM clicks WHERE ${IDS} AND clicked_at >= ? AND clicked_at < ?`).values(ids, p.from, p.to)[0];
    out.clicks += Number(row![0]);
    out.uniques += Number(row![1]);
    out.bots += Number(row![2]);
  }
  return out;
}

const RAW_DIM: Record<Dim, string> = {
  country: "coalesce(country, '')",
  device: "coalesce(device, '')",
  browser: "coalesce(browser, '')",
  os: "coalesce(os, '')",
  bot: "coalesce(bot_name, '')",
};

/** Click counts per value of `dim` ('' = unknown) of `linkIds` in `range`. */
export function dimCounts(deps: Pick<Deps, "db">, linkIds: number[], range: Range, dim: Dim): Map<string, number> {
  const ids = JSON.stringify(linkIds);
  const counts = new Map<string, number>();
  for (const p of pieces(range)) {
    const rows = p.span
      ? sqlite(deps).query(`SELECT value, sum(clicks) FROM link_stats_dim WHERE ${IDS} AND span = ? AND dim = ? AND bucket >= ? AND bucket < ? GROUP BY value`).values(ids, p.span, dim, p.from, p.to)
      : sqlite(deps).query(`SELECT ${RAW_DIM[dim]} AS v, count(*) FROM clicks WHERE ${IDS} AND clicked_at >= ? AND clicked_at < ?${dim === "bot" ? " AND is_bot" : ""} GROUP BY v`).values(ids, p.from, p.to);
    for (const [v, n] of rows) counts.set(String(v), (counts.get(String(v)) ?? 0) + Number(n));
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
export function localSeries(deps: Pick<Deps, "db">, linkIds: number[], range: Range, tz: string, key: LocalKey): Series {
  const ids = JSON.stringify(linkIds);
  const { size, add = 0, mod = Number.MAX_SAFE_INTEGER } = key;
  const series: Series = new Map();
  const expr = (col: string) => `(CAST((${col} + ?) / ? AS INTEGER) + ?) % ?`;
  for (const seg of offsetSegments(tz, range)) {
    const o = seg.offset;
    const usable = SPANS.filter((sp) => sp <= size && size % sp === 0 && ((o % sp) + sp) % sp === 0 && (mod === Number.MAX_SAFE_INTEGER || sp === HOUR));
    const byQuarter = usable.length === 0;
    for (const p of pieces(seg, byQuarter ? [HOUR] : usable)) {
      if (!p.span) {
        const rows = sqlite(deps).query(`SELECT ${expr("clicked_at")} AS k, count(*), sum(is_unique AND NOT is_bot) FROM clicks WHERE ${IDS} AND clicked_at >= ? AND clicked_at < ? GROUP BY k`).values(o, size, add, mod, ids, p.from, p.to);
        for (const [k, c, u] of rows) addTo(series, Number(k), Number(c), Number(u));
      } else if (!byQuarter) {
        const rows = sqlite(deps).query(`SELECT ${expr("bucket")} AS k, sum(clicks), sum(uniques) FROM link_stats_time WHERE ${IDS} AND span = ? AND bucket >= ? AND bucket < ? GROUP BY k`).values(o, size, add, mod, ids, p.span, p.from, p.to);
        for (const [k, c, u] of rows) addTo(series, Number(k), Number(c), Number(u));
      } else {
        const rows = sqlite(deps).query(`SELECT bucket, q0, q1, q2, q3, u0, u1, u2, u3 FROM link_stats_time WHERE ${IDS} AND span = ? AND bucket >= ? AND bucket < ?`).values(ids, HOUR, p.from, p.to) as number[][];
        for (const r of rows)
          for (let q = 0; q < 4; q++) if (r[1 + q]) addTo(series, (Math.floor((r[0]! + q * QUARTER + o) / size) + add) % mod, r[1 + q]!, r[5 + q]!);
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
export function firstClickBucket(deps: Pick<Deps, "db">, linkIds: number[]): number | null {
  const row = sqlite(deps).query(`SELECT min(bucket) FROM link_stats_time WHERE ${IDS} AND span = ?`).values(JSON.stringify(linkIds), HOUR)[0];
  return row?.[0] == null ? null : Number(row[0]);
}
