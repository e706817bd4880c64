/** Ending a sign-in (logout, refresh-token reuse) ends its access tokens at once; other sign-ins keep working. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { signInitData, TEST_BOT_TOKEN } from "../helpers/telegram-login";
import { cleanupExpired } from "../../jobs/cleanup";
import { createRevokedSessions } from "../../core/auth/revoked-sessions";

let t: TestApp;
beforeEach(() => (t = createTestApp({ env: { BOT_TOKEN: TEST_BOT_TOKEN } })));
afterEach(() => t.close());

async function signIn() {
  const res = await t.request("POST", "/api/auth/msgr", { body: { initData: signInitData({ id: 7, username: "carol" }, t.clock.now()) } });
  expect(res.status).toBe(200);
  return res.json as { accessToken: string; refreshToken: string };
}
const me = (token: string) => t.request("GET", "/api/auth/me", { token });
const refresh = (token: string) => t.request("POST", "/api/auth/refresh", { body: { refresh_token: token } });

describe("ending a sign-in ends its access tokens", () => {
  test("after logout the access token is 401 on the next request; another sign-in is untouched", async () => {
    const s = await signIn();
    const other = await signIn();
    expect((await me(s.accessToken)).status).toBe(200);
    expect((await t.request("POST", "/api/auth/logout", { body: { refresh_token: s.refreshToken } })).json).toEqual({ success: true });
    const after = await me(s.accessToken);
    expect([after.status, after.json.error]).toEqual([401, "session_revoked"]);
    // nor can it mint a permanent API token
    expect((await t.request("POST", "/api/tokens", { token: s.accessToken, body: { name: "keep" } })).status).toBe(401);
    expect((await me(other.accessToken)).status).toBe(200);
  });

  test("refresh-token reuse ends every access token of that sign-in, old and rotated", async () => {
    const s = await signIn();
    const rotated = await refresh(s.refreshToken);
    expect(rotated.status).toBe(200);
    expect((await me(rotated.json.access_token)).status).toBe(200);
    expect((await refresh(s.refreshToken)).json.error).toBe("refresh_token_reused");
    for (const token of [s.accessToken, rotated.json.access_token]) expect((await me(token)).status).toBe(401);
  });

  test("the revocation outlives a restart and is swept once every token of the sign-in has expired", async () => {
    const s = await signIn();
    await t.request("POST", "/api/auth/logout", { body: { refresh_token: s.refreshToken } });
    // a fresh set over the same database (another process, or this one after a restart) knows it
    const fresh = createRevokedSessions(t.deps.asyncDb);
    const sid = JSON.parse(Buffer.from(s.accessToken.split(".")[1]!, "base64url").toString()).sid;
    expect(await fresh.has(sid)).toBe(true);
    t.clock.advance(7 * 86_400_000 - 1000);
    expect((await cleanupExpired(t.deps)).revokedSessions).toBe(0);
    t.clock.advance(2000);
    expect((await cleanupExpired(t.deps)).revokedSessions).toBe(1);
    expect(await createRevokedSessions(t.deps.asyncDb).has(sid)).toBe(false);
    expect((await me(s.accessToken)).json.error).toBe("token_expired"); // by then the token is dead anyway
  });

  test("a change made elsewhere is seen after invalidate (the hook another node triggers)", async () => {
    const s = await signIn();
    expect((await me(s.accessToken)).status).toBe(200); // the set is now cached
    const elsewhere = createRevokedSessions(t.deps.asyncDb);
    const sid = JSON.parse(Buffer.from(s.accessToken.split(".")[1]!, "base64url").toString()).sid;
    await elsewhere.revoke([sid], t.clock.now());
    t.deps.revokedSessions.invalidate();
    expect((await me(s.accessToken)).status).toBe(401);
  });
});

describe("the ended sign-ins held in memory", () => {
  test("a logout adds its sign-in to the set without reading the whole table again; an announced one too", async () => {
    let reads = 0;
    const counting = new Proxy(t.deps.asyncDb, {
      get(target, key, receiver) {
        if (key === "select") return (...args: unknown[]) => (reads++, (target.select as (...a: unknown[]) => unknown)(...args));
        return Reflect.get(target, key, receiver);
      },
    });
    const announced: string[][] = [];
    const sessions = createRevokedSessions(counting, (ids) => announced.push(ids));
    expect(await sessions.has("s1")).toBe(false);
    expect(reads).toBe(1);
    await sessions.revoke(["s1", "s2"], t.clock.now());
    expect([await sessions.has("s1"), await sessions.has("s2"), await sessions.has("s3")]).toEqual([true, true, false]);
    expect(reads).toBe(1);
    expect(announced).toEqual([["s1", "s2"]]);
    sessions.remember(["s9"]); // another node ended s9 and said so
    expect(await sessions.has("s9")).toBe(true);
    expect(reads).toBe(1);
    sessions.invalidate(); // messages may have been missed: read again
    expect(await sessions.has("s1")).toBe(true);
    expect(reads).toBe(2);
  });
});
