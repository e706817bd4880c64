import { planLimitMessage } from "../i18n/problem";
import type { Plan, PlanLimits } from "../../config-plans";
import type { Deps } from "../deps";
import { PlanLimit } from "../errors";

export const PLAN_RANK: Record<Plan, number> = { free: 0, starter: 1, pro: 2, business: 3 };

export interface Subscription {
  plan: Plan;
  expiresAt: string | null;
}

/** The plan in force now: a paid plan past its expiry counts as free. */
export function activePlan(user: { plan: Plan; planExpiresAt: Date | null }, now: Date): Plan {
  if (user.plan !== "free" && user.planExpiresAt && user.planExpiresAt.getTime() <= now.getTime()) return "free";
  return user.plan;
}

export function subscriptionOf(user: { plan: Plan; planExpiresAt: Date | null }, now: Date): Subscription {
  const plan = activePlan(user, now);
  return { plan, expiresAt: plan === "free" ? null : (user.planExpiresAt?.toISOString() ?? null) };
}

export function limitsOf(deps: Pick<Deps, "config" | "clock">, user: { plan: Plan; planExpiresAt: Date | null }): PlanLimits {
  return deps.config.planLimits[activePlan(user, deps.clock.now())];
}

/** Throws PlanLimit when `current + adding` would pass the plan's limit for `what`. */
export function assertWithinLimit(
  deps: Pick<Deps, "config" | "clock">,
  user: { plan: Plan; planExpiresAt: Date | null },
  what: keyof PlanLimits,
  current: number,
  adding = 1,
): void {
  const max = limitsOf(deps, user)[what];
  if (current + adding > max) {
    const plan = activePlan(user, deps.clock.now());
    throw new PlanLimit(planLimitMessage(plan, max, what, current));
  }
}
