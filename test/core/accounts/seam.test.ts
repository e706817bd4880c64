/**
 * Accounts and sign-in (users, linking and merges, sessions, email codes, ended sign-ins) on SQLite
 * and on a real PostgreSQL, including what two nodes doing the same thing at once must not break.
 */
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { ManualClock } from "../../../core/clock";
import type { Deps } from "../../../core/deps";
import { findUserByIdentity, upsertEmailUser, upsertTelegramUser } from "../../../core/accounts/users";
import { linkEmail, linkTelegram } from "../../../core/accounts/linking";
import { issueSession, refreshSession, revokeRefreshToken } from "../../../core/auth/sessions";
import { consumeEmailCode, sendEmailCode } from "../../../core/auth/email-codes";
import { createRevokedSessions } from "../../../core/auth/revoked-sessions";
import { verifyAccessToken } from "../../../core/tokens/jwt";
import type { AsyncDb } from "../../../db/async";
import { onBothDatabases } from "../../helpers/async-engines";

function depsOver(db: AsyncDb) {
  const clock = new ManualClock("2026-05-01T10:00:00.000Z");
  const mail: { to: string; text: string }[] = [];
  const deps = {
    asyncDb: db,
    clock,
    config: { jwtSecret: "test-secret-test-secret-test-secret" },
    mailer: { send: async (to: string, _subject: string, text: string) => void mail.push({ to, text }) },
    revokedSessions: createRevokedSessions(db),
  } as unknown as Deps;
  return { deps, clock, mail };
}

