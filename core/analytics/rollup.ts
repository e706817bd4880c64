import { sql } from "drizzle-orm";
import type { ClickListener, StoredClick } from "../clicks/listeners";
import { rowsOf, type AsyncTx } from "../../db/async";
import type { ClickRow } from "../../db/schema";
import { HOUR, QUARTER, SPANS, floorTo } from "./range";
import { referrerHost } from "./referrer";

/** The dimensions rolled up per hour, day and block; `rule` and `variant` are the indices that sent the click. */
const DIMS = ["country", "device", "browser", "os", "bot", "rule", "variant", "referrer"] as const;
export type Dim = (typeof DIMS)[number];

/** The value a click contributes to a dimension ('' = unknown), or null when it does not count there. */
function dimValue(click: Pick<ClickRow, "country" | "device" | "browser" | "os" | "isBot" | "botName" | "rule" | "variant">, dim: Dim, referrer: string): string | null {
  if (dim === "referrer") return referrer;
  if (dim === "bot") return click.isBot ? (click.botName ?? "") : null;
  if (dim === "rule" || dim === "variant") return click[dim] === null ? null : String(click[dim]);
  return click[dim] ?? "";
}

const UPSERT_TIME = `INSERT INTO link_stats_time (link_id, span, bucket, clicks, uniques, bots, q0, q1, q2, q3, u0, u1, u2, u3)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (link_id, span, bucket) DO UPDATE SET clicks = clicks + excluded.clicks, uniques = uniques + excluded.uniques,
    bots = bots + excluded.bots, q0 = q0 + excluded.q0, q1 = q1 + excluded.q1, q2 = q2 + excluded.q2, q3 = q3 + excluded.q3,
    u0 = u0 + excluded.u0, u1 = u1 + excluded.u1, u2 = u2 + excluded.u2, u3 = u3 + excluded.u3`;
const UPSERT_DIM = `INSERT INTO link_stats_dim (link_id, span, dim, bucket, value, clicks, uniques) VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (link_id, span, dim, bucket, value) DO UPDATE SET clicks = clicks + excluded.clicks, uniques = uniques + excluded.uniques`;

/**
 * The batch's clicks that count alike in every roll-up (same link, quarter hour, uniqueness, `kind`,
 * rule, variant and referrer), once each with how many there are: traffic repeats, so this is far
 * fewer than the clicks. Grouped by numbers and the referrer's host, so a click costs five map lookups.
 */
function alikeClicks(batch: StoredClick[]): { click: ClickRow; at: number; n: number; referrer: string }[] {
  type Group = { click: ClickRow; at: number; n: number; referrer: string };
  const inner = <V>(map: Map<number, Map<number, V>>, key: number) => {
    let m = map.get(key);
    if (!m) map.set(key, (m = new Map()));
    return m;
  };
  const groups: Group[] = [];
  const byLink = new Map<number, Map<number, Map<number, Map<number, Map<string, Group>>>>>();
  for (const { click, kind } of batch) {
    const at = floorTo(click.clickedAt.getTime(), QUARTER);
    const byKind = inner(inner(byLink, click.linkId), at);
    const byRouting = inner(byKind, kind * 2 + (click.isUnique ? 1 : 0));
    // the rule's and the variant's index (or none) as one number: both are far below a million
    const k = ((click.rule ?? -1) + 1) * 1_000_000 + ((click.variant ?? -1) + 1);
    let byReferrer = byRouting.get(k);
    if (!byReferrer) byRouting.set(k, (byReferrer = new Map()));
    const referrer = referrerHost(click.referer);
    const g = byReferrer.get(referrer);
    if (g) g.n++;
    else {
      const created = { click, at, n: 1, referrer };
      byReferrer.set(referrer, created);
      groups.push(created);
    }
  }
  return groups;
}

/** Time rows: [link, span, bucket, clicks, uniques, bots, q0..q3, u0..u3]; dim rows: [link, span, dim, bucket, value, clicks, uniques]. */
type TimeRow = number[];
type DimRow = [number, number, Dim, number, string, number, number];

