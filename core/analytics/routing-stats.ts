import type { Deps } from "../deps";
import type { Tables } from "../../db/async";
import { parseRules, parseVariants } from "../links/routing-input";
import { dimsTallies } from "./query";
import type { Range } from "./range";

/**
 * Clicks of the range by redirect rule and by A/B variant, for the link's current rules and
 * variants (an index counts the clicks recorded under that index): `rules: [{index, clicks}]`,
 * `variants: [{index, url, clicks, uniqueClicks}]`; bots count in `clicks` as in totalClicks. Read
 * from the roll-ups (the `rule` and `variant` dimensions) in one statement, like every other figure;
 * a link with neither reads nothing.
 */
export async function routingStatsOf(
  deps: Pick<Deps, "asyncDb"> & Partial<Pick<Deps, "clock">>,
  link: Tables["links"]["$inferSelect"],
  range: Range,
) {
  const rules = parseRules(link.rules);
  const variants = parseVariants(link.variants);
  const dims = [...(rules.length ? ["rule" as const] : []), ...(variants.length ? ["variant" as const] : [])];
  const t = dims.length ? await dimsTallies(deps, [link.id], range, dims) : { rule: new Map(), variant: new Map() };
  const of = (m: Map<string, { clicks: number; uniques: number }> | undefined, i: number) => m?.get(String(i)) ?? { clicks: 0, uniques: 0 };
  return {
    rules: rules.map((_, index) => ({ index, clicks: of(t.rule, index).clicks })),
    variants: variants.map((v, index) => ({
      index,
      url: v.url,
      clicks: of(t.variant, index).clicks,
      uniqueClicks: of(t.variant, index).uniques,
    })),
  };
}
