import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { refreshTokens, users } from "../../db/schema";
import { changes } from "../../db/client";
import { Unauthorized } from "../errors";
import { randomSecret, sha256 } from "../random";
import { signAccessToken } from "../tokens/jwt";
import { sessionUser, type UserRow } from "../accounts/users";
import { writeTransaction } from "../../db/transaction";

/**
 * Refresh tokens live 30 days from their issue; every refresh issues a new one (sliding window), so
 * a client that refreshes at least once a month stays signed in. Access tokens (JWT) live 7 days.
 */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

type Db = Deps["db"];
type SessionDeps = Pick<Deps, "db" | "config" | "clock">;

/** What every sign-in method answers with (the API layer picks the spec's spelling). */
export interface Session {
  accessToken: string;
  refreshToken: string;
  user: ReturnType<typeof sessionUser>["user"];
  subscription: ReturnType<typeof sessionUser>["subscription"];
}

function insertRefreshToken(db: Pick<Db, "insert">, now: Date, userId: number, familyId: string): string {
  const secret = `rt_${randomSecret(32)}`;
  db.insert(refreshTokens)
    .values({
      userId,
      familyId,
      tokenHash: sha256(secret),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
      createdAt: now,
    })
    .run();
  return secret;
}

/** Signs a 7-day access token and starts a new refresh-token family for `user`. */
export async function issueSession(deps: SessionDeps, user: UserRow): Promise<Session> {
  const familyId = randomSecret(16);
  const refreshToken = insertRefreshToken(deps.db, deps.clock.now(), user.id, familyId);
  return { accessToken: await signAccessToken(deps, user.id, familyId), refreshToken, ...sessionUser(deps, user) };
}

/**
 * Exchanges a refresh token for a new access token and refresh token (rotation). A token that was
 * already used once means it leaked or was replayed: the whole family is revoked and the caller gets 401.
 */
export async function refreshSession(deps: SessionDeps & Pick<Deps, "revokedSessions">, presented: string): Promise<{ accessToken: string; refreshToken: string }> {
  const now = deps.clock.now();
  const next = writeTransaction(deps.db, (tx): { reused: string } | { reused?: undefined; userId: number; familyId: string; refreshToken: string } => {
    const row = tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(presented))).get();
    if (!row) throw new Unauthorized("Invalid refresh token", "invalid_refresh_token");
    if (row.revokedAt) throw new Unauthorized("This session was ended; sign in again", "refresh_token_revoked");
    const claimed = changes(
      tx.update(refreshTokens).set({ usedAt: now }).where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt))).run(),
    );
    if (claimed === 0) return { reused: row.familyId };
    if (row.expiresAt.getTime() <= now.getTime()) throw new Unauthorized("Refresh token expired; sign in again", "refresh_token_expired");
    const user = tx.select().from(users).where(eq(users.id, row.userId)).get();
    if (!user || user.mergedIntoId) throw new Unauthorized("The account behind this token no longer exists", "invalid_refresh_token");
    return { userId: row.userId, familyId: row.familyId, refreshToken: insertRefreshToken(tx, now, row.userId, row.familyId) };
  });
  if (next.reused !== undefined) {
    revokeFamily(deps, next.reused, now);
    throw new Unauthorized("Refresh token was already used; every session of this sign-in is revoked", "refresh_token_reused");
  }
  return { accessToken: await signAccessToken(deps, next.userId, next.familyId), refreshToken: next.refreshToken };
}

/** Ends one sign-in: its refresh tokens stop working, and so do its access tokens (401 on the next request). */
function revokeFamily(deps: Pick<Deps, "db" | "revokedSessions">, familyId: string, now: Date): void {
  deps.db.update(refreshTokens).set({ revokedAt: now }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))).run();
  deps.revokedSessions.revoke([familyId], now);
}

/** Ends the sign-in a refresh token belongs to (logout). Unknown tokens are ignored. */
export function revokeRefreshToken(deps: Pick<Deps, "db" | "clock" | "revokedSessions">, presented: string): void {
  const row = deps.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(presented))).get();
  if (row) revokeFamily(deps, row.familyId, deps.clock.now());
}
