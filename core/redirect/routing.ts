import type { LinkRow } from "../../db/schema";
import { parsedUa, type GeoLookup } from "../clicks/enrich";
import { queryParams } from "../clicks/click-id";
import { memoize } from "../memo";
import { RULE_DEVICES, RULE_OS, parseRules, parseVariants, type RuleConditions, type RuleOs } from "../links/routing-input";
import { withUtm } from "./target";

/** What rules may look at in a visit; the request-dependent parts are read only when a rule asks. */
interface RoutingVisit {
  ip: string | null;
  userAgent: string | null;
  /** the Accept-Language header */
  acceptLanguage?: () => string | null;
  /** the short link's own query string, without `?` */
  query?: () => string;
}

/** Which rule or variant sent a visitor, and where. */
interface Routed {
  target: string;
  rule: number | null;
  variant: number | null;
}

/**
 * The facts of one visit as small numbers, each worked out on first use: a country or language is
 * its number among the values the link's rules name (-1 for any other), the OS and device their
 * place in RULE_OS and RULE_DEVICES. A rule then tests each condition with one array read.
 */
class Facts {
  private _country = -2;
  private _language = -2;
  private _ua?: { os: number; device: number };
  private _query?: Map<string, string>;
  constructor(
    private c: CompiledRouting,
    private v: RoutingVisit,
    readonly now: number,
  ) {}
  get country(): number {
    if (this._country === -2) this._country = this.c.countries.get(this.c.geo(this.v.ip).country ?? "") ?? -1;
    return this._country;
  }
  get language(): number {
    if (this._language === -2) this._language = this.c.languages.get(primaryLanguage(this.v.acceptLanguage?.() ?? null) ?? "") ?? -1;
    return this._language;
  }
  get ua() {
    return (this._ua ??= uaFacts(this.v.userAgent ?? ""));
  }
  get query() {
    return (this._query ??= queryParams(this.v.query?.() ?? ""));
  }
}

/** The primary subtag of the visitor's first language (`de-AT,de;q=0.9,en;q=0.5` → `de`). */
export function primaryLanguage(header: string | null): string | null {
  const m = header ? /^\s*([A-Za-z]{2,3})(?![A-Za-z])/.exec(header) : null;
  return m ? m[1]!.toLowerCase() : null;
}

const LINUX =
  /^(Linux|Ubuntu|Debian|Fedora|Arch|Mint|openSUSE|SUSE|Gentoo|CentOS|Red Hat|RedHat|Manjaro|Kubuntu|Xubuntu|Slackware|Mandriva|Deepin|elementary OS)$/i;

/** The OS family a rule compares against, from ua-parser's OS name; null for any other. */
export function osFamily(name: string | null): RuleOs | null {
  if (name === "iOS" || name === "Android" || name === "Windows") return name;
  if (name === "Mac OS" || name === "macOS") return "macOS";
  return name && LINUX.test(name) ? "Linux" : null;
}

/** Places of the User-Agent's OS family in RULE_OS and device type in RULE_DEVICES (-1: none), memoized per agent. */
const uaFacts = memoize((ua: string): { os: number; device: number } => {
  const p = parsedUa(ua);
  const os = osFamily(p.os);
  return { os: os ? RULE_OS.indexOf(os) : -1, device: (RULE_DEVICES as readonly string[]).indexOf(p.device) };
});

/** One rule's conditions in the form the redirect tests them: a flag per known value, null when not given. */
interface CompiledRule {
  from: number;
  to: number;
  query: [string, string][] | null;
  os: Uint8Array | null;
  device: Uint8Array | null;
  language: Uint8Array | null;
  country: Uint8Array | null;
  routed: Routed;
}

/** What every rule of a link shares: the geo databases, and the numbers of the countries and languages the rules name. */
interface CompiledRouting {
  geo: GeoLookup;
  countries: Map<string, number>;
  languages: Map<string, number>;
}

function numbered(values: (string[] | undefined)[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const list of values) for (const v of list ?? []) if (!m.has(v)) m.set(v, m.size);
  return m;
}

/** Flags of `chosen` among `all` (a number per value), or null when the condition is not given. */
function flags(chosen: readonly string[] | undefined, index: (v: string) => number, size: number): Uint8Array | null {
  if (!chosen) return null;
  const f = new Uint8Array(size);
  for (const v of chosen) f[index(v)] = 1;
  return f;
}

function compileRule(c: RuleConditions, shared: CompiledRouting, routed: Routed): CompiledRule {
  return {
    from: c.from ? Date.parse(c.from) : -Infinity,
    to: c.to ? Date.parse(c.to) : Infinity,
    query: c.query ? Object.entries(c.query) : null,
    os: flags(c.os, (v) => RULE_OS.indexOf(v as RuleOs), RULE_OS.length),
    device: flags(c.device, (v) => (RULE_DEVICES as readonly string[]).indexOf(v), RULE_DEVICES.length),
    language: flags(c.language, (v) => shared.languages.get(v)!, shared.languages.size),
    country: flags(c.country, (v) => shared.countries.get(v)!, shared.countries.size),
    routed,
  };
}

/** Whether every condition of `r` holds, cheapest first (time, agent, then language, country and query, read on first use). */
function holds(r: CompiledRule, f: Facts): boolean {
  if (f.now < r.from || f.now >= r.to) return false;
  if (r.os && r.os[f.ua.os] !== 1) return false;
  if (r.device && r.device[f.ua.device] !== 1) return false;
  if (r.language && r.language[f.language] !== 1) return false;
  if (r.country && r.country[f.country] !== 1) return false;
  if (r.query) for (const [k, v] of r.query) if (f.query.get(k) !== v) return false;
  return true;
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
export function compileRouting(geo: GeoLookup, link: LinkRow): Routing | null {
  if (!link.rules && !link.variants) return null;
  const stored = parseRules(link.rules);
  const shared: CompiledRouting = {
    geo,
    countries: numbered(stored.map((r) => r.if.country)),
    languages: numbered(stored.map((r) => r.if.language)),
  };
  const rules = stored.map((r, i) => compileRule(r.if, shared, { target: withUtm(link, r.url), rule: i, variant: null }));
  const variants = parseVariants(link.variants);
  const bounds: number[] = [];
  let total = 0;
  for (const v of variants) bounds.push((total += v.weight));
  const picks: Routed[] = variants.map((v, i) => ({ target: withUtm(link, v.url), rule: null, variant: i }));
  return {
    route(visit, now) {
      if (rules.length) {
        const facts = new Facts(shared, visit, now);
        for (const r of rules) if (holds(r, facts)) return r.routed;
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
