import { lte } from "drizzle-orm";
import { EMAIL_GUESS_WINDOW_MS } from "../core/auth/email-codes";
import type { Deps } from "../core/deps";
import { pruneAudit } from "../core/workspaces";

/**
 * Deletes sign-in leftovers that can no longer be used: expired email codes, expired WebAuthn
 * challenges, expired refresh tokens, wrong-code records older than the guess window and ended
 * sign-ins whose access tokens have all expired, and audit-log entries older than a year. Used refresh tokens are kept until they expire,
 * because presenting a used one again is how reuse (a stolen token) is detected. Each kind is one
 * delete of its own (nothing ties them together), so two overlapping runs only find less to delete.
 */
export async function cleanupExpired(deps: Pick<Deps, "asyncDb" | "clock" | "revokedSessions">) {
  const now = deps.clock.now();
  const db = deps.asyncDb;
  const { emailCodes, webauthnChallenges, refreshTokens, emailCodeFailures } = db.tables;
  const removed = {
    emailCodes: (await db.delete(emailCodes).where(lte(emailCodes.expiresAt, now)).returning({ id: emailCodes.id })).length,
    webauthnChallenges: (
      await db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now)).returning({ id: webauthnChallenges.id })
    ).length,
    refreshTokens: (await db.delete(refreshTokens).where(lte(refreshTokens.expiresAt, now)).returning({ id: refreshTokens.id })).length,
    emailCodeFailures: (
      await db
        .delete(emailCodeFailures)
        .where(lte(emailCodeFailures.failedAt, new Date(now.getTime() - EMAIL_GUESS_WINDOW_MS)))
        .returning({ id: emailCodeFailures.id })
    ).length,
  };
  return { ...removed, revokedSessions: await deps.revokedSessions.sweep(now), auditEntries: await pruneAudit(deps) };
}
