import { and, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { Tables } from "../../db/async";
import { parseRules, parseVariants } from "../links/routing-input";
import type { Range } from "./range";

/**
 * Clicks of the range by redirect rule and by A/B variant, for the link's current rules and
 * variants (an index counts the clicks recorded under that index): `rules: [{index, clicks}]`,
 * `variants: [{index, url, clicks, uniqueClicks}]`; bots count in `clicks` as in totalClicks. A link
 * with neither reads nothing.
 */
export async function routingStatsOf(deps: Pick<Deps, "asyncDb">, link: Tables["links"]["$inferSelect"], range: Range) {
  const { clicks } = deps.asyncDb.tables;
  const db = deps.asyncDb;
  const rules = parseRules(link.rules);
  const variants = parseVariants(link.variants);
  const inRange = and(eq(clicks.linkId, link.id), gte(clicks.clickedAt, new Date(range.from)), lt(clicks.clickedAt, new Date(range.to)));
  const byRule = new Map<number, number>();
  if (rules.length)
    for (const r of await db.select({ i: clicks.rule, n: sql`count(*)` }).from(clicks).where(and(inRange, isNotNull(clicks.rule))).groupBy(clicks.rule))
      byRule.set(r.i!, Number(r.n));
  const byVariant = new Map<number, { n: number; u: number }>();
  if (variants.length)
    for (const r of await db.select({ i: clicks.variant, n: sql`count(*)`, u: sql`count(*) filter (where ${clicks.isUnique})` })
      .from(clicks).where(and(inRange, isNotNull(clicks.variant))).groupBy(clicks.variant))
      byVariant.set(r.i!, { n: Number(r.n), u: Number(r.u) });
  return {
    rules: rules.map((_, index) => ({ index, clicks: byRule.get(index) ?? 0 })),
    variants: variants.map((v, index) => ({ index, url: v.url, clicks: byVariant.get(index)?.n ?? 0, uniqueClicks: byVariant.get(index)?.u ?? 0 })),
  };
}
