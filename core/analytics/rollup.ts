import { rowsInto, type ListenerRows, type RowOf, type StoredClick } from "../clicks/listeners";
import type { ClickRow } from "../../db/schema";
import { HOUR, QUARTER, SPANS, floorTo } from "./range";
import { referrerHost } from "./referrer";

/** The dimensions rolled up per hour, day and block; `rule` and `variant` are the indices that sent the click. */
const DIMS = ["country", "device", "browser", "os", "bot", "rule", "variant", "referrer"] as const;
export type Dim = (typeof DIMS)[number];

/** The value a click contributes to a dimension ('' = unknown), or null when it does not count there. */
function dimValue(
  click: Pick<ClickRow, "country" | "device" | "browser" | "os" | "isBot" | "botName" | "rule" | "variant">,
  dim: Dim,
  referrer: string,
): string | null {
  if (dim === "referrer") return referrer;
  if (dim === "bot") return click.isBot ? (click.botName ?? "") : null;
  if (dim === "rule" || dim === "variant") return click[dim] === null ? null : String(click[dim]);
  return click[dim] ?? "";
}

/**
 * The batch's clicks that count alike in every roll-up (same link, quarter hour, uniqueness, `kind`,
 * rule, variant and referrer), once each with how many there are: traffic repeats, so this is far
 * fewer than the clicks. Grouped by numbers and the referrer's host, so a click costs five map lookups.
 */
function alikeClicks(batch: readonly StoredClick[]): { click: ClickRow; at: number; n: number; referrer: string }[] {
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

type TimeRow = RowOf<"linkStatsTime"> & {
  clicks: number;
  uniques: number;
  bots: number;
  q0: number;
  q1: number;
  q2: number;
  q3: number;
  u0: number;
  u1: number;
  u2: number;
  u3: number;
};
type DimRow = RowOf<"linkStatsDim"> & { clicks: number; uniques: number };
const QS = ["q0", "q1", "q2", "q3"] as const;
const US = ["u0", "u1", "u2", "u3"] as const;

/** A batch's roll-up increments, one row per bucket and value it touches. */
function rollupRows(batch: readonly StoredClick[]): { times: TimeRow[]; dims: DimRow[] } {
  const times = new Map<string, TimeRow>();
  const dims = new Map<string, DimRow>();
  for (const { click, at, n, referrer } of alikeClicks(batch)) {
    const unique = click.isUnique && !click.isBot ? n : 0;
    const quarter = Math.floor((at - floorTo(at, HOUR)) / QUARTER);
    for (const span of SPANS) {
      const bucket = floorTo(at, span);
      const key = `${click.linkId}:${span}:${bucket}`;
      let row = times.get(key);
      if (!row)
        times.set(
          key,
          (row = {
            linkId: click.linkId,
            span,
            bucket,
            clicks: 0,
            uniques: 0,
            bots: 0,
            q0: 0,
            q1: 0,
            q2: 0,
            q3: 0,
            u0: 0,
            u1: 0,
            u2: 0,
            u3: 0,
          }),
        );
      row.clicks += n;
      row.uniques += unique;
      row.bots += click.isBot ? n : 0;
      if (span === HOUR) {
        row[QS[quarter]!] += n;
        row[US[quarter]!] += unique;
      }
      for (const dim of DIMS) {
        const value = dimValue(click, dim, referrer);
        if (value === null) continue;
        const dKey = `${key}\u0000${dim}\u0000${value}`;
        const u = dim === "variant" ? unique : 0;
        const d = dims.get(dKey);
        if (d) {
          d.clicks += n;
          d.uniques += u;
        } else dims.set(dKey, { linkId: click.linkId, span, dim, bucket, value, clicks: n, uniques: u });
      }
    }
  }
  return { times: [...times.values()], dims: [...dims.values()] };
}

/**
 * Keeps the analytics roll-ups (db/tables/analytics.ts) in step with recorded clicks: the batch is
 * aggregated in memory, and each bucket and value it touches is one row whose counts the click
 * writer adds to the stored row, in the transaction that records the clicks.
 */
export function rollupClicks(batch: readonly StoredClick[]): ListenerRows[] {
  const { times, dims } = rollupRows(batch);
  return [
    rowsInto("linkStatsTime", times, { keys: ["linkId", "span", "bucket"], add: ["clicks", "uniques", "bots", ...QS, ...US] }),
    rowsInto("linkStatsDim", dims, { keys: ["linkId", "span", "dim", "bucket", "value"], add: ["clicks", "uniques"] }),
  ];
}
