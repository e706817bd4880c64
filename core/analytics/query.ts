/**
 * Aggregations over the roll-ups plus, for the ragged edges of a range, the raw clicks. Every
 * function takes a set of link ids (one link, or all of a user's links for the summary).
 */
import type { Database } from "bun:sqlite";
import type { Deps } from "../deps";
import { DAY, HOUR, QUARTER, ceilTo, floorTo, offsetSegments, type Range } from "./range";
import type { Dim } from "./rollup";

type Piece = Range & { grain: "raw" | "quarter" | "hour" | "day" };

const IDS = "link_id IN (SELECT value FROM json_each(?))";

/** Splits a range into the coarsest roll-up buckets that fit plus raw edges: raw | hour | day | hour | raw. */
export function dimPieces(r: Range): Piece[] {
  if (r.to <= r.from) return [];
  const ha = ceilTo(r.from, HOUR);
  const hb = floorTo(r.to, HOUR);
  if (ha >= hb) return [{ ...r, grain: "raw" }];
  const pieces: Piece[] = [];
  if (r.from < ha) pieces.push({ from: r.from, to: ha, grain: "raw" });
  const da = ceilTo(ha, DAY);
  const db = floorTo(hb, DAY);
  if (da >= db) pieces.push({ from: ha, to: hb, grain: "hour" });
  else {
    if (ha < da) pieces.push({ from: ha, to: da, grain: "hour" });
    pieces.push({ from: da, to: db, grain: "day" });
    if (db < hb) pieces.push({ from: db, to: hb, grain: "hour" });
  }
  if (hb < r.to) pieces.push({ from: hb, to: r.to, grain: "raw" });
  return pieces;
}

/** Splits a range into whole 15-minute buckets plus raw edges. */
export function quarterPieces(r: Range): Piece[] {
  if (r.to <= r.from) return [];
  const qa = ceilTo(r.from, QUARTER);
  const qb = floorTo(r.to, QUARTER);
  if (qa >= qb) return [{ ...r, grain: "raw" }];
  const pieces: Piece[] = [];
  if (r.from < qa) pieces.push({ from: r.from, to: qa, grain: "raw" });
  pieces.push({ from: qa, to: qb, grain: "quarter" });
  if (qb < r.to) pieces.push({ from: qb, to: r.to, grain: "raw" });
  return pieces;
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
  for (const p of quarterPieces(range)) {
    const row = p.grain === "quarter"
      ? sqlite(deps).query(`SELECT coalesce(sum(clicks), 0), coalesce(sum(uniques), 0), coalesce(sum(bots), 0) FROM link_stats_quarter WHERE ${IDS} AND bucket >= ? AND bucket < ?`).values(ids, p.from, p.to)[0]
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
  for (const p of dimPieces(range)) {
    const rows = p.grain === "raw"
      ? sqlite(deps).query(`SELECT ${RAW_DIM[dim]} AS v, count(*) FROM clicks WHERE ${IDS} AND clicked_at >= ? AND clicked_at < ?${dim === "bot" ? " AND is_bot" : ""} GROUP BY v`).values(ids, p.from, p.to)
      : sqlite(deps).query(`SELECT value, sum(clicks) FROM link_stats_dim WHERE ${IDS} AND grain = ? AND dim = ? AND bucket >= ? AND bucket < ? GROUP BY value`).values(ids, p.grain, dim, p.from, p.to);
    for (const [v, n] of rows) counts.set(String(v), (counts.get(String(v)) ?? 0) + Number(n));
  }
  return counts;
}

/**
 * Clicks and unique human clicks per local bucket of `size` ms (an hour or a day) in zone `tz`.
 * Keys are floor(localMs / size), where localMs is the wall-clock time read as if it were UTC; the
 * two wall-clock hours of a DST fall-back share a key and are summed.
 */
export function localSeries(deps: Pick<Deps, "db">, linkIds: number[], range: Range, tz: string, size: number): Map<number, { clicks: number; unique: number }> {
  const ids = JSON.stringify(linkIds);
  const series = new Map<number, { clicks: number; unique: number }>();
  for (const seg of offsetSegments(tz, range)) {
    for (const p of quarterPieces(seg)) {
      const rows = p.grain === "quarter"
        ? sqlite(deps).query(`SELECT CAST((bucket + ?) / ? AS INTEGER) AS k, sum(clicks), sum(uniques) FROM link_stats_quarter WHERE ${IDS} AND bucket >= ? AND bucket < ? GROUP BY k`).values(seg.offset, size, ids, p.from, p.to)
        : sqlite(deps).query(`SELECT CAST((clicked_at + ?) / ? AS INTEGER) AS k, count(*), sum(is_unique AND NOT is_bot) FROM clicks WHERE ${IDS} AND clicked_at >= ? AND clicked_at < ? GROUP BY k`).values(seg.offset, size, ids, p.from, p.to);
      for (const [k, c, u] of rows) {
        const cur = series.get(Number(k));
        if (cur) {
          cur.clicks += Number(c);
          cur.unique += Number(u);
        } else series.set(Number(k), { clicks: Number(c), unique: Number(u) });
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
  const row = sqlite(deps).query(`SELECT min(bucket) FROM link_stats_quarter WHERE ${IDS}`).values(JSON.stringify(linkIds))[0];
  return row?.[0] == null ? null : Number(row[0]);
}
