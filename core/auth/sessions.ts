import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { Unauthorized } from "../errors";
import { randomSecret, sha256 } from "../random";
import { signAccessToken } from "../tokens/jwt";
import { sessionUser, type UserRow } from "../accounts/users";
import { transaction, type AsyncDbOrTx } from "../../db/async";

/**
 * Refresh tokens live 30 days from their issue; every refresh issues a new one (sliding window), so
 * a client that refreshes at least once a month stays signed in. Access tokens (JWT) live 7 days.
 */
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

type SessionDeps = Pick<Deps, "asyncDb" | "config" | "clock">;

/** What every sign-in method answers with (the API layer picks the spec's spelling). */
export interface Session {
  accessToken: string;
  refreshToken: string;
  user: ReturnType<typeof sessionUser>["user"];
  subscription: ReturnType<typeof sessionUser>["subscription"];
}

async function insertRefreshToken(db: AsyncDbOrTx, now: Date, userId: number, familyId: string): Promise<string> {
  const secret = `rt_${randomSecret(32)}`;
  await db.insert(db.tables.refreshTokens).values({
    userId,
    familyId,
    tokenHash: sha256(secret),
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    createdAt: now,
  });
  return secret;
}

/** Signs a 7-day access token and starts a new refresh-token family for `user`. */
export async function issueSession(deps: SessionDeps, user: UserRow): Promise<Session> {
  const familyId = randomSecret(16);
  const refreshToken = await insertRefreshToken(deps.asyncDb, deps.clock.now(), user.id, familyId);
  return { accessToken: await signAccessToken(deps, user.id, familyId), refreshToken, ...sessionUser(deps, user) };
}

/**
 * Exchanges a refresh token for a new access token and refresh token (rotation). A token that was
 * already used once means it leaked or was replayed: the whole family is revoked and the caller gets 401.
 * The token is taken by one conditional update, so of two refreshes with it at once (on any nodes)
 * exactly one succeeds and the other counts as reuse.
 */
export async function refreshSession(
  deps: SessionDeps & Pick<Deps, "revokedSessions">,
  presented: string,
): Promise<{ accessToken: string; refreshToken: string }> {
  const now = deps.clock.now();
  const { refreshTokens, users } = deps.asyncDb.tables;
  type Next = { reused: string } | { reused?: undefined; userId: number; familyId: string; refreshToken: string };
  const next = await transaction(deps.asyncDb, async (tx): Promise<Next> => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(presented)))
      .limit(1);
    if (!row) throw new Unauthorized("Invalid refresh token", "invalid_refresh_token");
    if (row.revokedAt) throw new Unauthorized("This session was ended; sign in again", "refresh_token_revoked");
    const claimed = await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id });
    if (claimed.length === 0) return { reused: row.familyId };
    if (row.expiresAt.getTime() <= now.getTime()) throw new Unauthorized("Refresh token expired; sign in again", "refresh_token_expired");
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId)).limit(1);
    if (!user || user.mergedIntoId) throw new Unauthorized("The account behind this token no longer exists", "invalid_refresh_token");
    return { userId: row.userId, familyId: row.familyId, refreshToken: await insertRefreshToken(tx, now, row.userId, row.familyId) };
  });
  if (next.reused !== undefined) {
    await revokeFamily(deps, next.reused, now);
    throw new Unauthorized("Refresh token was already used; every session of this sign-in is revoked", "refresh_token_reused");
  }
  return { accessToken: await signAccessToken(deps, next.userId, next.familyId), refreshToken: next.refreshToken };
}

/** Ends one sign-in: its refresh tokens stop working, and so do its access tokens (401 on the next request). */
async function revokeFamily(deps: Pick<Deps, "asyncDb" | "revokedSessions">, familyId: string, now: Date): Promise<void> {
  const { refreshTokens } = deps.asyncDb.tables;
  await deps.asyncDb
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  await deps.revokedSessions.revoke([familyId], now);
}

/** Ends the sign-in a refresh token belongs to (logout). Unknown tokens are ignored. */
export async function revokeRefreshToken(deps: Pick<Deps, "asyncDb" | "clock" | "revokedSessions">, presented: string): Promise<void> {
  const { refreshTokens } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(presented)))
    .limit(1);
  if (row) await revokeFamily(deps, row.familyId, deps.clock.now());
}
