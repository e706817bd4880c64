import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { domains, linkPixels, links, pixels, type LinkRow } from "../../db/schema";
import { changes } from "../../db/client";
import { detectBot } from "../clicks/bots";
import { AttemptLimiter, verifyPassword } from "./password";
import { ipBucket } from "../ip";
import { LINK_CACHE_MAX_ENTRIES, LINK_CACHE_TTL_MS, type CachedLink } from "./link-cache";
import { memoize } from "../memo";
import { asLocation, withUtm } from "./target";
import { compileRouting } from "./routing";
import { createPrivacy } from "../clicks/privacy";
import { createOrphanRecorder } from "./orphans";

/** What the visitor side knows about a request to SHORT_URL/<code>. */
export interface VisitRequest {
  code: string;
  /** Host header (port allowed) */
  host: string | null;
  method: "GET" | "HEAD" | "POST";
  ip: string | null;
  userAgent: string | null;
  referer: string | null;
  /** the submitted form field on POST */
  password?: string;
  /** the Accept-Language header, read only when a rule asks for the language */
  acceptLanguage?: () => string | null;
  /** the short link's own query string (without `?`), read only when a rule asks for it */
  query?: () => string;
}

export type PixelTag = { type: "facebook" | "google" | "tiktok" | "yandex" | "vk"; pixelId: string };

/** What to show: each kind maps to one page or redirect at the edge. */
export type VisitOutcome =
  | { kind: "not_found" }
  | { kind: "expired"; title: string | null; expiredUrl: string | null }
  | { kind: "countdown"; title: string | null; startsAt: Date; now: Date }
  | { kind: "password"; title: string | null; wrong: boolean }
  | { kind: "locked"; title: string | null; retryAfterSeconds: number }
  | { kind: "redirect"; title: string | null; target: string; pixels: PixelTag[] };

/** Which per-platform target a User-Agent gets (a cheap check: this runs on every redirect). */
export function platformOf(userAgent: string | null): "ios" | "android" | "desktop" | "other" {
  const ua = userAgent ?? "";
  if (/iPhone|iPad|iPod/i.test(ua)) return "ios";
  if (/Android/i.test(ua)) return "android";
  if (/Mobi|Windows Phone|BlackBerry|KaiOS/i.test(ua)) return "other";
  return "desktop";
}

/** platformOf per distinct User-Agent: traffic repeats them, and a lookup costs less than the three scans. */
const platformOfUa = memoize(platformOf, 5000);

/** The destination for a platform: its own target when set, else the url; UTM parameters set. */
function targetFor(link: LinkRow, platform: ReturnType<typeof platformOf>): string {
  return withUtm(link, (platform === "ios" && link.iosUrl) || (platform === "android" && link.androidUrl) || (platform === "desktop" && link.desktopUrl) || link.url);
}

/**
 * The visitor flow of CONTRACT §4 as a function of the request: unknown, inactive or wrong host →
 * not found; past expires_at or cap used up → expired; before starts_at → countdown; password →
 * form (wrong answers limited per IP and link); otherwise the target, after reserving the cap slot
 * for a human visitor (one conditional UPDATE, so the cap is exact under concurrency): the first
 * matching rule's URL, else the visitor's A/B variant, else the per-platform target. The click is
 * put into the click sink (deps.clicks) only when the visitor is sent on, after the PRIVACY_IP step
 * and before the answer. Visits that
 * find no active link are recorded as orphan visits.
 */
