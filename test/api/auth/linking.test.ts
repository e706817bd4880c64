import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { SmtpSink } from "../../helpers/smtp-sink";
import { mergedSeedCounts, ownedCounts, seedResources } from "../../helpers/seed";
import { signInitData, signWidget, TEST_BOT_TOKEN, unixSeconds } from "../../helpers/telegram-login";

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => (sink = await new SmtpSink().start()));
afterAll(() => sink.stop());
beforeEach(() => (t = createTestApp({ env: { SMTP_URL: sink.url, BOT_TOKEN: TEST_BOT_TOKEN } })));
afterEach(() => t.close());

let seq = 0;
const freshEmail = () => `link${++seq}-${Date.now()}@example.com`;
const DAY = 86_400_000;

async function linkEmail(token: string, email: string) {
  const sent = await t.request("POST", "/api/auth/email/send-link-otp", { token, body: { email } });
  expect(sent.json).toEqual({ success: true });
  const code = await sink.codeFor(email, Math.max(1, sink.to(email).length));
  return t.request("POST", "/api/auth/email/verify-link-otp", { token, body: { email, code } });
}

async function emailSignIn(email: string) {
  await t.request("POST", "/api/auth/email/send-otp", { body: { email } });
  const code = await sink.codeFor(email, sink.to(email).length);
  const res = await t.request("POST", "/api/auth/email/verify-otp", { body: { email, code } });
  expect(res.status).toBe(200);
  return res.json as { access_token: string; user: { id: number } };
}

const setPlan = (userId: number, plan: "starter" | "pro" | "business", days: number) =>
  t.deps.asyncDb
    .update(t.deps.asyncDb.tables.users)
    .set({ plan, planExpiresAt: new Date(t.clock.now().getTime() + days * DAY) })
    .where(eq(t.deps.asyncDb.tables.users.id, userId));

