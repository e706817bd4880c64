import type { ClickHook } from "../clicks/hooks";
import type { ClickRow } from "../../db/schema";
import { DAY, HOUR, QUARTER, floorTo } from "./range";

/** The dimensions rolled up per hour and per day. */
export const DIMS = ["country", "device", "browser", "os", "bot"] as const;
export type Dim = (typeof DIMS)[number];

/** The value a click contributes to a dimension ('' = unknown), or null when it does not count there. */
export function dimValue(click: Pick<ClickRow, "country" | "device" | "browser" | "os" | "isBot" | "botName">, dim: Dim): string | null {
  if (dim === "bot") return click.isBot ? (click.botName ?? "") : null;
  return click[dim] ?? "";
}

const UPSERT_QUARTER = `INSERT INTO link_stats_quarter (link_id, bucket, clicks, uniques, bots) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (link_id, bucket) DO UPDATE SET clicks = clicks + excluded.clicks, uniques = uniques + excluded.uniques, bots = bots + excluded.bots`;
const UPSERT_DIM = `INSERT INTO link_stats_dim (link_id, grain, dim, bucket, value, clicks) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (link_id, grain, dim, bucket, value) DO UPDATE SET clicks = clicks + excluded.clicks`;

/**
 * Keeps the analytics roll-ups (db/schema/analytics.ts) in step with recorded clicks. Runs inside the
 * click batch's transaction; the batch is first aggregated in memory so a batch of N clicks costs one
 * upsert per distinct bucket, not per click.
 */
export const rollupClicks: ClickHook = (_tx, deps, batch) => {
  const quarters = new Map<string, [number, number, number, number, number]>();
  const dims = new Map<string, [number, string, string, number, string, number]>();
  for (const { click } of batch) {
    const at = click.clickedAt.getTime();
    const q = floorTo(at, QUARTER);
    const qKey = `${click.linkId}:${q}`;
    const row = quarters.get(qKey) ?? quarters.set(qKey, [click.linkId, q, 0, 0, 0]).get(qKey)!;
    row[2] += 1;
    if (click.isUnique && !click.isBot) row[3] += 1;
    if (click.isBot) row[4] += 1;
    for (const dim of DIMS) {
      const value = dimValue(click, dim);
      if (value === null) continue;
      for (const [grain, step] of [["hour", HOUR], ["day", DAY]] as const) {
        const bucket = floorTo(at, step);
        const key = `${click.linkId}\u0000${grain}\u0000${dim}\u0000${bucket}\u0000${value}`;
        const d = dims.get(key);
        if (d) d[5] += 1;
        else dims.set(key, [click.linkId, grain, dim, bucket, value, 1]);
      }
    }
  }
  // Same connection as the drizzle transaction (bun:sqlite is synchronous), so these writes are part of it.
  const sqlite = deps.db.$client;
  const upQuarter = sqlite.query(UPSERT_QUARTER);
  for (const row of quarters.values()) upQuarter.run(...row);
  const upDim = sqlite.query(UPSERT_DIM);
  for (const row of dims.values()) upDim.run(...row);
};