export function createVisitHandler(deps: Deps) {
  const sink = deps.clicks;
  const byCode = deps.db.select().from(links).where(eq(links.code, sql.placeholder("code"))).prepare();
  const pixelsOf = deps.db
    .select({ type: pixels.type, pixelId: pixels.pixelId })
    .from(linkPixels)
    .innerJoin(pixels, eq(pixels.id, linkPixels.pixelId))
    .where(eq(linkPixels.linkId, sql.placeholder("id")))
    .prepare();
  // a link on a custom domain is served there only once the domain is verified (else: 404 page)
  const domainById = deps.db.select({ hostname: domains.hostname }).from(domains)
    .where(and(eq(domains.id, sql.placeholder("id")), isNotNull(domains.verifiedAt))).prepare();
  const domainByHost = deps.db.select({ id: domains.id }).from(domains).where(eq(domains.hostname, sql.placeholder("host"))).prepare();
  const ownHosts = new Set([deps.config.shortUrl, deps.config.baseUrl].map((u) => new URL(u).hostname));
  const attempts = new AttemptLimiter(deps.cluster.counters, "link-password");
  const hostnameOf = memoize((host: string) => host.replace(/:\d+$/, "").toLowerCase(), 1000);

  const cache = deps.linkCache.entries;
  const privacy = createPrivacy(deps.config, deps.geo);
  const orphan = createOrphanRecorder(deps);
  let otherHosts = memoize((h: string) => !!domainByHost.get({ host: h }), 1000);
  let otherHostsAt = 0;
  let generation = -1;

  function load(code: string): CachedLink | null {
    const now = Date.now();
    const hit = cache.get(code);
    if (hit && now - hit.loadedAt < LINK_CACHE_TTL_MS) return hit;
    const link = byCode.get({ code });
    if (!link) return null;
    if (cache.size >= LINK_CACHE_MAX_ENTRIES) cache.clear();
    const entry: CachedLink = {
      link,
      pixels: pixelsOf.all({ id: link.id }),
      host: link.domainId === null ? null : domainById.get({ id: link.domainId })?.hostname ?? null,
      loadedAt: now,
      targets: {},
      routing: compileRouting(deps.geo, link),
    };
    cache.set(code, entry);
    return entry;
  }

  function hostMatches(entry: CachedLink, host: string | null): boolean {
    const h = hostnameOf(host ?? "");
    if (entry.link.domainId !== null) return entry.host === h;
    if (!h || ownHosts.has(h)) return true;
    if (Date.now() - otherHostsAt > LINK_CACHE_TTL_MS || generation !== deps.linkCache.generation) {
      generation = deps.linkCache.generation;
      otherHosts = memoize((x: string) => !!domainByHost.get({ host: x }), 1000);
      otherHostsAt = Date.now();
    }
    return !otherHosts(h);
  }

  function reserveCapSlot(link: LinkRow): boolean {
    return changes(deps.db.update(links).set({ capUsed: sql`${links.capUsed} + 1` })
      .where(and(eq(links.id, link.id), lt(links.capUsed, links.maxClicks))).run()) === 1;
  }

  /** Synchronous except for password checks (hashing is async), so the common redirect never waits. */
  return function visit(req: VisitRequest): VisitOutcome | Promise<VisitOutcome> {
    const entry = load(req.code);
    if (!entry || !entry.link.isActive || !hostMatches(entry, req.host)) {
      orphan(req.code, hostnameOf(req.host ?? "") || null, entry && hostMatches(entry, req.host) ? entry.link : null);
      return { kind: "not_found" };
    }
    const link = entry.link;
    const now = deps.clock.now();
    const title = link.title;
    if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return expiredOf(entry);
    if (link.maxClicks !== null && link.capUsed >= link.maxClicks) return expiredOf(entry);
    if (link.startsAt && link.startsAt.getTime() > now.getTime()) return { kind: "countdown", title, startsAt: link.startsAt, now };
    if (link.passwordHash) {
      if (req.method !== "POST") return { kind: "password", title, wrong: false };
      // per link and visitor network: an IPv6 client holds a whole /64 and could rotate through it
      const key = `${req.ip ? ipBucket(req.ip) : "?"}|${link.id}`;
      const hash = link.passwordHash;
      return attempts.attempt(key, now).then(async ({ retryAfterMs }): Promise<VisitOutcome> => {
        if (retryAfterMs > 0) return { kind: "locked", title, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
        if (!(await verifyPassword(req.password ?? "", hash))) return { kind: "password", title, wrong: true };
        await attempts.succeeded(key, now);
        return admit(entry, req, now);
      });
    }
    return admit(entry, req, now);
  };

  /** The expired outcome (its Location worked out once per cached link). */
  function expiredOf(entry: CachedLink): VisitOutcome {
    const url = entry.link.expiredUrl;
    return { kind: "expired", title: entry.link.title, expiredUrl: url && (entry.targets.expired ??= asLocation(url)) };
  }

  /** Sends the visitor on: reserves the cap slot (humans only), queues the click, picks the target. */
  function admit(entry: CachedLink, req: VisitRequest, now: Date): VisitOutcome {
    const link = entry.link;
    const title = link.title;
    const bot = detectBot(req.userAgent, req.method);
    if (link.maxClicks !== null && !bot.isBot) {
      const reserved = reserveCapSlot(link);
      link.capUsed = reserved ? link.capUsed + 1 : link.maxClicks; // keep the cached copy close to the truth
      if (!reserved) return expiredOf(entry);
    }
    const routed = entry.routing?.route(req, now.getTime()) ?? null;
    const kept = privacy?.(req.ip, req.userAgent, now.getTime());
    sink.record({
      linkId: link.id, clickedAt: now, ip: kept ? kept.ip : req.ip, userAgent: req.userAgent, referer: req.referer, isBot: bot.isBot, botName: bot.name,
      rule: routed?.rule ?? null, variant: routed?.variant ?? null, visitor: kept?.visitor ?? null, geo: kept?.geo ?? null,
    });
    let target: string;
    if (routed) target = routed.target;
    else {
      const platform = platformOfUa(req.userAgent ?? "");
      target = entry.targets[platform] ??= targetFor(link, platform);
    }
    return { kind: "redirect", title, target, pixels: entry.pixels };
  }
}

export type VisitHandler = ReturnType<typeof createVisitHandler>;
