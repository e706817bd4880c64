import { lte } from "drizzle-orm";
import type { Db } from "../../db/client";
import { revokedSessions } from "../../db/schema";
import { changes } from "../../db/client";
import { ACCESS_TOKEN_TTL_SECONDS } from "../tokens/jwt";

/**
 * The sign-ins that were ended (logout, refresh-token reuse). Every authenticated request asks
 * `has`, so the answer comes from a set held in memory, read from the `revoked_sessions` table
 * once and again after each change. `invalidate` is the hook for a change made elsewhere: another
 * node that ended a sign-in tells this one (through whatever channel the deployment has) and the
 * next check reads the table again.
 */
export interface RevokedSessions {
  /** true when the sign-in `sessionId` was ended */
  has(sessionId: string): boolean;
  /** Ends sign-ins: writes them down and invalidates the cache. */
  revoke(sessionIds: string[], now: Date): void;
  /** Forgets the cached set; the next `has` reads the table. */
  invalidate(): void;
  /** Deletes the rows whose access tokens have all expired; returns how many. */
  sweep(now: Date): number;
}

/**
 * Builds the revoked-session set over `db`. `announce` (optional) is called after each local
 * revocation with the ids, for a deployment that tells its other nodes to `invalidate`.
 */
export function createRevokedSessions(db: Db, announce: (sessionIds: string[]) => void = () => {}): RevokedSessions {
  let cached: Set<string> | null = null;
  const self: RevokedSessions = {
    has(sessionId) {
      cached ??= new Set(db.select({ id: revokedSessions.sessionId }).from(revokedSessions).all().map((r) => r.id));
      return cached.has(sessionId);
    },
    revoke(sessionIds, now) {
      if (!sessionIds.length) return;
      // every access token of the sign-in was signed before now, so none outlives this
      const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000);
      db.insert(revokedSessions).values(sessionIds.map((sessionId) => ({ sessionId, revokedAt: now, expiresAt }))).onConflictDoNothing().run();
      self.invalidate();
      announce(sessionIds);
    },
    invalidate() {
      cached = null;
    },
    sweep(now) {
      const removed = changes(db.delete(revokedSessions).where(lte(revokedSessions.expiresAt, now)).run());
      if (removed) self.invalidate();
      return removed;
    },
  };
  return self;
}
