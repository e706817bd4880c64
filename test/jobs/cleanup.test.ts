import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { cleanupExpired } from "../../jobs/cleanup";
import { recordAudit } from "../../core/workspaces";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

test("cleanup deletes only what has expired, and keeps used refresh tokens until they expire", async () => {
  const { user } = await t.telegramUser();
  const now = t.clock.now().getTime();
  const at = (ms: number) => new Date(now + ms);
  const db = t.deps.asyncDb;
  const { emailCodes, webauthnChallenges, refreshTokens } = db.tables;
  await db.insert(emailCodes).values([
    { email: "a@x.io", purpose: "login", codeHash: "h1", expiresAt: at(10 * 60_000), createdAt: at(0) },
    { email: "b@x.io", purpose: "login", codeHash: "h2", expiresAt: at(60_000), consumedAt: at(0), createdAt: at(0) },
  ]);
  await db.insert(webauthnChallenges).values([
    { challenge: "c1", purpose: "login", expiresAt: at(5 * 60_000), createdAt: at(0) },
    { challenge: "c2", purpose: "register", userId: user.id, expiresAt: at(30 * 60_000), createdAt: at(0) },
  ]);
  await db.insert(refreshTokens).values([
    { userId: user.id, familyId: "f", tokenHash: "r1", expiresAt: at(2 * 60_000), usedAt: at(0), createdAt: at(0) },
    { userId: user.id, familyId: "f", tokenHash: "r2", expiresAt: at(30 * 86_400_000), usedAt: at(0), createdAt: at(0) },
    { userId: user.id, familyId: "f", tokenHash: "r3", expiresAt: at(30 * 86_400_000), createdAt: at(0) },
  ]);

  expect(await cleanupExpired(t.deps)).toEqual({
    emailCodes: 0,
    webauthnChallenges: 0,
    refreshTokens: 0,
    emailCodeFailures: 0,
    revokedSessions: 0,
    auditEntries: 0,
  });

  t.clock.advance(6 * 60_000);
  expect(await cleanupExpired(t.deps)).toEqual({
    emailCodes: 1,
    webauthnChallenges: 1,
    refreshTokens: 1,
    emailCodeFailures: 0,
    revokedSessions: 0,
    auditEntries: 0,
  });
  expect((await db.select().from(emailCodes).orderBy(emailCodes.email)).map((r) => r.email)).toEqual(["a@x.io"]);
  expect((await db.select().from(webauthnChallenges).orderBy(webauthnChallenges.challenge)).map((r) => r.challenge)).toEqual(["c2"]);
  // the used-but-unexpired token stays so that presenting it again is still detected as reuse
  expect((await db.select().from(refreshTokens).orderBy(refreshTokens.tokenHash)).map((r) => r.tokenHash)).toEqual(["r2", "r3"]);

  t.clock.advance(31 * 86_400_000);
  expect(await cleanupExpired(t.deps)).toEqual({
    emailCodes: 1,
    webauthnChallenges: 1,
    refreshTokens: 2,
    emailCodeFailures: 0,
    revokedSessions: 0,
    auditEntries: 0,
  });
});

test("cleanup deletes audit entries older than a year, and no younger ones", async () => {
  const { user } = await t.telegramUser();
  const entry = (action: string) =>
    recordAudit(t.deps, { workspaceId: user.id, actorId: user.id, action, subject: { type: "link", id: 1 } });
  await entry("links.create");
  t.clock.advance(200 * 86_400_000);
  await entry("links.update");
  t.clock.advance(166 * 86_400_000);
  expect((await cleanupExpired(t.deps)).auditEntries).toBe(1);
  const { auditLog } = t.deps.asyncDb.tables;
  expect((await t.deps.asyncDb.select().from(auditLog)).map((r) => r.action)).toEqual(["links.update"]);
});
