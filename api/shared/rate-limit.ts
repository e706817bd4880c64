import { clientAddress } from "./client-ip";
import { Elysia } from "elysia";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { Deps } from "../../core/deps";
import { RateLimited } from "../../core/errors";
import { sha256 } from "../../core/random";
import { looksLikeApiToken } from "../../core/tokens/api-tokens";
import { verifyAccessToken } from "../../core/tokens/jwt";
import { verifyInitData } from "../../core/accounts/telegram-auth";
import { findUserByIdentity } from "../../core/accounts/users";
import type { Clock } from "../../core/clock";
import { ipBucket } from "../../core/ip";
import type { WindowCounters } from "../../core/cluster/counters";
import { requestUrl } from "./request-url";

/** Sign-in and one-time-code endpoints: limited per client IP with the tighter RATE_LIMIT_AUTH. */
const AUTH_PATHS = [
  /^\/api\/auth\/email\//,
  /^\/api\/auth\/msgr\/?$/,
  /^\/api\/auth\/login-widget\/?$/,
  /^\/api\/auth\/passkey\/login\//,
  /^\/api\/auth\/refresh\/?$/,
];

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
 * `limit` for the current window.
 */
export interface RateLimitStore {
  hit(key: string, limit: number): Verdict | Promise<Verdict>;
}

/**
 * Fixed windows of `windowMs` in the cluster's shared counters (core/cluster/counters.ts): every node
 * counts into the same window, so N nodes allow the limit once, not N times. Windows are aligned to
 * the clock (a 60 s window starts at each whole minute). `prefix` keeps this limiter's keys apart
 * from other counters. Ended windows are swept by the sweep-counters job.
 */
export class SharedWindowLimiter implements RateLimitStore {
  constructor(
    private counters: WindowCounters,
    private clock: Clock,
    private windowMs: number,
    private prefix: string,
  ) {}

  async hit(key: string, limit: number): Promise<Verdict> {
    const now = this.clock.now();
    const { count, resetAt } = await this.counters.hit(`${this.prefix}:${key}`, this.windowMs, now);
    const resetSeconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
  }
}

/**
 * Who the limit applies to: the account when the credentials check out, whichever of its sign-ins
 * or API tokens is used (so minting tokens buys no extra budget), otherwise the IP (so made-up
 * credentials cannot buy fresh buckets either). A revoked or expired API token and the token of an
 * ended sign-in do not check out: a thief holding one spends only their own address's budget and
 * cannot keep the account at 429.
 */
async function callerKey(deps: Deps, request: Request, ip: string): Promise<string> {
  const auth = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization")?.trim() ?? "")?.[1];
  try {
    if (auth && looksLikeApiToken(auth)) {
      const { apiTokens } = deps.asyncDb.tables;
      const now = deps.clock.now();
      const [row] = await deps.asyncDb
        .select({ userId: apiTokens.userId })
        .from(apiTokens)
        .where(
          and(
            eq(apiTokens.tokenHash, sha256(auth)),
            isNull(apiTokens.revokedAt),
            or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
          ),
        )
        .limit(1);
      if (row) return `user:${row.userId}`;
    } else if (auth) {
      // an ended sign-in's token is a stranger's: it must not spend the account's budget
      const { userId, sessionId } = await verifyAccessToken(deps, auth);
      if (!sessionId || !(await deps.revokedSessions.has(sessionId))) return `user:${userId}`;
    }
    const initData = request.headers.get("x-msgr-init-data");
    if (!auth && initData && deps.config.botToken) {
      const tg = verifyInitData(deps, initData);
      const user = await findUserByIdentity(deps, "telegram", String(tg.id));
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
 * (seconds); a refused request gets 429 with Retry-After. `store` keeps the counters (the cluster's
 * shared counters by default).
 */
export function rateLimitPlugin(
  deps: Deps,
  store: RateLimitStore = new SharedWindowLimiter(deps.cluster.counters, deps.clock, deps.config.rateLimit.windowSeconds * 1000, "api"),
) {
  const { api, auth, windowSeconds } = deps.config.rateLimit;
  return new Elysia({ name: "rate-limit" }).onRequest(async ({ request, server, set }) => {
    const { pathname } = requestUrl(request);
    if (pathname !== "/api" && !pathname.startsWith("/api/")) return;
    const ip = ipBucket(clientAddress(request, server, deps.config.trustProxy) ?? "unknown");
    const verdict = await (isAuthPath(pathname) ? store.hit(`auth:${ip}`, auth) : store.hit(await callerKey(deps, request, ip), api));
    set.headers["ratelimit-limit"] = String(verdict.limit);
    set.headers["ratelimit-remaining"] = String(verdict.remaining);
    set.headers["ratelimit-reset"] = String(verdict.resetSeconds);
    if (!verdict.allowed)
      throw new RateLimited(
        verdict.resetSeconds,
        `Too many requests: the limit is ${verdict.limit} per ${windowSeconds} s; try again in ${verdict.resetSeconds} s`,
      );
  });
}
