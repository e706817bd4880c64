import { and, eq, lt, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { LinkRow } from "../../db/schema";
import { AttemptLimiter, verifyPassword } from "../links/password";
import { RateLimited } from "../errors";
import { ipBucket } from "../ip";
import { clickIdOf, clickParamsOfQuery, clickPrefix, nextClickNo } from "../clicks/click-id";
import { MAX_CHARS } from "../clicks/journal-format";
import { detectBot } from "./bots";
import type { CachedLink } from "./link-cache";
import { macroValues } from "./macros";
import type { VisitOutcome, VisitRequest } from "./outcome";
import { createPrivacy } from "./privacy";
import { asLocation, hasPlatformTargets, platformOfUa, targetFor } from "./target";

/** One visit being decided: the active link found for the code, the request and the time. */
export interface Visit {
  entry: CachedLink;
  req: VisitRequest;
  now: Date;
}

/** A step of the decision: an outcome ends the visit, undefined passes it to the next step. */
export type Step = (v: Visit) => VisitOutcome | Promise<VisitOutcome | undefined> | undefined;

/** Past its expiry, or its cap of clicks used up. */
function isOver(link: LinkRow, now: Date): boolean {
  return (
    (link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime()) || (link.maxClicks !== null && link.capUsed >= link.maxClicks)
  );
}

/** The expired outcome (its Location worked out once per cached link). */
function expiredOf(entry: CachedLink): VisitOutcome {
  const url = entry.link.expiredUrl;
  return { kind: "expired", title: entry.link.title, expiredUrl: url && (entry.targets.expired ??= asLocation(url)) };
}

/**
 * The decision table for an active link found on the request's host (CONTRACT §4), read top-down:
 * past expires_at or cap used up → expired; before starts_at → countdown; password → form (wrong
 * answers limited per IP and link); otherwise admitted: the cap slot reserved for a human visitor
 * (one conditional UPDATE, so the cap is exact under concurrency), the click recorded, then the
 * first matching rule's URL, else the visitor's A/B variant, else the per-platform target.
 */
export function visitSteps(deps: Deps): Step[] {
  const sink = deps.clicks;
  const db = deps.asyncDb;
  const { links } = db.tables;
  const attempts = new AttemptLimiter(deps.cluster.counters, "link-password");
  const privacy = createPrivacy(deps.config, deps.geo);

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

  /** Takes one of the link's capped clicks: one conditional UPDATE, so the cap is exact on every node. */
  async function reserveCapSlot(link: LinkRow): Promise<boolean> {
    const taken = await db
      .update(links)
      .set({ capUsed: sql`${links.capUsed} + 1` })
      .where(and(eq(links.id, link.id), lt(links.capUsed, links.maxClicks)))
      .returning({ capUsed: links.capUsed });
    return taken.length === 1;
  }

  /** Sends the visitor on: reserves the cap slot (humans only), records the click, picks the target. */
  function admit({ entry, req, now }: Visit): VisitOutcome | Promise<VisitOutcome> {
    const link = entry.link;
    const bot = detectBot(req.userAgent, req.method);
    if (link.maxClicks === null || bot.isBot) return sendOn(entry, req, now, bot);
    return reserveCapSlot(link).then((reserved) => {
      link.capUsed = reserved ? link.capUsed + 1 : link.maxClicks!; // keep the cached copy close to the truth
      return reserved ? sendOn(entry, req, now, bot) : expiredOf(entry);
    });
  }

  /** Records the click (journaled before the answer) and picks the target. */
  function sendOn(entry: CachedLink, req: VisitRequest, now: Date, bot: ReturnType<typeof detectBot>): VisitOutcome {
    const link = entry.link;
    const title = link.title;
    const routed = entry.routing?.route(req, now.getTime()) ?? null;
    const kept = privacy?.(req.ip, req.userAgent, now.getTime());
    // the click id in parts: its string is made here only for a target that carries it, else by the writer
    const clickNo = nextClickNo();
    const prefix = clickPrefix();
    // the query as it came: the writer reads sub1…sub5 and fbclid from it (here only when too long to keep whole)
    const query = req.query?.() || null;
    const long = query !== null && query.length > MAX_CHARS.query;
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
      clickPrefix: prefix,
      clickNo,
      params: long ? clickParamsOfQuery(query) : null,
      query: long ? null : query,
    });
    let target: string;
    if (routed) target = routed.target;
    else {
      // the visitor's platform only decides for a link with a per-platform target: any other sends every platform to its url
      const shaped = entry.macros?.link ?? link;
      const platform = hasPlatformTargets(shaped) ? platformOfUa(req.userAgent ?? "") : "other";
      target = entry.targets[platform] ??= targetFor(shaped, platform);
    }
    if (!entry.macros) return { kind: "redirect", title, target, pixels: entry.pixels };
    const clickId = clickIdOf(link.id, prefix, clickNo);
    target = entry.macros.expand(target, macroValues(deps.geo, entry, req, clickId, query && clickParamsOfQuery(query)));
    return { kind: "redirect", title, target, pixels: entry.pixels, clickId };
  }

  return [
    ({ entry, now }) => (isOver(entry.link, now) ? expiredOf(entry) : undefined),
    ({ entry: { link }, now }) =>
      link.startsAt && link.startsAt.getTime() > now.getTime()
        ? { kind: "countdown", title: link.title, startsAt: link.startsAt, now }
        : undefined,
    ({ entry: { link }, req, now }) => (link.passwordHash ? passwordStep(link, req, now) : undefined),
    admit,
  ];
}
