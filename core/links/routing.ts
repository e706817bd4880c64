import type { LinkRow } from "../../db/schema";
import { geoOf, parsedUa, type GeoDbs } from "../clicks/enrich";
import { memoize } from "../memo";
import { parseRules, parseVariants, type RuleConditions, type RuleDevice, type RuleOs } from "./routing-input";
import { withUtm } from "./target";

/** What rules may look at in a visit; the request-dependent parts are read only when a rule asks. */
export interface RoutingVisit {
  ip: string | null;
  userAgent: string | null;
  /** the Accept-Language header */
  acceptLanguage?: () => string | null;
  /** the short link's own query string, without `?` */
  query?: () => string;
}

/** Which rule or variant sent a visitor, and where. */
export interface Routed {
  target: string;
  rule: number | null;
  variant: number | null;
}

/** The facts of one visit, each worked out on first use. */
class Facts {
  private _country?: string | null;
  private _language?: string | null;
  private _ua?: { os: RuleOs | null; device: string };
  private _query?: URLSearchParams;
  constructor(private geo: GeoDbs, private v: RoutingVisit, readonly now: number) {}
  get country() {
    return this._country === undefined ? (this._country = geoOf(this.geo, this.v.ip).country) : this._country;
  }
  get language() {
    return this._language === undefined ? (this._language = primaryLanguage(this.v.acceptLanguage?.() ?? null)) : this._language;
  }
  get ua() {
    return (this._ua ??= uaFacts(this.v.userAgent ?? ""));
  }
  get query() {
    return (this._query ??= new URLSearchParams(this.v.query?.() ?? ""));
  }
}

/** The primary subtag of the visitor's first language (`de-AT,de;q=0.9,en;q=0.5` → `de`). */
export function primaryLanguage(header: string | null): string | null {
  const m = header ? /^\s*([A-Za-z]{2,3})(?![A-Za-z])/.exec(header) : null;
  return m ? m[1]!.toLowerCase() : null;
}

const LINUX = /^(Linux|Ubuntu|Debian|Fedora|Arch|Mint|openSUSE|SUSE|Gentoo|CentOS|Red Hat|RedHat|Manjaro|Kubuntu|Xubuntu|Slackware|Mandriva|Deepin|elementary OS)$/i;

/** The OS family and device type a rule compares against (memoized per User-Agent). */
export const uaFacts = memoize((ua: string): { os: RuleOs | null; device: string } => {
  const p = parsedUa(ua);
  const name = p.os ?? "";
  const os: RuleOs | null = name === "iOS" ? "iOS" : name === "Android" ? "Android" : name === "Windows" ? "Windows" : name === "Mac OS" || name === "macOS" ? "macOS" : LINUX.test(name) ? "Linux" : null;
  return { os, device: p.device };
});

type Check = (f: Facts) => boolean;

/** One condition set as a list of checks, cheapest first (time, query, then agent, language, country). */
function compileConditions(c: RuleConditions): Check[] {
  const checks: Check[] = [];
  if (c.from) {
    const from = Date.parse(c.from);
    checks.push((f) => f.now >= from);
  }
  if (c.to) {
    const to = Date.parse(c.to);
    checks.push((f) => f.now < to);
  }
  if (c.query) {
    const pairs = Object.entries(c.query);
    checks.push((f) => pairs.every(([k, v]) => f.query.get(k) === v));
  }
  if (c.os) {
    const set = new Set<string>(c.os);
    checks.push((f) => f.ua.os !== null && set.has(f.ua.os));
  }
  if (c.device) {
    const set = new Set<string>(c.device as RuleDevice[]);
    checks.push((f) => set.has(f.ua.device));
  }
  if (c.language) {
    const set = new Set(c.language);
    checks.push((f) => f.language !== null && set.has(f.language));
  }
  if (c.country) {
    const set = new Set(c.country);
    checks.push((f) => f.country !== null && set.has(f.country));
  }
  return checks;
}

/** A link's rules and variants, compiled once when the link is cached. */
export interface Routing {
  /** The rule or variant for this visit, or null to fall through to the per-platform targets. */
  route(visit: RoutingVisit, now: number): Routed | null;
}

/**
 * Compiles the stored rules and variants of a link (null when it has neither, so plain links skip
 * routing entirely). Targets carry the link's UTM parameters, worked out here once.
 */
export function compileRouting(geo: GeoDbs, link: LinkRow): Routing | null {
  if (!link.rules && !link.variants) return null;
  const rules = parseRules(link.rules).map((r, i) => ({ checks: compileConditions(r.if), routed: { target: withUtm(link, r.url), rule: i, variant: null } }));
  const variants = parseVariants(link.variants);
  const bounds: number[] = [];
  let total = 0;
  for (const v of variants) bounds.push((total += v.weight));
  const picks: Routed[] = variants.map((v, i) => ({ target: withUtm(link, v.url), rule: null, variant: i }));
  return {
    route(visit, now) {
      if (rules.length) {
        const facts = new Facts(geo, visit, now);
        for (const r of rules) if (r.checks.every((check) => check(facts))) return r.routed;
      }
      if (!picks.length) return null;
      const slot = variantSlot(link.id, visit.ip, visit.userAgent, total);
      let i = 0;
      while (slot >= bounds[i]!) i++;
      return picks[i]!;
    },
  };
}

/**
 * Where a visitor (IP + User-Agent) falls in a split of `total` weight on link `linkId`: a stable
 * hash, so the same visitor gets the same variant on every visit and on every node, with nothing
 * stored. Each link hashes differently, so one visitor is not always first in every test.
 */
export function variantSlot(linkId: number, ip: string | null, userAgent: string | null, total: number): number {
  return Number(BigInt.asUintN(32, BigInt(Bun.hash(`${linkId}\n${ip ?? ""}\n${userAgent ?? ""}`))) % BigInt(total));
}
