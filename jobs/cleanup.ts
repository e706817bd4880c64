import { lte } from "drizzle-orm";
import { EMAIL_GUESS_WINDOW_MS } from "../core/auth/email-codes";
import type { Deps } from "../core/deps";
import { changes } from "../db/client";
import { emailCodeFailures, emailCodes, refreshTokens, webauthnChallenges } from "../db/schema";
import { writeTransaction } from "../db/transaction";

/**
 * Deletes sign-in leftovers that can no longer be used: expired email codes, expired WebAuthn
 * challenges, expired refresh tokens, wrong-code records older than the guess window and ended
 * sign-ins whose access tokens have all expired. Used refresh tokens are kept until they expire,
 * because presenting a used one again is how reuse (a stolen token) is detected.
 */
export function cleanupExpired(deps: Pick<Deps, "db" | "clock" | "revokedSessions">) {
  const now = deps.clock.now();
  const removed = writeTransaction(deps.db, (tx) => ({
    emailCodes: changes(tx.delete(emailCodes).where(lte(emailCodes.expiresAt, now)).run()),
    webauthnChallenges: changes(tx.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now)).run()),
    refreshTokens: changes(tx.delete(refreshTokens).where(lte(refreshTokens.expiresAt, now)).run()),
    emailCodeFailures: changes(tx.delete(emailCodeFailures).where(lte(emailCodeFailures.failedAt, new Date(now.getTime() - EMAIL_GUESS_WINDOW_MS))).run()),
  }));
  return { ...removed, revokedSessions: deps.revokedSessions.sweep(now) };
}