describe("linking an email (send-link-otp / verify-link-otp)", () => {
  test("links a new email to a Telegram account, once", async () => {
    const { user, token } = await t.telegramUser(10, "tg10");
    const email = freshEmail();
    const res = await linkEmail(token, email);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, merged: false, user: expect.objectContaining({ id: user.id, msgrId: 10, email }) });
    const me = await t.request("GET", "/api/auth/me", { token });
    expect(me.json.identities.map((i: { provider: string }) => i.provider)).toEqual(["telegram", "email"]);
    // the email now signs in to the same account
    expect((await emailSignIn(email)).user.id).toBe(user.id);

    const same = await t.request("POST", "/api/auth/email/send-link-otp", { token, body: { email } });
    expect([same.status, same.json.error]).toEqual([409, "email_already_linked"]);
    const other = await t.request("POST", "/api/auth/email/send-link-otp", { token, body: { email: freshEmail() } });
    expect([other.status, other.json.error]).toEqual([409, "email_already_set"]);
  });

  test("merges the email's account into the Telegram account: resources and the paid plan move", async () => {
    const email = freshEmail();
    const emailAccount = await emailSignIn(email);
    await seedResources(t.deps, emailAccount.user.id, "mail");
    await setPlan(emailAccount.user.id, "pro", 20);
    const { user: tg, token } = await t.telegramUser(11, "tg11");
    await seedResources(t.deps, tg.id, "tg");

    const res = await linkEmail(token, email);
    expect(res.status).toBe(200);
    expect(res.json.merged).toBe(true);
    expect(res.json.user).toMatchObject({ id: tg.id, email, msgrId: 11 });
    expect(await ownedCounts(t.deps, tg.id)).toEqual(mergedSeedCounts());
    expect(Object.values(await ownedCounts(t.deps, emailAccount.user.id)).every((n) => n === 0)).toBe(true);
    const me = await t.request("GET", "/api/auth/me", { token });
    expect(me.json.subscription).toEqual({ plan: "pro", expiresAt: new Date(t.clock.now().getTime() + 20 * DAY).toISOString() });
    // the old email-account session is over; signing in by email now lands on the merged account
    expect((await t.request("GET", "/api/auth/me", { token: emailAccount.access_token })).status).toBe(401);
    expect((await emailSignIn(email)).user.id).toBe(tg.id);
  });

  test("an email already linked to a different Telegram account: the code request tells nothing; the verification refuses", async () => {
    const first = await t.telegramUser(20, "first");
    const email = freshEmail();
    expect((await linkEmail(first.token, email)).status).toBe(200);
    const second = await t.telegramUser(21, "second");
    // the same answer as for an email nobody has: whether it has an account is not told to a stranger
    const asked = await t.request("POST", "/api/auth/email/send-link-otp", { token: second.token, body: { email } });
    const unknown = await t.request("POST", "/api/auth/email/send-link-otp", { token: second.token, body: { email: freshEmail() } });
    expect([asked.status, asked.json]).toEqual([unknown.status, unknown.json]);
    expect(asked.json).toEqual({ success: true });
    // a wrong code answers exactly as for an email nobody has: guessing tells nothing
    const other = freshEmail();
    await t.request("POST", "/api/auth/email/send-link-otp", { token: second.token, body: { email: other } });
    const guessed = await t.request("POST", "/api/auth/email/verify-link-otp", { token: second.token, body: { email, code: "000000" } });
    const guessedOther = await t.request("POST", "/api/auth/email/verify-link-otp", {
      token: second.token,
      body: { email: other, code: "000000" },
    });
    expect([guessed.status, guessed.json]).toEqual([guessedOther.status, guessedOther.json]);
    expect(guessed.json).toEqual({ error: "invalid_code", message: "Wrong code; 4 attempts left" });
    // only the holder of the mailbox learns it, from the right code (the second mail to it: the one asked for here)
    const code = await sink.codeFor(email, 2);
    const refused = await t.request("POST", "/api/auth/email/verify-link-otp", { token: second.token, body: { email, code } });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({
      error: "email_linked_to_other_telegram",
      message: "This email is already linked to a different Telegram account",
    });
    expect(
      (await t.request("GET", "/api/auth/me", { token: second.token })).json.identities.map((i: { provider: string }) => i.provider),
    ).toEqual(["telegram"]);
  });

  test("a link code is bound to the account that asked for it and is not a sign-in code", async () => {
    const a = await t.telegramUser(30, "a");
    const b = await t.telegramUser(31, "b");
    const email = freshEmail();
    await t.request("POST", "/api/auth/email/send-link-otp", { token: a.token, body: { email } });
    const code = await sink.codeFor(email);
    const stolen = await t.request("POST", "/api/auth/email/verify-link-otp", { token: b.token, body: { email, code } });
    expect([stolen.status, stolen.json.error]).toEqual([400, "invalid_code"]);
    const asLogin = await t.request("POST", "/api/auth/email/verify-otp", { body: { email, code } });
    expect([asLogin.status, asLogin.json.error]).toEqual([400, "invalid_code"]);
    expect((await t.request("POST", "/api/auth/email/verify-link-otp", { token: a.token, body: { email, code } })).json.merged).toBe(false);
    expect((await t.request("POST", "/api/auth/email/send-link-otp", { body: { email } })).status).toBe(401);
  });
});

test("rule 5 is checked again when the code is verified: an email linked elsewhere meanwhile is refused, nothing moves", async () => {
  const a = await t.telegramUser(70, "a70");
  const email = freshEmail();
  expect((await t.request("POST", "/api/auth/email/send-link-otp", { token: a.token, body: { email } })).status).toBe(200);
  const code = await sink.codeFor(email, 1);
  // meanwhile the email signs in on the dashboard and links another Telegram account there
  const dash = await t.emailUser(email);
  await seedResources(t.deps, dash.user.id, "dash70");
  const widget = signWidget({ id: 71, first_name: "b71", username: "b71", auth_date: unixSeconds(t.clock.now()) });
  expect((await t.request("POST", "/api/auth/msgr/link-widget", { token: dash.token, body: widget })).status).toBe(200);

  const refused = await t.request("POST", "/api/auth/email/verify-link-otp", { token: a.token, body: { email, code } });
  expect([refused.status, refused.json.error]).toEqual([409, "email_linked_to_other_telegram"]);
  expect((await ownedCounts(t.deps, dash.user.id)).links).toBe(1);
  expect((await ownedCounts(t.deps, a.user.id)).links).toBe(0);
  const me = await t.request("GET", "/api/auth/me", { token: a.token });
  expect(me.json.identities.map((i: { provider: string }) => i.provider)).toEqual(["telegram"]);
});

