/** Rate limits are per account (all its API tokens together), and an account holds at most 50 API tokens. */
import { afterEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { SharedWindowLimiter, rateLimitPlugin, type RateLimitStore, type Verdict } from "../../api/shared/rate-limit";
import { createLocalWindowCounters } from "../../core/cluster/counters";
import { Elysia } from "elysia";

let t: TestApp;
afterEach(() => t.close());

describe("per-account rate limit", () => {
  test("four API tokens of one account share one budget; another account has its own", async () => {
    t = createTestApp({ env: { RATE_LIMIT_API: "8" } });
    const alice = await t.telegramUser(1, "alice");
    const bob = await t.telegramUser(2, "bob");
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++)
      tokens.push((await t.request("POST", "/api/tokens", { token: alice.token, body: { name: `t${i}` } })).json.token);
    // 4 creations spent 4 of Alice's 8; each token then gets one call before the budget is gone
    const statuses: number[] = [];
    for (const token of tokens) statuses.push((await t.request("GET", "/api/links", { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    for (const token of tokens) {
      const res = await t.request("GET", "/api/links", { token });
      expect([res.status, res.json.error]).toEqual([429, "rate_limited"]);
      expect(res.headers.get("ratelimit-limit")).toBe("8");
    }
    expect((await t.request("GET", "/api/links", { token: alice.token })).status).toBe(429); // her session too
    expect((await t.request("GET", "/api/links", { token: bob.token })).status).toBe(200);
  });

  test("the counters sit behind a store interface: a shared store sees every hit", async () => {
    t = createTestApp();
    const { user, token } = await t.telegramUser();
    const keys: string[] = [];
    const inner = new SharedWindowLimiter(createLocalWindowCounters(), t.clock, 60_000, "test");
    const store: RateLimitStore = { hit: async (key, limit): Promise<Verdict> => (keys.push(key), inner.hit(key, limit)) };
    const app = new Elysia().use(rateLimitPlugin(t.deps, store)).get("/api/ping", () => "pong");
    expect(
      await (await app.handle(new Request("http://localhost/api/ping", { headers: { authorization: `Bearer ${token}` } }))).text(),
    ).toBe("pong");
    await app.handle(new Request("http://localhost/api/ping"));
    expect(keys).toEqual([`user:${user.id}`, "ip:unknown"]);
  });
});

describe("API token cap", () => {
  test("the 51st live token is 403 token_limit; revoking one makes room", async () => {
    t = createTestApp();
    const { token } = await t.telegramUser();
    let first = 0;
    for (let i = 0; i < 50; i++) {
      const res = await t.request("POST", "/api/tokens", { token, body: { name: `t${i}` } });
      expect(res.status).toBe(201);
      first ||= res.json.id;
    }
    const refused = await t.request("POST", "/api/tokens", { token, body: { name: "one too many" } });
    expect([refused.status, refused.json.error]).toEqual([403, "token_limit"]);
    expect(refused.json.message).toContain("50");
    expect((await t.request("DELETE", `/api/tokens/${first}`, { token })).status).toBe(200);
    expect((await t.request("POST", "/api/tokens", { token, body: { name: "room again" } })).status).toBe(201);
  });
});
