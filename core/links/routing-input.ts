import { urlProblem } from "./url";
import type { Deps } from "../deps";
import { parseDate } from "./when";

/** The conditions of a redirect rule; every one given must hold. */
export interface RuleConditions {
  /** ISO 3166-1 alpha-2 codes, upper case */
  country?: string[];
  /** primary language subtags (`de`, `pt`), lower case */
  language?: string[];
  os?: RuleOs[];
  device?: RuleDevice[];
  /** ISO 8601 UTC instants: the rule holds from `from` (inclusive) to `to` (exclusive) */
  from?: string;
  to?: string;
  /** parameters the short link's own query string must carry with exactly these values */
  query?: Record<string, string>;
}
export interface Rule {
  if: RuleConditions;
  url: string;
}
export interface Variant {
  url: string;
  weight: number;
}

const MAX_RULES = 20;
export const MIN_VARIANTS = 2;
const MAX_VARIANTS = 10;
export const RULE_OS = ["iOS", "Android", "Windows", "macOS", "Linux"] as const;
export const RULE_DEVICES = ["mobile", "tablet", "desktop"] as const;
export type RuleOs = (typeof RULE_OS)[number];
type RuleDevice = (typeof RULE_DEVICES)[number];
const MAX_LIST = 250;
const MAX_QUERY_KEYS = 20;
const CONDITIONS = ["country", "language", "os", "device", "from", "to", "query"];