/** A batch's roll-up increments, one row per bucket and value it touches, in key order. */
function rollupRows(batch: StoredClick[]): { times: TimeRow[]; dims: DimRow[] } {
  const times = new Map<string, TimeRow>();
  const dims = new Map<string, DimRow>();
  for (const { click, at, n, referrer } of alikeClicks(batch)) {
    const unique = click.isUnique && !click.isBot ? n : 0;
    const quarter = Math.floor((at - floorTo(at, HOUR)) / QUARTER);
    for (const span of SPANS) {
      const bucket = floorTo(at, span);
      const key = `${click.linkId}:${span}:${bucket}`;
      let row = times.get(key);
      if (!row) times.set(key, (row = [click.linkId, span, bucket, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
      row[3]! += n;
      row[4]! += unique;
      row[5]! += click.isBot ? n : 0;
      if (span === HOUR) {
        row[6 + quarter]! += n;
        row[10 + quarter]! += unique;
      }
      for (const dim of DIMS) {
        const value = dimValue(click, dim, referrer);
        if (value === null) continue;
        const dKey = `${key}\u0000${dim}\u0000${value}`;
        const u = dim === "variant" ? unique : 0;
        const d = dims.get(dKey);
        if (d) {
          d[5] += n;
          d[6] += u;
        } else dims.set(dKey, [click.linkId, span, dim, bucket, value, n, u]);
      }
    }
  }
  return { times: [...times.values()], dims: [...dims.values()] };
}

/** Rows per roll-up statement on PostgreSQL: a batch of recent clicks touches far fewer, so one statement per table; a backlog spread over days may take a few. */
const PG_ROWS = 50_000;

/**
 * The roll-ups on PostgreSQL: one upsert per table and batch, its rows as one JSON parameter (bound
 * values through drizzle's builder cost more than the upsert itself). Rows go in key order, so two
 * nodes writing clicks of the same links lock the same rows in the same order (no deadlock).
 */
async function rollupPg(tx: AsyncTx, batch: StoredClick[]): Promise<void> {
  const { times, dims } = rollupRows(batch);
  const byKey = (a: (number | string)[], b: (number | string)[]) => {
    for (let i = 0; i < 5; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  };
  times.sort(byKey);
  dims.sort(byKey);
  const counted = ["clicks", "uniques", "bots", "q0", "q1", "q2", "q3", "u0", "u1", "u2", "u3"] as const;
  const sums = sql.raw(counted.map((c) => `${c} = link_stats_time.${c} + excluded.${c}`).join(", "));
  const columns = sql.raw(["link_id", "span", "bucket", ...counted].join(", "));
  const types = sql.raw(["link_id", "span", "bucket", ...counted].map((c) => `${c} bigint`).join(", "));
  const names = ["link_id", "span", "bucket", ...counted];
  for (let i = 0; i < times.length; i += PG_ROWS) {
    const json = JSON.stringify(times.slice(i, i + PG_ROWS).map((row) => Object.fromEntries(names.map((n, j) => [n, row[j]]))));
    await rowsOf(tx, sql`insert into link_stats_time (${columns}) select ${columns} from json_to_recordset(${json}::text::json) as r(${types})
      on conflict (link_id, span, bucket) do update set ${sums}`);
  }
  for (let i = 0; i < dims.length; i += PG_ROWS) {
    const json = JSON.stringify(dims.slice(i, i + PG_ROWS).map(([l, s, d, b, v, c, u]) => ({ l, s, d, b, v, c, u })));
    await rowsOf(tx, sql`insert into link_stats_dim (link_id, span, dim, bucket, value, clicks, uniques)
      select l, s, d, b, v, c, u from json_to_recordset(${json}::text::json) as r(l bigint, s bigint, d text, b bigint, v text, c bigint, u bigint)
      on conflict (link_id, span, dim, bucket, value) do update set clicks = link_stats_dim.clicks + excluded.clicks, uniques = link_stats_dim.uniques + excluded.uniques`);
  }
}

/**
 * Keeps the analytics roll-ups (db/tables/analytics.ts) in step with recorded clicks. Runs inside the
 * click batch's transaction; the batch is first aggregated in memory so a batch of N clicks costs one
 * upsert per distinct bucket, not per click.
 */
export const rollupClicks: ClickListener = Object.assign(
  (_tx: unknown, deps: Parameters<ClickListener>[1], batch: StoredClick[]) => {
    const { times, dims } = rollupRows(batch);
    // Same connection as the drizzle transaction (bun:sqlite is synchronous), so these writes are part of it.
    const sqlite = deps.db.$client;
    const upTime = sqlite.query(UPSERT_TIME);
    for (const row of times) upTime.run(...row);
    const upDim = sqlite.query(UPSERT_DIM);
    for (const row of dims) upDim.run(...(row as (string | number)[]));
  },
  { postgres: (tx: AsyncTx, _deps: unknown, batch: StoredClick[]) => rollupPg(tx, batch) },
);