onBothDatabases((open) => {
  test("ten first contacts of one Telegram user at once make one account; a later contact refreshes the profile", async () => {
    const { db } = await open();
    const { deps } = depsOver(db);
    const made = await Promise.all(
      Array.from({ length: 10 }, () => upsertTelegramUser(deps, { id: 4242, username: "ann", firstName: "Ann" })),
    );
    expect(new Set(made.map((u) => u.id)).size).toBe(1);
    expect(await db.select().from(db.tables.users)).toHaveLength(1);
    expect(await db.select().from(db.tables.identities)).toHaveLength(1);
    const renamed = await upsertTelegramUser(deps, { id: 4242, username: "ann_new" });
    expect(renamed).toMatchObject({ id: made[0]!.id, username: "ann_new", firstName: "Ann" });
    expect((await findUserByIdentity(deps, "telegram", "4242"))!.username).toBe("ann_new");
    const emails = await Promise.all(Array.from({ length: 6 }, () => upsertEmailUser(deps, " Bea@Example.com ")));
    expect(new Set(emails.map((u) => u.id)).size).toBe(1);
    expect(emails[0]!.email).toBe("bea@example.com");
  });

  test("linking an email that has an account merges it in: its rows move, clashing tags and domains fold, its sign-ins end", async () => {
    const { db } = await open();
    const { deps } = depsOver(db);
    const { links, tags, linkTags, domains, users, webhookSecrets } = db.tables;
    const tg = await upsertTelegramUser(deps, { id: 7, username: "tg" });
    const mail = await upsertEmailUser(deps, "m@example.com");
    const [mine] = await db.insert(links).values({ userId: mail.id, code: "mine001", url: "https://example.com/m" }).returning();
    const [twinTag] = await db.insert(tags).values({ userId: tg.id, name: "Spring" }).returning();
    const [theirTag] = await db.insert(tags).values({ userId: mail.id, name: "spring" }).returning();
    await db.insert(linkTags).values({ linkId: mine!.id, tagId: theirTag!.id });
    const [ourDomain] = await db.insert(domains).values({ userId: tg.id, hostname: "go.example.org" }).returning();
    await db.insert(domains).values({ userId: mail.id, hostname: "go.example.org", verifiedAt: new Date("2026-04-01T00:00:00Z") });
    await db.insert(webhookSecrets).values({ userId: mail.id, secret: "whsec_mail" });
    const session = await issueSession(deps, mail);

    const result = await linkEmail(deps, tg.id, "m@example.com");
    expect(result).toMatchObject({ success: true, merged: true, user: { id: tg.id, email: "m@example.com", msgrId: 7 } });
    expect((await db.select().from(links).where(eq(links.id, mine!.id)))[0]!.userId).toBe(tg.id);
    expect(await db.select().from(tags).where(eq(tags.userId, tg.id))).toEqual([
      expect.objectContaining({ id: twinTag!.id, name: "Spring" }),
    ]);
    expect(await db.select().from(linkTags)).toEqual([{ linkId: mine!.id, tagId: twinTag!.id }]);
    const folded = await db.select().from(domains);
    expect(folded).toEqual([expect.objectContaining({ id: ourDomain!.id, userId: tg.id, verifiedAt: new Date("2026-04-01T00:00:00Z") })]);
    expect((await db.select().from(webhookSecrets))[0]).toMatchObject({ userId: tg.id, secret: "whsec_mail" });
    expect((await db.select().from(users).where(eq(users.id, mail.id)))[0]).toMatchObject({ mergedIntoId: tg.id, email: null });
    await expect(refreshSession(deps, session.refreshToken)).rejects.toMatchObject({ status: 401, code: "refresh_token_revoked" });
    expect((await findUserByIdentity(deps, "email", "m@example.com"))!.id).toBe(tg.id);
    // the same email again, and a second Telegram account, are refused
    await expect(linkEmail(deps, tg.id, "m@example.com")).rejects.toMatchObject({ status: 409, code: "email_already_linked" });
    await expect(linkTelegram(deps, tg.id, { id: 8 })).rejects.toMatchObject({ status: 409, code: "telegram_already_set" });
  });

  test("two links of one email to two accounts at once: one merges, the other is refused, nothing is half done", async () => {
    const { db } = await open();
    const { deps } = depsOver(db);
    const a = await upsertTelegramUser(deps, { id: 1, username: "a" });
    const b = await upsertTelegramUser(deps, { id: 2, username: "b" });
    await upsertEmailUser(deps, "shared@example.com");
    const outcomes = await Promise.allSettled([linkEmail(deps, a.id, "shared@example.com"), linkEmail(deps, b.id, "shared@example.com")]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const winner = (outcomes.find((o) => o.status === "fulfilled") as PromiseFulfilledResult<{ user: { id: number } }>).value.user.id;
    expect((await findUserByIdentity(deps, "email", "shared@example.com"))!.id).toBe(winner);
    const { identities } = db.tables;
    expect(await db.select().from(identities).where(eq(identities.provider, "email"))).toHaveLength(1);
  });

  test("a refresh token presented twice at once: one refresh succeeds, the other counts as reuse and ends the sign-in everywhere", async () => {
    const { db } = await open();
    const { deps } = depsOver(db);
    const user = await upsertTelegramUser(deps, { id: 3, username: "c" });
    const session = await issueSession(deps, user);
    const outcomes = await Promise.allSettled([refreshSession(deps, session.refreshToken), refreshSession(deps, session.refreshToken)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ code: "refresh_token_reused" });
    const { sessionId } = await verifyAccessToken(deps, session.accessToken);
    // another node's set, over the same database, knows the sign-in ended
    expect(await createRevokedSessions(db).has(sessionId!)).toBe(true);
    const fresh = (outcomes.find((o) => o.status === "fulfilled") as PromiseFulfilledResult<{ refreshToken: string }>).value;
    await expect(refreshSession(deps, fresh.refreshToken)).rejects.toMatchObject({ code: "refresh_token_revoked" });
    // logout of a new sign-in
    const other = await issueSession(deps, user);
    await revokeRefreshToken(deps, other.refreshToken);
    expect(await deps.revokedSessions.has((await verifyAccessToken(deps, other.accessToken)).sessionId!)).toBe(true);
  });

  test("email codes: two sends at once mail one code; the right code presented five times at once signs in once; wrong guesses count", async () => {
    const { db } = await open();
    const { deps, clock, mail } = depsOver(db);
    const sends = await Promise.allSettled([
      sendEmailCode(deps, "d@example.com", "login", null),
      sendEmailCode(deps, "d@example.com", "login", null),
    ]);
    expect(sends.map((s) => s.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((sends.find((s) => s.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ status: 429 });
    expect(mail).toHaveLength(1);
    const code = /code is (\d{6})/.exec(mail[0]!.text)![1]!;
    const wrong = code === "000000" ? "000001" : "000000";
    await expect(consumeEmailCode(deps, { email: "d@example.com", code: wrong, purpose: "login", userId: null })).rejects.toMatchObject({
      code: "invalid_code",
      message: "Wrong code; 4 attempts left",
    });
    const uses = await Promise.allSettled(
      Array.from({ length: 5 }, () => consumeEmailCode(deps, { email: "d@example.com", code, purpose: "login", userId: null })),
    );
    expect(uses.filter((u) => u.status === "fulfilled")).toHaveLength(1);
    clock.advance(31_000);
    await sendEmailCode(deps, "d@example.com", "login", null);
    expect(mail).toHaveLength(2);
  });
});
