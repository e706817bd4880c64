import { lte } from "drizzle-orm";
import type { Deps } from "../core/deps";
import { emailCodes, refreshTokens, webauthnChallenges } from "../db/schema";
import { changes } from "../db/client";

/**
 * Deletes sign-in leftovers that can no longer be used: expired email codes, expired WebAuthn
 * challenges and expired refresh tokens. Safe to run at any interval (main.ts: hourly).
 */
export function pruneAuthData(deps: Pick<Deps, "db" | "clock">): { emailCodes: number; challenges: number; refreshTokens: number } {
  const now = deps.clock.now();
  return {
    emailCodes: changes(deps.db.delete(emailCodes).where(lte(emailCodes.expiresAt, now)).run()),
    challenges: changes(deps.db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now)).run()),
    refreshTokens: changes(deps.db.delete(refreshTokens).where(lte(refreshTokens.expiresAt, now)).run()),
  };
}
