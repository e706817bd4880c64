import { lte } from "drizzle-orm";
import type { Deps } from "../core/deps";
import { changes } from "../db/client";
import { emailCodes, refreshTokens, webauthnChallenges } from "../db/schema";
import { writeTransaction } from "../db/transaction";

/**
 * Deletes sign-in leftovers that can no longer be used: expired email codes, expired WebAuthn
 * challenges and expired refresh tokens. Used refresh tokens are kept until they expire, because
 * presenting a used one again is how reuse (a stolen token) is detected.
 */
export function cleanupExpired(deps: Pick<Deps, "db" | "clock">) {
  const now = deps.clock.now();
  return writeTransaction(deps.db, (tx) => ({
    emailCodes: changes(tx.delete(emailCodes).where(lte(emailCodes.expiresAt, now)).run()),
    webauthnChallenges: changes(tx.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now)).run()),
    refreshTokens: changes(tx.delete(refreshTokens).where(lte(refreshTokens.expiresAt, now)).run()),
  }));
}
