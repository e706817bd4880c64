import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { createTestApp, type TestApp } from "../../helpers/app";
import { signInitData, signWidget, TEST_BOT_TOKEN, unixSeconds } from "../../helpers/telegram-login";

let t: TestApp;
beforeEach(() => (t = createTestApp({ env: { BOT_TOKEN: TEST_BOT_TOKEN } })));
afterEach(() => t.close());

const DAY = 86_400_000;
const alice = { id: 1001, username: "alice", first_name: "Alice" };

describe("POST /api/auth/msgr (initData)", () => {
  test("signs in, creates the user once, and the access token opens /me", async () => {
    const res = await t.request("POST", "/api/auth/msgr", { body: { initData: signInitData(alice, t.clock.now()) } });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ msgrId: 1001, username: "alice" });
    expect(res.json.subscription).toEqual({ plan: "free", expiresAt: null });
    expect(res.json.refreshToken).toStartWith("rt_");
    const me = await t.request("GET", "/api/auth/me", { token: res.json.accessToken });
    expect(me.status).toBe(200);
    expect(me.json.user.id).toBe(res.json.user.id);
    expect(me.json.identities).toEqual([
      { id: expect.any(Number), provider: "telegram", subject: "1001", createdAt: t.clock.now().toISOString() },
    ]);
    const again = await t.request("POST", "/api/auth/msgr", {
      body: { initData: signInitData({ ...alice, username: "alice2" }, t.clock.now()) },
    });
    expect(again.json.user).toMatchObject({ id: res.json.user.id, username: "alice2" });
  });

  test("tampered, wrongly keyed and stale initData are refused with 401", async () => {
    const good = signInitData(alice, t.clock.now());
    const tampered = good.replace(encodeURIComponent('"id":1001'), encodeURIComponent('"id":1002'));
    expect(tampered).not.toBe(good);
    const r1 = await t.request("POST", "/api/auth/msgr", { body: { initData: tampered } });
    expect([r1.status, r1.json.error]).toEqual([401, "invalid_init_data"]);
    const otherKey = signInitData(alice, t.clock.now(), "999:AAanotherBotTokenThatIsNotOurs_xyz");
    const r2 = await t.request("POST", "/api/auth/msgr", { body: { initData: otherKey } });
    expect([r2.status, r2.json.error]).toEqual([401, "invalid_init_data"]);
    const r3 = await t.request("POST", "/api/auth/msgr", { body: { initData: "garbage" } });
    expect(r3.status).toBe(401);

    t.clock.advance(23 * 3600_000);
    expect((await t.request("POST", "/api/auth/msgr", { body: { initData: good } })).status).toBe(200);
    t.clock.advance(3600_000 + 1000);
    const stale = await t.request("POST", "/api/auth/msgr", { body: { initData: good } });
    expect([stale.status, stale.json.error]).toEqual([401, "auth_data_expired"]);
  });

  test("x-msgr-init-data header authenticates any endpoint; a stale or tampered one is 401", async () => {
    const initData = signInitData(alice, t.clock.now());
    const me = await t.request("GET", "/api/auth/me", { headers: { "x-msgr-init-data": initData } });
    expect(me.status).toBe(200);
    expect(me.json.user.msgrId).toBe(1001);
    const tokens = await t.request("GET", "/api/tokens", { headers: { "x-msgr-init-data": initData } });
    expect(tokens.status).toBe(200);
    const bad = await t.request("GET", "/api/auth/me", { headers: { "x-msgr-init-data": initData.replace("alice", "mallory") } });
    expect(bad.status).toBe(401);
    t.clock.advance(DAY + 1000);
    expect((await t.request("GET", "/api/auth/me", { headers: { "x-msgr-init-data": initData } })).status).toBe(401);
  });
});

test("initData without a user or dated in the future is refused", async () => {
  const { sign } = await import("@telegram-apps/init-data-node");
  const noUser = sign({} as Parameters<typeof sign>[0], TEST_BOT_TOKEN, t.clock.now());
  const r1 = await t.request("POST", "/api/auth/msgr", { body: { initData: noUser } });
  expect([r1.status, r1.json.error]).toEqual([401, "invalid_init_data"]);
  const future = signInitData(alice, new Date(t.clock.now().getTime() + 3600_000));
  const r2 = await t.request("POST", "/api/auth/msgr", { body: { initData: future } });
  expect([r2.status, r2.json.error]).toEqual([401, "invalid_auth_data"]);
});

