import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { signInitData, TEST_BOT_TOKEN } from "../../helpers/telegram-login";

let t: TestApp;
beforeEach(() => (t = createTestApp({ env: { BOT_TOKEN: TEST_BOT_TOKEN } })));
afterEach(() => t.close());

const DAY = 86_400_000;

async function signIn() {
  const res = await t.request("POST", "/api/auth/msgr", { body: { initData: signInitData({ id: 7, username: "carol" }, t.clock.now()) } });
  expect(res.status).toBe(200);
  return res.json as { accessToken: string; refreshToken: string; user: { id: number } };
}
const refresh = (token: string) => t.request("POST", "/api/auth/refresh", { body: { refresh_token: token } });

describe("POST /api/auth/refresh", () => {
  test("rotates: a new pair each time, the new access token works", async () => {
    const s = await signIn();
    t.clock.advance(DAY);
    const r = await refresh(s.refreshToken);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(["access_token", "refresh_token"]);
    expect(r.json.refresh_token).not.toBe(s.refreshToken);
    const me = await t.request("GET", "/api/auth/me", { token: r.json.access_token });
    expect(me.json.user.id).toBe(s.user.id);
    expect((await refresh(r.json.refresh_token)).status).toBe(200);
  });

  test("reusing a used refresh token revokes the whole family", async () => {
    const s = await signIn();
    const other = await signIn(); // a second, independent sign-in of the same user
    const first = await refresh(s.refreshToken);
    const reuse = await refresh(s.refreshToken);
    expect([reuse.status, reuse.json.error]).toEqual([401, "refresh_token_reused"]);
    const successor = await refresh(first.json.refresh_token);
    expect([successor.status, successor.json.error]).toEqual([401, "refresh_token_revoked"]);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  test("parallel use of one refresh token: exactly one new pair, then the family is dead", async () => {
    const s = await signIn();
    const results = await Promise.all([refresh(s.refreshToken), refresh(s.refreshToken), refresh(s.refreshToken)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await refresh(winner.json.refresh_token)).status).toBe(401);
  });

  test("expires after 30 days; unknown and malformed tokens are refused", async () => {
    const s = await signIn();
    t.clock.advance(30 * DAY + 1000);
    const expired = await refresh(s.refreshToken);
    expect([expired.status, expired.json.error]).toEqual([401, "refresh_token_expired"]);
    expect((await refresh("rt_nope")).json.error).toBe("invalid_refresh_token");
    expect((await t.request("POST", "/api/auth/refresh", { body: {} })).status).toBe(400);
  });

  test("logout ends the sign-in", async () => {
    const s = await signIn();
    expect((await t.request("POST", "/api/auth/logout", { body: { refresh_token: s.refreshToken } })).json).toEqual({ success: true });
    expect((await refresh(s.refreshToken)).json.error).toBe("refresh_token_revoked");
  });
});

describe("API tokens on auth routes", () => {
  test("a scoped token is refused (403) where a session is needed; * is accepted; revoked and expired are 401", async () => {
    const { token } = await t.telegramUser();
    const scoped = (await t.request("POST", "/api/tokens", { token, body: { name: "links", scopes: ["read:links"] } })).json.token;
    const all = (await t.request("POST", "/api/tokens", { token, body: { name: "all", expiresInDays: 1 } })).json;
    const denied = await t.request("GET", "/api/auth/me", { token: scoped });
    expect([denied.status, denied.json.error]).toEqual([403, "insufficient_scope"]);
    expect((await t.request("GET", "/api/auth/me", { token: all.token })).status).toBe(200);
    expect((await t.request("GET", "/api/auth/me", { token: "lbt_sk_garbage" })).json.error).toBe("invalid_token");
    t.clock.advance(DAY + 1);
    expect((await t.request("GET", "/api/auth/me", { token: all.token })).json.error).toBe("token_expired");
    const list = await t.request("GET", "/api/tokens", { token });
    const scopedId = list.json.find((x: { name: string }) => x.name === "links").id;
    await t.request("DELETE", `/api/tokens/${scopedId}`, { token });
    expect((await t.request("GET", "/api/auth/me", { token: scoped })).json.error).toBe("token_revoked");
  });
});
