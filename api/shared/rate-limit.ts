import { clientAddress } from "./client-ip";
import { Elysia } from "elysia";
import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../../core/deps";
import { RateLimited } from "../../core/errors";
import { sha256 } from "../../core/random";
import { apiTokens } from "../../db/schema";
import { looksLikeApiToken } from "../../core/tokens/api-tokens";
import { verifyAccessToken } from "../../core/tokens/jwt";
import { verifyInitData } from "../../core/accounts/telegram-auth";
import { findUserByIdentity } from "../../core/accounts/users";
import type { Clock } from "../../core/clock";
import { ipBucket } from "../../core/ip";
import { requestUrl } from "./request-url";

/** Sign-in and one-time-code endpoints: limited per client IP with the tighter RATE_LIMIT_AUTH. */
const AUTH_PATHS = [/^\/api\/auth\/email\//, /^\/api\/auth\/msgr\/?$/, /^\/api\/auth\/login-widget\/?$/, /^\/api\/auth\/passkey\/login\//, /^\/api\/auth\/refresh\/?$/];

export function isAuthPath(pathname: string): boolean {
  return AUTH_PATHS.some((re) => re.test(pathname));
}

export interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetSeconds: number;
}

/**
 * Where the request counters live: `hit` counts one request for `key` and says whether it is within
 * `limit` for the current window. The in-memory FixedWindowLimiter serves one process; a store
 * shared by several processes (a database table) implements the same method, possibly async.
 */
export interface RateLimitStore {
  hit(key: string, limit: number): Verdict | Promise<Verdict>;
}

/**
 * Fixed-window counters in memory: each key gets `limit` requests per window starting at its first
 * request. Expired windows are swept at most once per window so the map cannot grow without bound.
 */
export class FixedWindowLimiter implements RateLimitStore {
  private windows = new Map<string, { start: number; count: number }>();
  private nextSweep = 0;

  constructor(private clock: Clock, private windowMs: number) {}

  hit(key: string, limit: number): Verdict {
    const now = this.clock.now().getTime();
    if (now >= this.nextSweep) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || now >= w.start + this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    const resetSeconds = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    w.count++;
    return { allowed: true, limit, remaining: limit - w.count, resetSeconds };
  }

  get size() {
    return this.windows.size;
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (now >= w.start + this.windowMs) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}


/**
 * Who the limit applies to: the account when the credentials check out, whichever of its sign-ins
 * or API tokens is used (so minting tokens buys no extra budget), otherwise the IP (so made-up
 * credentials cannot buy fresh buckets either).
 */
async function callerKey(deps: Deps, request: Request, ip: string): Promise<string> {
  const auth = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization")?.trim() ?? "")?.[1];
  try {
    if (auth && looksLikeApiToken(auth)) {
      const row = deps.db
        .select({ userId: apiTokens.userId })
        .from(apiTokens)
        .where(and(eq(apiTokens.tokenHash, sha256(auth)), isNull(apiTokens.revokedAt)))
        .get();
      if (row) return `user:${row.userId}`;
    } else if (auth) return `user:${(await verifyAccessToken(deps, auth)).userId}`;
    const initData = request.headers.get("x-msgr-init-data");
    if (!auth && initData && deps.config.botToken) {
      const tg = verifyInitData(deps, initData);
      const user = findUserByIdentity(deps, "telegram", String(tg.id));
      return user ? `user:${user.id}` : `tg:${tg.id}`;
    }
  } catch {
    // invalid credentials: the route answers 401; count the attempt against the IP
  }
  return `ip:${ip}`;
}

/**
 * Rate limiting for everything under /api: per account for signed-in callers (all its sign-ins and
 * API tokens together), per client IP (IPv6 by /64) for everyone else and for the sign-in and code
 * endpoints. Every /api response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset
 * (seconds); a refused request gets 429 with Retry-After. `store` keeps the counters (in memory by
 * default).
 */
export function rateLimitPlugin(deps: Deps, store: RateLimitStore = new FixedWindowLimiter(deps.clock, deps.config.rateLimit.windowSeconds * 1000)) {
  const { api, auth, windowSeconds } = deps.config.rateLimit;
  return new Elysia({ name: "rate-limit" }).onRequest(async ({ request, server, set }) => {
    const { pathname } = requestUrl(request);
    if (pathname !== "/api" && !pathname.startsWith("/api/")) return;
    const ip = ipBucket(clientAddress(request, server, deps.config.trustProxy) ?? "unknown");
    const verdict = await (isAuthPath(pathname) ? store.hit(`auth:${ip}`, auth) : store.hit(await callerKey(deps, request, ip), api));
    set.headers["ratelimit-limit"] = String(verdict.limit);
    set.headers["ratelimit-remaining"] = String(verdict.remaining);
    set.headers["ratelimit-reset"] = String(verdict.resetSeconds);
    if (!verdict.allowed) throw new RateLimited(verdict.resetSeconds, `Too many requests: the limit is ${verdict.limit} per ${windowSeconds} s; try again in ${verdict.resetSeconds} s`);
  });
}