describe("POST /api/auth/login-widget", () => {
  test("every field Telegram signed takes part in the check (photo_url, last_name)", async () => {
    const fields = {
      id: 3003,
      first_name: "Eve",
      last_name: "Doe",
      photo_url: "https://t.me/i/userpic/320/eve.jpg",
      auth_date: unixSeconds(t.clock.now()),
    };
    const data = signWidget(fields as Parameters<typeof signWidget>[0]);
    expect((await t.request("POST", "/api/auth/login-widget", { body: data })).status).toBe(200);
    const swapped = await t.request("POST", "/api/auth/login-widget", { body: { ...data, photo_url: "https://evil.example/x.jpg" } });
    expect(swapped.status).toBe(401);
  });

  test("accepts id and auth_date as numbers or numeric strings", async () => {
    const data = signWidget({ id: 2002, first_name: "Bob", username: "bob", auth_date: unixSeconds(t.clock.now()) });
    const asNumbers = await t.request("POST", "/api/auth/login-widget", { body: data });
    expect(asNumbers.status).toBe(200);
    expect(asNumbers.json.user).toMatchObject({ msgrId: 2002, username: "bob" });
    expect(typeof asNumbers.json.accessToken).toBe("string");
    const asStrings = await t.request("POST", "/api/auth/login-widget", {
      body: { ...data, id: "2002", auth_date: String(data.auth_date) },
    });
    expect(asStrings.status).toBe(200);
    expect(asStrings.json.user.id).toBe(asNumbers.json.user.id);
  });

  test("tampered, wrongly keyed, stale and malformed widget data are refused", async () => {
    const now = unixSeconds(t.clock.now());
    const data = signWidget({ id: 2002, first_name: "Bob", username: "bob", auth_date: now });
    const tampered = await t.request("POST", "/api/auth/login-widget", { body: { ...data, username: "admin" } });
    expect([tampered.status, tampered.json.error]).toEqual([401, "invalid_auth_data"]);
    const wrongKey = signWidget({ id: 2002, first_name: "Bob", auth_date: now }, "999:AAanotherBotTokenThatIsNotOurs_xyz");
    expect((await t.request("POST", "/api/auth/login-widget", { body: wrongKey })).status).toBe(401);
    const old = signWidget({ id: 2002, first_name: "Bob", auth_date: now - 86_401 });
    const stale = await t.request("POST", "/api/auth/login-widget", { body: old });
    expect([stale.status, stale.json.error]).toEqual([401, "auth_data_expired"]);
    const noHash = await t.request("POST", "/api/auth/login-widget", { body: { id: 1, first_name: "x", auth_date: now } });
    expect(noHash.status).toBe(400);
    expect(noHash.json.details.map((d: { field: string }) => d.field)).toContain("hash");
    const badId = await t.request("POST", "/api/auth/login-widget", { body: { ...data, id: "12ab" } });
    expect(badId.status).toBe(400);
  });
});

test("without BOT_TOKEN the Telegram endpoints answer 503 with a clear error", async () => {
  const bare = createTestApp();
  try {
    const r1 = await bare.request("POST", "/api/auth/msgr", { body: { initData: signInitData(alice, bare.clock.now()) } });
    expect(r1.status).toBe(503);
    expect(r1.json).toEqual({ error: "not_configured", message: "Telegram sign-in needs BOT_TOKEN to be configured" });
    const r2 = await bare.request("POST", "/api/auth/login-widget", { body: signWidget({ id: 1, first_name: "x", auth_date: 1 }) });
    expect(r2.status).toBe(503);
  } finally {
    bare.close();
  }
});

describe("access tokens (JWT)", () => {
  test("expire after 7 days; garbage, foreign-key and alg=none tokens are 401", async () => {
    const { token } = await t.telegramUser();
    expect((await t.request("GET", "/api/auth/me", { token })).status).toBe(200);
    t.clock.advance(7 * DAY - 1000);
    expect((await t.request("GET", "/api/auth/me", { token })).status).toBe(200);
    t.clock.advance(2000);
    const expired = await t.request("GET", "/api/auth/me", { token });
    expect([expired.status, expired.json.error]).toEqual([401, "token_expired"]);

    const now = unixSeconds(t.clock.now());
    const foreign = await new SignJWT({ typ: "access" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode("x".repeat(40)));
    expect((await t.request("GET", "/api/auth/me", { token: foreign })).status).toBe(401);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const none = `${b64({ alg: "none", typ: "JWT" })}.${b64({ sub: "1", typ: "access", exp: now + 60 })}.`;
    expect((await t.request("GET", "/api/auth/me", { token: none })).status).toBe(401);
    expect((await t.request("GET", "/api/auth/me", { token: "garbage" })).json.error).toBe("invalid_token");
    expect((await t.request("GET", "/api/auth/me", { headers: { authorization: "Basic abc" } })).status).toBe(401);
  });
});
