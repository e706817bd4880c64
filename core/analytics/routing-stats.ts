import { and, count, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { clicks, type LinkRow } from "../../db/schema";
import { parseRules, parseVariants } from "../links/routing-input";
import type { Range } from "./range";

/**
 * Clicks of the range by redirect rule and by A/B variant, for the link's current rules and
 * variants (an index counts the clicks recorded under that index): `rules: [{index, clicks}]`,
 * `variants: [{index, url, clicks, uniqueClicks}]`; bots count in `clicks` as in totalClicks. A link
 * with neither reads nothing.
 */
export function routingStatsOf(deps: Pick<Deps, "db">, link: LinkRow, range: Range) {
  const rules = parseRules(link.rules);
  const variants = parseVariants(link.variants);
  const inRange = and(eq(clicks.linkId, link.id), gte(clicks.clickedAt, new Date(range.from)), lt(clicks.clickedAt, new Date(range.to)));
  const byRule = new Map<number, number>();
  if (rules.length)
    for (const r of deps.db.select({ i: clicks.rule, n: count() }).from(clicks).where(and(inRange, isNotNull(clicks.rule))).groupBy(clicks.rule).all())
      byRule.set(r.i!, r.n);
  const byVariant = new Map<number, { n: number; u: number }>();
  if (variants.length)
    for (const r of deps.db.select({ i: clicks.variant, n: count(), u: sql<number>`coalesce(sum(${clicks.isUnique}), 0)` })
      .from(clicks).where(and(inRange, isNotNull(clicks.variant))).groupBy(clicks.variant).all())
      byVariant.set(r.i!, { n: r.n, u: Number(r.u) });
  return {
    rules: rules.map((_, index) => ({ index, clicks: byRule.get(index) ?? 0 })),
    variants: variants.map((v, index) => ({ index, url: v.url, clicks: byVariant.get(index)?.n ?? 0, uniqueClicks: byVariant.get(index)?.u ?? 0 })),
  };
}
