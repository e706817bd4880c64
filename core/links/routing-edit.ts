import type { Deps } from "../deps";
import { FieldError } from "../errors";
import { editLink, ownedLink } from "./links";
import { MIN_VARIANTS, parseRules, parseVariants, type Rule, type Variant } from "./routing-input";

/**
 * Step-by-step edits of a link's rules and variants (the bot's flows: add, list, remove, reorder),
 * each saved through editLink, so they are validated exactly as the API's `rules` and `variants`.
 */

/** The link's rules and variants as stored (404 for another user's link). */
export async function routingOf(
  deps: Pick<Deps, "asyncDb">,
  userId: number,
  linkId: number,
): Promise<{ rules: Rule[]; variants: Variant[] }> {
  const link = await ownedLink(deps, userId, linkId);
  return { rules: parseRules(link.rules), variants: parseVariants(link.variants) };
}

function checkIndex(list: unknown[], index: number, what: string, field = "index") {
  if (!Number.isInteger(index) || index < 0 || index >= list.length)
    throw new FieldError(
      field,
      list.length ? `no ${what} ${index}: the link has ${what}s 0 to ${list.length - 1}` : `the link has no ${what}s`,
    );
}

/** `list` with entry `from` moved to position `to`. */
function moved<T>(list: T[], from: number, to: number, what: string): T[] {
  checkIndex(list, from, what, "from");
  checkIndex(list, to, what, "to");
  const out = [...list];
  out.splice(to, 0, ...out.splice(from, 1));
  return out;
}

/**
 * The edits as pure functions of the lists (0-based indexes; FieldError for an index that is not
 * there): the functions below apply them to a stored link, and the bot turns a typed answer into the
 * new list with them before saving it through the same validation.
 */
export const ruleEdits = {
  add(rules: Rule[], rule: Rule, at?: number): Rule[] {
    if (at !== undefined && (!Number.isInteger(at) || at < 0 || at > rules.length))
      throw new FieldError("index", `must be from 0 to ${rules.length}`);
    const out = [...rules];
    out.splice(at ?? out.length, 0, rule);
    return out;
  },
  remove(rules: Rule[], index: number): Rule[] {
    checkIndex(rules, index, "rule");
    return rules.filter((_, i) => i !== index);
  },
  move: (rules: Rule[], from: number, to: number): Rule[] => moved(rules, from, to, "rule"),
};

export const variantEdits = {
  /** A link without a split starts one: its own URL becomes variant 0 (weight 50), the new one variant 1. */
  add(linkUrl: string, variants: Variant[], variant: Variant): Variant[] {
    return [...(variants.length ? variants : [{ url: linkUrl, weight: 50 }]), variant];
  },
  /** A split keeps at least two variants: removing one of the last two is refused (ending the split is its own step). */
  remove(variants: Variant[], index: number): Variant[] {
    checkIndex(variants, index, "variant");
    if (variants.length <= MIN_VARIANTS)
      throw new FieldError("index", `a split needs at least ${MIN_VARIANTS} variants; end the split instead`);
    return variants.filter((_, i) => i !== index);
  },
  move: (variants: Variant[], from: number, to: number): Variant[] => moved(variants, from, to, "variant"),
  weight(variants: Variant[], index: number, weight: number): Variant[] {
    checkIndex(variants, index, "variant");
    return variants.map((v, i) => (i === index ? { ...v, weight } : v));
  },
};

async function saveRules(deps: Deps, userId: number, linkId: number, rules: Rule[]): Promise<Rule[]> {
  await editLink(deps, userId, linkId, { rules });
  return (await routingOf(deps, userId, linkId)).rules;
}

async function saveVariants(deps: Deps, userId: number, linkId: number, variants: Variant[]): Promise<Variant[]> {
  await editLink(deps, userId, linkId, { variants });
  return (await routingOf(deps, userId, linkId)).variants;
}

/** Adds a rule at the end (or at `at`); returns the rules now stored. 400 naming `rules[i]…` when it is invalid or a 21st. */
export async function addRule(deps: Deps, userId: number, linkId: number, rule: Rule, at?: number): Promise<Rule[]> {
  return saveRules(deps, userId, linkId, ruleEdits.add((await routingOf(deps, userId, linkId)).rules, rule, at));
}

/** Removes rule `index`; the ones after it move up. */
export async function removeRule(deps: Deps, userId: number, linkId: number, index: number): Promise<Rule[]> {
  return saveRules(deps, userId, linkId, ruleEdits.remove((await routingOf(deps, userId, linkId)).rules, index));
}

/** Moves rule `from` to position `to` (the order decides: the first match wins). */
export async function moveRule(deps: Deps, userId: number, linkId: number, from: number, to: number): Promise<Rule[]> {
  return saveRules(deps, userId, linkId, ruleEdits.move((await routingOf(deps, userId, linkId)).rules, from, to));
}

/**
 * Adds a variant. A link without a split starts one: its own URL becomes variant 0 (weight 50)
 * and the new one variant 1, so one step makes an A/B test of the link.
 */
export async function addVariant(deps: Deps, userId: number, linkId: number, variant: Variant): Promise<Variant[]> {
  const link = await ownedLink(deps, userId, linkId);
  return saveVariants(deps, userId, linkId, variantEdits.add(link.url, parseVariants(link.variants), variant));
}

/** Removes variant `index`. A split keeps at least two variants: removing one of the last two is refused (clearVariants ends it). */
export async function removeVariant(deps: Deps, userId: number, linkId: number, index: number): Promise<Variant[]> {
  return saveVariants(deps, userId, linkId, variantEdits.remove((await routingOf(deps, userId, linkId)).variants, index));
}

/** Moves variant `from` to position `to`. */
export async function moveVariant(deps: Deps, userId: number, linkId: number, from: number, to: number): Promise<Variant[]> {
  return saveVariants(deps, userId, linkId, variantEdits.move((await routingOf(deps, userId, linkId)).variants, from, to));
}

/** Changes the weight of variant `index` (1–100). */
export async function setVariantWeight(deps: Deps, userId: number, linkId: number, index: number, weight: number): Promise<Variant[]> {
  return saveVariants(deps, userId, linkId, variantEdits.weight((await routingOf(deps, userId, linkId)).variants, index, weight));
}

/** Ends the split: every visitor no rule caught goes to the link's targets again. */
export async function clearVariants(deps: Deps, userId: number, linkId: number): Promise<void> {
  await editLink(deps, userId, linkId, { variants: null });
}
