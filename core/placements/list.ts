/**
 * The account's placements over a period, sorted by a figure or a field, amounts of money compared
 * within one currency.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import { PERIODS, parsePeriod } from "../analytics/range";
import { workspaceCurrency } from "../workspaces/currency";
import { timeParam } from "./stats";
import { toPlacements, type Placement } from "./read";

/** What listPlacements sorts by: a figure of `stats` (`stayed_d7` for stayed.d7.stayed, …) or a field. */
export const PLACEMENT_SORTS = [
  "created_at",
  "publish_at",
  "name",
  "cost",
  "views",
  "clicks",
  "unique_clicks",
  "joins",
  "leaves",
  "stayed_h24",
  "stayed_d7",
  "stayed_d30",
  "conversions",
  "cpm",
  "cpc",
  "cost_per_join",
  "cost_per_retained",
  "roas",
] as const;
type PlacementSort = (typeof PLACEMENT_SORTS)[number];
/** Other names `sort` takes: `stayed` is the week's figure, as the Ads table shows it. */
const SORT_ALIASES: Record<string, PlacementSort> = { stayed: "stayed_d7" };
/** Sorts that are amounts of money: compared only within one currency. */
const MONEY_SORTS = new Set<PlacementSort>(["cost", "cpm", "cpc", "cost_per_join", "cost_per_retained"]);

function sortValue(p: Placement, key: PlacementSort): number | string | null {
  switch (key) {
    case "created_at":
      return p.created_at;
    case "publish_at":
      return p.publish_at ?? p.created_at;
    case "name":
      return p.name.toLowerCase();
    case "cost":
      return p.cost?.amount ?? null;
    case "stayed_h24":
    case "stayed_d7":
    case "stayed_d30":
      return p.stats.stayed[key.slice(7) as "h24" | "d7" | "d30"].stayed;
    case "conversions":
      return p.stats.conversions.count;
    default:
      return p.stats[key];
  }
}

/**
 * The account's placements whose date (publish_at, else when it was made) falls in the period
 * (default 30d; `all`), each with its figures, sorted by `sort` (default created_at) in `order`
 * (default desc); placements without the figure (null) come last either way, then newest first.
 * The list converts no currency: sorted by an amount (cost, cpm, cpc, cost per join or retained),
 * placements are grouped by currency, the account's own first, then the others by code, and sorted
 * within each group.
 */
export async function listPlacements(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  userId: number,
  q: { period?: string; sort?: string; order?: string } = {},
): Promise<Placement[]> {
  const period = parsePeriod(q.period);
  const sort = (SORT_ALIASES[q.sort ?? ""] ?? q.sort ?? "created_at") as PlacementSort;
  if (!PLACEMENT_SORTS.includes(sort))
    throw new AppError(400, "validation_error", `sort: must be one of ${PLACEMENT_SORTS.join(", ")} (or stayed)`, [
      { field: "sort", message: `must be one of ${PLACEMENT_SORTS.join(", ")} (or stayed)` },
    ]);
  const order = q.order ?? "desc";
  if (order !== "asc" && order !== "desc")
    throw new AppError(400, "validation_error", "order: must be asc or desc", [{ field: "order", message: "must be asc or desc" }]);
  const days = PERIODS[period];
  const db = deps.asyncDb;
  const from = days === null ? null : deps.clock.now().getTime() - days * 86_400_000;
  const where = sql`p.user_id = ${userId}${from === null ? sql`` : sql` and coalesce(p.publish_at, p.created_at) >= ${timeParam(db, from)}`}`;
  const { placements } = db.tables;
  const rows = await db
    .select()
    .from(placements)
    .where(
      and(
        eq(placements.userId, userId),
        from === null ? undefined : sql`coalesce(${placements.publishAt}, ${placements.createdAt}) >= ${timeParam(db, from)}`,
      ),
    );
  const list = await toPlacements(deps, rows, where);
  const sign = order === "asc" ? 1 : -1;
  // money is compared within a currency: the account's own first, then the others by code, in either order
  const home = MONEY_SORTS.has(sort) ? (await workspaceCurrency(deps, userId)).effective : null;
  const group = (p: Placement) => (p.cost === null ? "" : p.cost.currency === home ? " " : p.cost.currency);
  return list.sort((a, b) => {
    const x = sortValue(a, sort);
    const y = sortValue(b, sort);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (home !== null && group(a) !== group(b)) return group(a) < group(b) ? -1 : 1;
    else if (x !== y) return (x < y ? -1 : 1) * sign;
    return b.id - a.id;
  });
}
