import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { cleanupExpired } from "../../jobs/cleanup";
import { issueSession, refreshSession } from "../../core/auth/sessions";
import { sendLoginCode } from "../../core/auth/email";
import { passkeyLoginOptions } from "../../core/auth/passkeys";

test("cleanupExpired removes only what has expired, across real sign-in flows", async () => {
  const t = createTestApp();
  try {
    const { user } = await t.telegramUser();
    const old = await issueSession(t.deps, user);
    await sendLoginCode(t.deps, "old@example.com");
    await passkeyLoginOptions(t.deps);
    t.clock.advance(29 * 86_400_000);
    const fresh = await issueSession(t.deps, user);
    await sendLoginCode(t.deps, "new@example.com");
    await passkeyLoginOptions(t.deps);
    expect(await cleanupExpired(t.deps)).toEqual({
      emailCodes: 1,
      webauthnChallenges: 1,
      refreshTokens: 0,
      emailCodeFailures: 0,
      revokedSessions: 0,
      auditEntries: 0,
    });
    t.clock.advance(86_400_000 + 1);
    expect(await cleanupExpired(t.deps)).toEqual({
      emailCodes: 1,
      webauthnChallenges: 1,
      refreshTokens: 1,
      emailCodeFailures: 0,
      revokedSessions: 0,
      auditEntries: 0,
    });
    await expect(refreshSession(t.deps, old.refreshToken)).rejects.toMatchObject({ status: 401 });
    expect((await refreshSession(t.deps, fresh.refreshToken)).accessToken).toBeString();
  } finally {
    t.close();
  }
});
