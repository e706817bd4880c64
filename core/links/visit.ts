import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { LinkRow } from "../../db/schema";
import { detectBot } from "../clicks/bots";
import { AttemptLimiter, verifyPassword } from "./password";
import { RateLimited } from "../errors";
import { ipBucket } from "../ip";
import type { CachedLink } from "./link-cache";
import { memoize } from "../memo";
import { asLocation, withUtm } from "./target";
import { isLoopback } from "./url";
import { compileRouting } from "./routing";
import { createPrivacy } from "../clicks/privacy";
import { createOrphanRecorder } from "./orphans";
import { isDatabaseUnavailable } from "../../db/unavailable";
import { LinkMacros, linkHasMacros, macroValues } from "./macros";
import { clickIdOf, clickParams, clickPrefix, nextClickNo } from "../clicks/click-id";
import { queryParams } from "./routing";

/** While the database cannot be reached, how long a cached link is served as it was before it is tried again. */
const STALE_RETRY_MS = 1000;

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
  | { kind: "redirect"; title: string | null; target: string; pixels: PixelTag[]; clickId?: string };

/** Which per-platform target a User-Agent gets (a cheap check: this runs on every redirect). */
function platformOf(userAgent: string | null): "ios" | "android" | "desktop" | "other" {
  const ua = userAgent ?? "";
  if (/iPhone|iPad|iPod/i.test(ua)) return "ios";
  if (/Android/i.test(ua)) return "android";
  if (/Mobi|Windows Phone|BlackBerry|KaiOS/i.test(ua)) return "other";
  return "desktop";
}

/** platformOf per distinct User-Agent: traffic repeats them, and a lookup costs less than the three scans. */
const platformOfUa = memoize(platformOf, 5000);

/** Past its expiry, or its cap of clicks used up. */
function isOver(link: LinkRow, now: Date): boolean {
  return (
    (link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime()) || (link.maxClicks !== null && link.capUsed >= link.maxClicks)
  );
}

/** The destination for a platform: its own target when set, else the url; UTM parameters set. */
function targetFor(link: LinkRow, platform: ReturnType<typeof platformOf>): string {
  return withUtm(
    link,
    (platform === "ios" && link.iosUrl) ||
      (platform === "android" && link.androidUrl) ||
      (platform === "desktop" && link.desktopUrl) ||
      link.url,
  );
}

/** One visit being decided: the active link found for the code, the request and the time. */
interface Visit {
  entry: CachedLink;
  req: VisitRequest;
  now: Date;
}

/** A step of the decision: an outcome ends the visit, undefined passes it to the next step. */
type Step = (v: Visit) => VisitOutcome | Promise<VisitOutcome | undefined> | undefined;

/**
 * The visitor flow of CONTRACT §4, as a decision table read top-down (`steps` below): unknown,
 * inactive or wrong host → not found; past expires_at or cap used up → expired; before starts_at →
 * countdown; password → form (wrong answers limited per IP and link); otherwise admitted: the cap
 * slot reserved for a human visitor (one conditional UPDATE, so the cap is exact under concurrency),
 * then the first matching rule's URL, else the visitor's A/B variant, else the per-platform target.
 * The click is put into the click sink (deps.clicks) only when the visitor is sent on, after the
 * PRIVACY_IP step and before the answer. Visits that find no active link are recorded as orphan
 * visits. Times come from deps.clock.
 */