describe("link codes of two accounts for one email", () => {
  test("another account asking for a link code does not cancel yours", async () => {
    const a = await t.telegramUser(32, "a32");
    const b = await t.telegramUser(33, "b33");
    const email = freshEmail();
    expect((await t.request("POST", "/api/auth/email/send-link-otp", { token: a.token, body: { email } })).status).toBe(200);
    const codeA = await sink.codeFor(email, 1);
    t.clock.advance(31_000);
    expect((await t.request("POST", "/api/auth/email/send-link-otp", { token: b.token, body: { email } })).status).toBe(200);
    await sink.codeFor(email, 2);
    const res = await t.request("POST", "/api/auth/email/verify-link-otp", { token: a.token, body: { email, code: codeA } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, merged: false, user: expect.objectContaining({ id: a.user.id, email }) });
  });

  test("wrong tries by another account do not use up your code's tries", async () => {
    const a = await t.telegramUser(34, "a34");
    const b = await t.telegramUser(35, "b35");
    const email = freshEmail();
    await t.request("POST", "/api/auth/email/send-link-otp", { token: a.token, body: { email } });
    const codeA = await sink.codeFor(email, 1);
    const wrongCode = String((Number(codeA) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 5; i++) {
      const r = await t.request("POST", "/api/auth/email/verify-link-otp", { token: b.token, body: { email, code: wrongCode } });
      expect([r.status, r.json.error]).toEqual([400, "invalid_code"]);
    }
    const res = await t.request("POST", "/api/auth/email/verify-link-otp", { token: a.token, body: { email, code: codeA } });
    expect([res.status, res.json.merged]).toEqual([200, false]);
  });
});

describe("POST /api/auth/msgr/link-widget", () => {
  const widget = (id: number, username: string) =>
    signWidget({ id, first_name: username, username, auth_date: unixSeconds(t.clock.now()) });

  test("links a Telegram account to an email account; Telegram sign-in then reaches it", async () => {
    const { user, token } = await t.emailUser("dash@example.com");
    const res = await t.request("POST", "/api/auth/msgr/link-widget", { token, body: widget(40, "tg40") });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      merged: false,
      user: expect.objectContaining({ id: user.id, msgrId: 40, username: "tg40" }),
    });
    const login = await t.request("POST", "/api/auth/msgr", {
      body: { initData: signInitData({ id: 40, username: "tg40" }, t.clock.now()) },
    });
    expect(login.json.user.id).toBe(user.id);
    const again = await t.request("POST", "/api/auth/msgr/link-widget", { token, body: widget(40, "tg40") });
    expect([again.status, again.json.merged]).toEqual([200, false]);
    const other = await t.request("POST", "/api/auth/msgr/link-widget", { token, body: widget(41, "tg41") });
    expect([other.status, other.json.error]).toEqual([409, "telegram_already_set"]);
  });

  test("merges an existing Telegram account in, keeping the more expensive plan", async () => {
    const tg = await t.telegramUser(50, "tg50");
    await seedResources(t.deps, tg.user.id, "tg50");
    await setPlan(tg.user.id, "starter", 5);
    const dash = await t.emailUser("biz@example.com");
    await setPlan(dash.user.id, "business", 2);
    const res = await t.request("POST", "/api/auth/msgr/link-widget", { token: dash.token, body: widget(50, "tg50") });
    expect(res.json).toMatchObject({ success: true, merged: true, user: { id: dash.user.id, msgrId: 50, email: "biz@example.com" } });
    expect((await ownedCounts(t.deps, dash.user.id)).links).toBe(1);
    expect((await ownedCounts(t.deps, dash.user.id)).trackers).toBe(1);
    const me = await t.request("GET", "/api/auth/me", { token: dash.token });
    expect(me.json.subscription.plan).toBe("business");
    expect((await t.request("GET", "/api/auth/me", { token: tg.token })).status).toBe(401);
  });

  test("refuses a Telegram account whose account has a different email, and bad widget data", async () => {
    const tg = await t.telegramUser(60, "tg60");
    expect((await linkEmail(tg.token, "owner@example.com")).status).toBe(200);
    const dash = await t.emailUser("someone@example.com");
    const refused = await t.request("POST", "/api/auth/msgr/link-widget", { token: dash.token, body: widget(60, "tg60") });
    expect([refused.status, refused.json.error]).toEqual([409, "telegram_linked_to_other_email"]);
    const tampered = await t.request("POST", "/api/auth/msgr/link-widget", { token: dash.token, body: { ...widget(61, "x"), id: 62 } });
    expect(tampered.status).toBe(401);
    expect((await t.request("POST", "/api/auth/msgr/link-widget", { body: widget(61, "x") })).status).toBe(401);
  });
});
