import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { mergedSeedCounts, ownedCounts, seedResources } from "../../helpers/seed";
import { mergeAccounts, mergedPlan } from "../../../core/accounts/merge";
import { findUserByIdentity, type UserRow } from "../../../core/accounts/users";
import { issueSession, refreshSession } from "../../../core/auth/sessions";
import { OWNED_TABLES, type OwnedTable } from "../../../core/accounts/owned-tables";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());
const DAY = 86_400_000;

describe("mergeAccounts", () => {
  test("moves every owned row, identities and plan in one go; the source can no longer sign in", async () => {
    const { user: tg } = await t.telegramUser(500, "tguser");
    const { user: mail } = await t.emailUser("merge@example.com");
    const src = await seedResources(t.deps, mail.id, "src");
    await seedResources(t.deps, tg.id, "dst");
    const expires = new Date(t.clock.now().getTime() + 10 * DAY);
    await t.deps.asyncDb
      .update(t.deps.asyncDb.tables.users)
      .set({ plan: "pro", planExpiresAt: expires })
      .where(eq(t.deps.asyncDb.tables.users.id, mail.id));
    const session = await issueSession(
      t.deps,
      (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.users).where(eq(t.deps.asyncDb.tables.users.id, mail.id)))[0]!,
    );

    const merged = await mergeAccounts(t.deps, mail.id, tg.id);

    expect(Object.keys(await ownedCounts(t.deps, tg.id))).toHaveLength(OWNED_TABLES.length);
    expect(Object.values(await ownedCounts(t.deps, mail.id)).every((n) => n === 0)).toBe(true);
    expect(await ownedCounts(t.deps, tg.id)).toEqual(mergedSeedCounts());
    // the survivor keeps its own webhook signing secret
    expect(
      (
        await t.deps.asyncDb
          .select()
          .from(t.deps.asyncDb.tables.webhookSecrets)
          .where(eq(t.deps.asyncDb.tables.webhookSecrets.userId, tg.id))
      )[0]?.secret,
    ).toBe("whsec_dst");
    // the survivor keeps its own settings
    expect(
      (
        await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.userSettings).where(eq(t.deps.asyncDb.tables.userSettings.userId, tg.id))
      )[0]?.timeZone,
    ).toBe("Europe/Moscow");
    // children keep pointing at the moved parents
    const file = (
      await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.secureFiles).where(eq(t.deps.asyncDb.tables.secureFiles.id, src.fileId))
    )[0]!;
    expect([file.userId, file.folderId]).toEqual([tg.id, src.folderId]);
    expect(
      await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.linkTags).where(eq(t.deps.asyncDb.tables.linkTags.linkId, src.linkId)),
    ).toEqual([{ linkId: src.linkId, tagId: src.tagId }]);

    expect(merged).toMatchObject({
      id: tg.id,
      plan: "pro",
      planExpiresAt: expires,
      email: "merge@example.com",
      msgrId: 500,
      username: "tguser",
    });
    expect((await findUserByIdentity(t.deps, "email", "merge@example.com"))!.id).toBe(tg.id);
    const source = (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.users).where(eq(t.deps.asyncDb.tables.users.id, mail.id)))[0]!;
    expect(source).toMatchObject({ mergedIntoId: tg.id, email: null, msgrId: null, plan: "free" });
    await expect(refreshSession(t.deps, session.refreshToken)).rejects.toMatchObject({ status: 401, code: "refresh_token_revoked" });
  });

  test("refuses to merge two accounts that each have a Telegram identity, and changes nothing", async () => {
    const a = (await t.telegramUser(1, "a")).user;
    const b = (await t.telegramUser(2, "b")).user;
    await seedResources(t.deps, a.id, "a");
    await expect(mergeAccounts(t.deps, a.id, b.id)).rejects.toThrow("already linked to a different Telegram account");
    expect((await ownedCounts(t.deps, a.id)).links).toBe(1);
    expect(
      (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.users).where(eq(t.deps.asyncDb.tables.users.id, a.id)))[0]!.mergedIntoId,
    ).toBeNull();
  });
});

describe("merge hooks of owned tables", () => {
  const tagsEntry = () => OWNED_TABLES.find((o) => o.key === "tags")!;
  // the tests swap the tags hook; the real one comes back afterwards (test files share the module)
  let realHook: OwnedTable["merge"];
  beforeEach(() => (realHook = tagsEntry().merge));
  afterEach(() => (tagsEntry().merge = realHook));

  test("a table with its own merge rule (tags fold by name, any case) runs it inside the merge", async () => {
    const a = (await t.telegramUser(1, "a")).user;
    const b = (await t.emailUser("b@example.com")).user;
    const fromB = await seedResources(t.deps, b.id, "b");
    await t.deps.asyncDb.insert(t.deps.asyncDb.tables.tags).values({ userId: a.id, name: "TAG-B" });
    await mergeAccounts(t.deps, b.id, a.id);
    const tags = await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.tags).where(eq(t.deps.asyncDb.tables.tags.userId, a.id));
    expect(tags.map((x) => x.name)).toEqual(["TAG-B"]);
    expect(
      await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.linkTags).where(eq(t.deps.asyncDb.tables.linkTags.linkId, fromB.linkId)),
    ).toEqual([{ linkId: fromB.linkId, tagId: tags[0]!.id }]);
  });

  test("a hook that leaves rows behind aborts the whole merge", async () => {
    tagsEntry().merge = async () => {};
    const a = (await t.telegramUser(1, "a")).user;
    const b = (await t.emailUser("b@example.com")).user;
    await seedResources(t.deps, b.id, "b");
    await expect(mergeAccounts(t.deps, b.id, a.id)).rejects.toThrow("merge hook of tags left 1 rows");
    expect((await ownedCounts(t.deps, b.id)).links).toBe(1);
    expect((await findUserByIdentity(t.deps, "email", "b@example.com"))!.id).toBe(b.id);
  });
});

describe("mergedPlan", () => {
  const now = new Date("2026-01-15T12:00:00Z");
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const u = (plan: UserRow["plan"], planExpiresAt: Date | null = null) => ({ plan, planExpiresAt }) as UserRow;

  test("keeps the more expensive active plan with its expiry", () => {
    expect(mergedPlan(u("pro", at(10)), u("free"), now)).toEqual({ plan: "pro", planExpiresAt: at(10) });
    expect(mergedPlan(u("free"), u("starter", at(3)), now)).toEqual({ plan: "starter", planExpiresAt: at(3) });
    expect(mergedPlan(u("starter", at(100)), u("business", at(5)), now)).toEqual({ plan: "business", planExpiresAt: at(5) });
    expect(mergedPlan(u("business"), u("pro", at(5)), now)).toEqual({ plan: "business", planExpiresAt: null });
  });

  test("an expired plan does not count; equal plans keep the later expiry; both free stay free", () => {
    expect(mergedPlan(u("business", at(-1)), u("starter", at(5)), now)).toEqual({ plan: "starter", planExpiresAt: at(5) });
    expect(mergedPlan(u("pro", at(30)), u("pro", at(5)), now)).toEqual({ plan: "pro", planExpiresAt: at(30) });
    expect(mergedPlan(u("pro", null), u("pro", at(5)), now)).toEqual({ plan: "pro", planExpiresAt: null });
    expect(mergedPlan(u("free"), u("free"), now).plan).toBe("free");
  });
});