export function createVisitHandler(deps: Deps) {
  const sink = deps.clicks;
  const db = deps.asyncDb;
  const { domains, linkPixels, links, pixels, placementLinks } = db.tables;
  const ownHosts = new Set([deps.config.shortUrl, deps.config.baseUrl].map((u) => new URL(u).hostname));
  const attempts = new AttemptLimiter(deps.cluster.counters, "link-password");
  // "go.example.com." is the same name as "go.example.com" (DNS's root dot): it must not be another host
  const hostnameOf = memoize((host: string) => host.replace(/:\d+$/, "").replace(/\.+$/, "").toLowerCase(), 1000);

  const cache = deps.linkCache;
  const privacy = createPrivacy(deps.config, deps.geo);
  const orphan = createOrphanRecorder(deps);

  async function read(code: string): Promise<CachedLink | null> {
    const [link] = await db.select().from(links).where(eq(links.code, code)).limit(1);
    if (!link) return null;
    const macros = linkHasMacros(link) ? new LinkMacros(link) : null;
    return {
      link,
      pixels: await db
        .select({ type: pixels.type, pixelId: pixels.pixelId })
        .from(linkPixels)
        .innerJoin(pixels, eq(pixels.id, linkPixels.pixelId))
        .where(eq(linkPixels.linkId, link.id))
        .orderBy(pixels.id),
      // a link on a custom domain is served there only once the domain is verified (else: 404 page)
      host:
        link.domainId === null
          ? null
          : ((
              await db
                .select({ hostname: domains.hostname })
                .from(domains)
                .where(and(eq(domains.id, link.domainId), isNotNull(domains.verifiedAt)))
                .limit(1)
            )[0]?.hostname ?? null),
      targets: {},
      routing: compileRouting(deps.geo, macros?.link ?? link),
      macros,
      placementId: macros?.uses.has("placement_id")
        ? ((await db.select({ id: placementLinks.placementId }).from(placementLinks).where(eq(placementLinks.linkId, link.id)).limit(1))[0]
            ?.id ?? null)
        : null,
    };
  }

  function hostMatches(entry: CachedLink, host: string | null): boolean {
    const h = hostnameOf(host ?? "");
    if (entry.link.domainId !== null) return entry.host === h;
    // a default link answers on the service's own hosts (SHORT_URL's and BASE_URL's, an address
    // when one of them is an address) and on loopback (this machine's own checks and tests); any
    // other name or address, a custom domain, a stranger's DNS record or the server's public
    // address (a link to it would loop through the service), serves none of them
    return !h || ownHosts.has(h) || isLoopback(h);
  }

  /** Takes one of the link's capped clicks: one conditional UPDATE, so the cap is exact on every node. */
  async function reserveCapSlot(link: LinkRow): Promise<boolean> {
    const taken = await db
      .update(links)
      .set({ capUsed: sql`${links.capUsed} + 1` })
      .where(and(eq(links.id, link.id), lt(links.capUsed, links.maxClicks)))
      .returning({ capUsed: links.capUsed });
    return taken.length === 1;
  }

  /**
   * A link whose cached entry could not be read again because the database is out of reach keeps
   * redirecting as it did (tried again every STALE_RETRY_MS); any other failure, or a link never
   * cached, fails the request (503 at the edge when the database is out of reach).
   */
  function staleOnOutage(code: string, e: unknown): CachedLink {
    const stale = isDatabaseUnavailable(e) ? cache.stale(code, STALE_RETRY_MS) : undefined;
    if (!stale) throw e;
    return stale;
  }

  /**
   * The decision table for an active link found on this host, read top-down: the first step with an
   * outcome decides (a step that waits, the password check, passes on when it resolves to nothing).
   */
  const steps: Step[] = [
    ({ entry, now }) => (isOver(entry.link, now) ? expiredOf(entry) : undefined),
    ({ entry: { link }, now }) =>
      link.startsAt && link.startsAt.getTime() > now.getTime()
        ? { kind: "countdown", title: link.title, startsAt: link.startsAt, now }
        : undefined,
    ({ entry: { link }, req, now }) => (link.passwordHash ? passwordStep(link, req, now) : undefined),
    ({ entry, req, now }) => admit(entry, req, now),
  ];

  /** Not found unless the link is active and served on the request's host; else the table decides. */
  function decide(entry: CachedLink | null, req: VisitRequest, now: Date): VisitOutcome | Promise<VisitOutcome> {
    const here = entry !== null && hostMatches(entry, req.host);
    if (!here || !entry.link.isActive) {
      // recorded as an orphan visit (attributed to the owner when the link is theirs but off)
      orphan(req.code, hostnameOf(req.host ?? "") || null, here ? entry.link : null);
      return { kind: "not_found" };
    }
    return run({ entry, req, now }, 0);
  }

  function run(v: Visit, from: number): VisitOutcome | Promise<VisitOutcome> {
    for (let i = from; i < steps.length; i++) {
      const out = steps[i]!(v);
      if (out === undefined) continue;
      return out instanceof Promise ? out.then((o) => o ?? run(v, i + 1)) : out;
    }
    throw new Error("the visit's last step always answers");
  }

  /**
   * Synchronous for a cached link without a cap or password, so the common redirect never waits;
   * a link read from the database, a custom host to check, a capped click and a password wait.
   */
  return function visit(req: VisitRequest): VisitOutcome | Promise<VisitOutcome> {
    const now = deps.clock.now();
    const entry = cache.get(req.code, now);
    if (entry) return decide(entry, req, now);
    return cache.load(req.code, read).then(
      (loaded) => decide(loaded, req, deps.clock.now()),
      (e) => decide(staleOnOutage(req.code, e), req, deps.clock.now()),
    );
  };

  /** The password form, or (a POST with the right password) undefined: the visitor goes on. */
  function passwordStep(link: LinkRow, req: VisitRequest, now: Date): VisitOutcome | Promise<VisitOutcome | undefined> {
    const title = link.title;
    if (req.method !== "POST") return { kind: "password", title, wrong: false };
    // per link and visitor network: an IPv6 client holds a whole /64 and could rotate through it
    const key = `${req.ip ? ipBucket(req.ip) : "?"}|${link.id}`;
    const hash = link.passwordHash!;
    return attempts.attempt(key, String(link.id), now).then(async ({ retryAfterMs }): Promise<VisitOutcome | undefined> => {
      if (retryAfterMs > 0) return { kind: "locked", title, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
      const right = await verifyPassword(req.password ?? "", hash).catch((e: unknown) =>
        e instanceof RateLimited ? e : Promise.reject(e),
      );
      if (right instanceof RateLimited) return { kind: "locked", title, retryAfterSeconds: 1 };
      if (!right) {
        await attempts.failed(String(link.id), now);
        return { kind: "password", title, wrong: true };
      }
      await attempts.succeeded(key, now);
      return undefined;
    });
  }

  /** The expired outcome (its Location worked out once per cached link). */
  function expiredOf(entry: CachedLink): VisitOutcome {
    const url = entry.link.expiredUrl;
    return { kind: "expired", title: entry.link.title, expiredUrl: url && (entry.targets.expired ??= asLocation(url)) };
  }

  /** Sends the visitor on: reserves the cap slot (humans only), queues the click, picks the target. */
  function admit(entry: CachedLink, req: VisitRequest, now: Date): VisitOutcome | Promise<VisitOutcome> {
    const link = entry.link;
    const bot = detectBot(req.userAgent, req.method);
    if (link.maxClicks === null || bot.isBot) return sendOn(entry, req, now, bot);
    return reserveCapSlot(link).then((reserved) => {
      link.capUsed = reserved ? link.capUsed + 1 : link.maxClicks!; // keep the cached copy close to the truth
      return reserved ? sendOn(entry, req, now, bot) : expiredOf(entry);
    });
  }

  /** Queues the click and picks the target. */
  function sendOn(entry: CachedLink, req: VisitRequest, now: Date, bot: ReturnType<typeof detectBot>): VisitOutcome {
    const link = entry.link;
    const title = link.title;
    const routed = entry.routing?.route(req, now.getTime()) ?? null;
    const kept = privacy?.(req.ip, req.userAgent, now.getTime());
    // the click id in parts: its string is made here only for a target that carries it, else by the writer
    const clickNo = nextClickNo();
    const query = req.query?.() ?? "";
    const params = query ? clickParams(queryParams(query)) : null;
    sink.record({
      linkId: link.id,
      clickedAt: now,
      ip: kept ? kept.ip : req.ip,
      userAgent: req.userAgent,
      referer: req.referer,
      isBot: bot.isBot,
      botName: bot.name,
      rule: routed?.rule ?? null,
      variant: routed?.variant ?? null,
      visitor: kept?.visitor ?? null,
      geo: kept?.geo ?? null,
      clickPrefix: clickPrefix(),
      clickNo,
      params,
    });
    let target: string;
    if (routed) target = routed.target;
    else {
      const platform = platformOfUa(req.userAgent ?? "");
      target = entry.targets[platform] ??= targetFor(entry.macros?.link ?? link, platform);
    }
    if (!entry.macros) return { kind: "redirect", title, target, pixels: entry.pixels };
    const clickId = clickIdOf(link.id, clickPrefix(), clickNo);
    target = entry.macros.expand(target, macroValues(deps.geo, entry, req, clickId, params));
    return { kind: "redirect", title, target, pixels: entry.pixels, clickId };
  }
}
