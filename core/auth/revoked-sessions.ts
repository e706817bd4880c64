import { lte } from "drizzle-orm";
import type { AsyncDb } from "../../db/async";
import { ACCESS_TOKEN_TTL_SECONDS } from "../tokens/jwt";

/**
 * The sign-ins that were ended (logout, refresh-token reuse). Every authenticated request asks
 * `has`, so the answer comes from a set held in memory, read from the `revoked_sessions` table
 * once. An ended sign-in is added to the set (`remember`), here and on the other nodes it is
 * announced to (the change bus), without reading the whole table again; `invalidate` is for changes
 * whose ids are not known (a sweep, messages a node may have missed), after which the next check
 * reads the table.
 */
export interface RevokedSessions {
  /** true when the sign-in `sessionId` was ended */
  has(sessionId: string): Promise<boolean>;
  /** Ends sign-ins: writes them down and invalidates the cache. */
  revoke(sessionIds: string[], now: Date): Promise<void>;
  /** Adds sign-ins ended elsewhere (another node) to the cached set, if one is held. */
  remember(sessionIds: string[]): void;
  /** Forgets the cached set; the next `has` reads the table. */
  invalidate(): void;
  /** Deletes the rows whose access tokens have all expired; returns how many. */
  sweep(now: Date): Promise<number>;
}

/**
 * Builds the revoked-session set over `db`. `announce` (optional) is called after each local
 * revocation with the ids, for a deployment that tells its other nodes to `invalidate`.
 */
export function createRevokedSessions(db: AsyncDb, announce: (sessionIds: string[]) => void = () => {}): RevokedSessions {
  const { revokedSessions } = db.tables;
  // the set, or the read under way; a read that an invalidation overtook is not kept
  let cached: Promise<Set<string>> | null = null;
  let generation = 0;
  const load = () => {
    const mine = ++generation;
    const reading = (async () => new Set((await db.select({ id: revokedSessions.sessionId }).from(revokedSessions)).map((r) => r.id)))();
    cached = reading;
    reading.catch(() => {
      if (generation === mine) cached = null;
    });
    return reading;
  };
  const self: RevokedSessions = {
    async has(sessionId) {
      return (await (cached ?? load())).has(sessionId);
    },
    async revoke(sessionIds, now) {
      if (!sessionIds.length) return;
      // every access token of the sign-in was signed before now, so none outlives this
      const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000);
      await db
        .insert(revokedSessions)
        .values(sessionIds.map((sessionId) => ({ sessionId, revokedAt: now, expiresAt })))
        .onConflictDoNothing();
      self.remember(sessionIds);
      announce(sessionIds);
    },
    remember(sessionIds) {
      // a read under way may have started before the rows were written: the ids join it when it ends
      if (cached) cached = cached.then((set) => (sessionIds.forEach((id) => set.add(id)), set));
    },
    invalidate() {
      generation++;
      cached = null;
    },
    async sweep(now) {
      const removed = (
        await db.delete(revokedSessions).where(lte(revokedSessions.expiresAt, now)).returning({ id: revokedSessions.sessionId })
      ).length;
      if (removed) self.invalidate();
      return removed;
    },
  };
  return self;
}