type Bad = (field: string, message: string) => void;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A list of strings from `allowed` (matched ignoring case, stored in its spelling), or undefined after reporting. */
function listOf<T extends string>(
  v: unknown,
  field: string,
  bad: Bad,
  canon: (s: string) => T | null,
  what: [plural: string, one: string],
): T[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return void bad(field, `must be a non-empty array of ${what[0]}`);
  if (v.length > MAX_LIST) return void bad(field, `must have at most ${MAX_LIST} entries`);
  const out: T[] = [];
  for (const [i, item] of v.entries()) {
    const c = typeof item === "string" ? canon(item.trim()) : null;
    if (c === null) return void bad(`${field}[${i}]`, `must be ${what[1]}, got ${JSON.stringify(item)}`);
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

const fromSet =
  <T extends string>(values: readonly T[]) =>
  (s: string) =>
    values.find((x) => x.toLowerCase() === s.toLowerCase()) ?? null;

/** One rule's conditions, checked and normalized; reports each problem under `field` (e.g. `rules[3].if`). */
function conditionsOf(v: unknown, field: string, bad: Bad): RuleConditions | undefined {
  if (!isObject(v)) return void bad(field, "must be an object of conditions");
  // a misspelt condition dropped in silence would widen the rule (`contry` + `device` = every such device)
  const unknown = Object.keys(v).filter((k) => !CONDITIONS.includes(k));
  if (unknown.length) return void bad(`${field}.${unknown[0]}`, `is not a condition: use ${CONDITIONS.join(", ")}`);
  const given = Object.keys(v).filter((k) => CONDITIONS.includes(k) && v[k] !== undefined && v[k] !== null);
  if (!given.length) return void bad(field, `needs at least one condition (${CONDITIONS.join(", ")})`);
  const c: RuleConditions = {};
  let ok = true;
  const take = <K extends keyof RuleConditions>(k: K, value: RuleConditions[K] | undefined) => {
    if (value === undefined) ok = false;
    else c[k] = value;
  };
  if (v.country != null)
    take(
      "country",
      listOf(v.country, `${field}.country`, bad, (s) => (/^[A-Za-z]{2}$/.test(s) ? s.toUpperCase() : null), [
        "two-letter country codes (ISO 3166-1 alpha-2)",
        "a two-letter country code (ISO 3166-1 alpha-2)",
      ]),
    );
  if (v.language != null)
    take(
      "language",
      listOf(v.language, `${field}.language`, bad, (s) => (/^[A-Za-z]{2,3}$/.test(s) ? s.toLowerCase() : null), [
        'language codes such as "de"',
        'a language code such as "de"',
      ]),
    );
  if (v.os != null)
    take("os", listOf(v.os, `${field}.os`, bad, fromSet(RULE_OS), [`values from ${RULE_OS.join(", ")}`, `one of ${RULE_OS.join(", ")}`]));
  if (v.device != null)
    take(
      "device",
      listOf(v.device, `${field}.device`, bad, fromSet(RULE_DEVICES), [
        `values from ${RULE_DEVICES.join(", ")}`,
        `one of ${RULE_DEVICES.join(", ")}`,
      ]),
    );
  for (const k of ["from", "to"] as const) {
    if (v[k] == null) continue;
    const d = typeof v[k] === "string" ? parseDate(v[k] as string) : null;
    if (!d) {
      bad(`${field}.${k}`, "must be an ISO 8601 date-time, e.g. 2026-05-01T12:00:00Z");
      ok = false;
    } else c[k] = d.toISOString();
  }
  if (c.from && c.to && c.from >= c.to) {
    bad(`${field}.to`, "must be later than from");
    ok = false;
  }
  if (v.query != null) {
    const q = v.query;
    const keys = isObject(q) ? Object.keys(q) : [];
    if (!isObject(q) || !keys.length || keys.length > MAX_QUERY_KEYS)
      take("query", void bad(`${field}.query`, `must be an object of 1 to ${MAX_QUERY_KEYS} parameters, e.g. {"utm_source": "ad"}`));
    else {
      const bads = keys.filter((k) => !k || k.length > 200 || typeof q[k] !== "string" || (q[k] as string).length > 500);
      for (const k of bads) bad(`${field}.query.${k}`, "must be a text value of at most 500 characters (names at most 200)");
      take("query", bads.length ? undefined : { ...(q as Record<string, string>) });
    }
  }
  return ok ? c : undefined;
}

type UrlDeps = Pick<Deps, "asyncDb" | "config">;

/** The URL of a rule or variant, checked exactly as the link's own URL is. */
async function urlOf(deps: UrlDeps, v: unknown, field: string, bad: Bad): Promise<string | undefined> {
  if (typeof v !== "string" || !v.trim()) return void bad(field, "is required: the URL to send the visitor to");
  const p = await urlProblem(deps, v.trim());
  if (p) return void bad(field, p);
  return v.trim();
}

/**
 * Checks a `rules` input (null or [] removes them) and returns what to store: the normalized JSON,
 * or null. Problems go to `bad` under paths such as `rules[3].if.country`.
 */
export async function rulesInput(deps: UrlDeps, v: unknown, bad: Bad): Promise<string | null | undefined> {
  if (v === null || (Array.isArray(v) && v.length === 0)) return null;
  if (!Array.isArray(v)) return void bad("rules", "must be an array of rules, or null");
  if (v.length > MAX_RULES) return void bad("rules", `must have at most ${MAX_RULES} rules (got ${v.length})`);
  const out: Rule[] = [];
  let ok = true;
  for (const [i, r] of v.entries()) {
    const field = `rules[${i}]`;
    if (!isObject(r)) {
      bad(field, 'must be an object {"if": {...}, "url": "https://..."}');
      ok = false;
      continue;
    }
    const cond = conditionsOf(r.if, `${field}.if`, bad);
    const url = await urlOf(deps, r.url, `${field}.url`, bad);
    if (cond && url) out.push({ if: cond, url });
    else ok = false;
  }
  return ok ? JSON.stringify(out) : undefined;
}

/** Checks a `variants` input (null or [] removes them): 2–10 entries of {url, weight 1–100}. */
export async function variantsInput(deps: UrlDeps, v: unknown, bad: Bad): Promise<string | null | undefined> {
  if (v === null || (Array.isArray(v) && v.length === 0)) return null;
  if (!Array.isArray(v)) return void bad("variants", "must be an array of {url, weight}, or null");
  if (v.length < MIN_VARIANTS || v.length > MAX_VARIANTS)
    return void bad("variants", `must have ${MIN_VARIANTS} to ${MAX_VARIANTS} entries (got ${v.length})`);
  const out: Variant[] = [];
  let ok = true;
  for (const [i, x] of v.entries()) {
    const field = `variants[${i}]`;
    if (!isObject(x)) {
      bad(field, 'must be an object {"url": "https://...", "weight": 50}');
      ok = false;
      continue;
    }
    const url = await urlOf(deps, x.url, `${field}.url`, bad);
    const w = x.weight;
    const weightOk = typeof w === "number" && Number.isInteger(w) && w >= 1 && w <= 100;
    if (!weightOk) bad(`${field}.weight`, "must be a whole number from 1 to 100");
    if (url && weightOk) out.push({ url, weight: w });
    else ok = false;
  }
  return ok ? JSON.stringify(out) : undefined;
}

/** Stored rules (JSON text) as objects; [] when none. */
export const parseRules = (json: string | null): Rule[] => (json ? (JSON.parse(json) as Rule[]) : []);
/** Stored variants (JSON text) as objects; [] when none. */
export const parseVariants = (json: string | null): Variant[] => (json ? (JSON.parse(json) as Variant[]) : []);
