/**
 * The plans and what each allows: the defaults, and PLAN_LIMITS (a JSON object keyed by plan) over
 * them, every key and number checked.
 */
import { ConfigError } from "./config-schema";

export type Plan = "free" | "starter" | "pro" | "business";
export const PLANS: Plan[] = ["free", "starter", "pro", "business"];

export interface PlanLimits {
  links: number;
  trackers: number;
  secureFiles: number;
  storageMB: number;
  /** what strangers may send through all of the account's request links together, apart from storageMB */
  requestStorageMB: number;
}

const DEFAULT_PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { links: 100, trackers: 2, secureFiles: 20, storageMB: 100, requestStorageMB: 100 },
  starter: { links: 1000, trackers: 10, secureFiles: 200, storageMB: 1024, requestStorageMB: 500 },
  pro: { links: 10000, trackers: 50, secureFiles: 2000, storageMB: 10240, requestStorageMB: 2048 },
  business: { links: 100000, trackers: 500, secureFiles: 20000, storageMB: 102400, requestStorageMB: 10240 },
};

export function parsePlanLimits(raw: string | undefined): Record<Plan, PlanLimits> {
  const limits = structuredClone(DEFAULT_PLAN_LIMITS);
  if (!raw) return limits;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError("PLAN_LIMITS", "is not valid JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ConfigError("PLAN_LIMITS", "expected a JSON object keyed by plan");
  for (const [plan, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!PLANS.includes(plan as Plan)) throw new ConfigError("PLAN_LIMITS", `unknown plan "${plan}"`);
    if (!value || typeof value !== "object") throw new ConfigError("PLAN_LIMITS", `"${plan}" must be an object`);
    for (const [key, n] of Object.entries(value as Record<string, unknown>)) {
      if (!["links", "trackers", "secureFiles", "storageMB", "requestStorageMB"].includes(key))
        throw new ConfigError("PLAN_LIMITS", `unknown key "${plan}.${key}"`);
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0)
        throw new ConfigError("PLAN_LIMITS", `"${plan}.${key}" must be a non-negative whole number`);
      (limits[plan as Plan] as unknown as Record<string, number>)[key] = n;
    }
  }
  return limits;
}
