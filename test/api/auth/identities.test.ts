import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

/** A Telegram user with an email linked too (two sign-in methods). */
async function twoWays() {
  const { user, token } = await t.telegramUser(10, "tg10");
  await t.deps.asyncDb
    .insert(t.deps.asyncDb.tables.identities)
    .values({ userId: user.id, provider: "email", subject: "ann@example.com", createdAt: new Date() });
  const me = (await t.request("GET", "/api/auth/me", { token })).json;
  return {
    user,
    token,
    me,
    email: me.identities.find((i: { provider: string }) => i.provider === "email"),
    telegram: me.identities.find((i: { provider: string }) => i.provider === "telegram"),
  };
}

describe("DELETE /api/auth/identities/:id", () => {
  test("GET /api/auth/me lists each Telegram and email identity with its id; unlinking the email leaves Telegram", async () => {
    const { token, me, email, telegram } = await twoWays();
    expect(me.identities).toEqual([
      { id: telegram.id, provider: "telegram", subject: "10", createdAt: expect.any(String) },
      { id: email.id, provider: "email", subject: "ann@example.com", createdAt: expect.any(String) },
    ]);
    const res = await t.request("DELETE", `/api/auth/identities/${email.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect((await t.request("GET", "/api/auth/me", { token })).json.identities.map((i: { provider: string }) => i.provider)).toEqual([
      "telegram",
    ]);
  });

  test("an unlinked Telegram account stops standing for the account: no notices to its chat, not the account's person for channels", async () => {
    const { user, token, telegram } = await twoWays();
    const { ownerChat, telegramPeopleOf } = await import("../../../core/accounts/users");
    expect((await ownerChat(t.deps.asyncDb, user.id)).chatId).toBe(10);
    expect((await t.request("DELETE", `/api/auth/identities/${telegram.id}`, { token })).status).toBe(200);
    expect({
      msgrId: (await t.request("GET", "/api/auth/me", { token })).json.user.msgrId,
      noticesGoTo: (await ownerChat(t.deps.asyncDb, user.id)).chatId,
      channelPeople: await telegramPeopleOf(t.deps.asyncDb, user.id),
    }).toEqual({ msgrId: null, noticesGoTo: null, channelPeople: [] });
    // the Telegram account that messages the bot now is someone new, not this account
    const again = await t.telegramUser(10, "tg10");
    expect(again.user.id).not.toBe(user.id);
  });

  test("the only way to sign in is refused with 409 last_sign_in; a passkey counts as another way", async () => {
    const { user, token, email, telegram } = await twoWays();
    expect((await t.request("DELETE", `/api/auth/identities/${email.id}`, { token })).status).toBe(200);
    const last = await t.request("DELETE", `/api/auth/identities/${telegram.id}`, { token });
    expect(last.status).toBe(409);
    expect(last.json).toEqual({
      error: "last_sign_in",
      message: "This is the account's only way to sign in: add another (an email or a passkey) first",
    });
    await t.deps.asyncDb
      .insert(t.deps.asyncDb.tables.passkeys)
      .values({ userId: user.id, credentialId: "c1", publicKey: Buffer.from([1]), counter: 0, name: "Laptop", createdAt: new Date() });
    expect((await t.request("DELETE", `/api/auth/identities/${telegram.id}`, { token })).status).toBe(200);
  });

  test("another account's identity, a missing one or a bad id: 404 or 400, nothing removed; no credentials: 401", async () => {
    const { email } = await twoWays();
    const other = await t.telegramUser(11, "tg11");
    expect((await t.request("DELETE", `/api/auth/identities/${email.id}`, { token: other.token })).status).toBe(404);
    expect((await t.request("DELETE", "/api/auth/identities/999999", { token: other.token })).status).toBe(404);
    expect((await t.request("DELETE", "/api/auth/identities/abc", { token: other.token })).status).toBe(400);
    expect((await t.request("DELETE", `/api/auth/identities/${email.id}`)).status).toBe(401);
    expect((await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.identities)).some((i) => i.id === email.id)).toBe(true);
  });
});
