import { afterEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { SharedWindowLimiter, isAuthPath } from "../../api/shared/rate-limit";
import { createLocalWindowCounters } from "../../core/cluster/counters";
import { ipBucket } from "../../core/ip";
import { clientAddress } from "../../api/shared/client-ip";
import { ManualClock } from "../../core/clock";
import { issueSession } from "../../core/auth/sessions";

let t: TestApp;
afterEach(() => t?.close());

const small = (extra: Record<string, string> = {}) =>
  createTestApp({ env: { RATE_LIMIT_API: "3", RATE_LIMIT_AUTH: "2", RATE_LIMIT_WINDOW: "60", ...extra } });

describe("rate limiting on /api", () => {
  test("every /api response carries RateLimit-*; the 4th call in a window is 429 with Retry-After; the window resets", async () => {
    t = small();
    const { token } = await t.telegramUser();
    for (const remaining of [2, 1, 0]) {
      const res = await t.request("GET", "/api/tokens", { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(remaining));
      expect(res.headers.get("ratelimit-reset")).toBe("60");
    }
    t.clock.advance(20_000);
    const refused = await t.request("GET", "/api/tokens", { token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("40");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe("40");
    expect(refused.json).toEqual({ error: "rate_limited", message: expect.stringContaining("try again in 40 s") });

    t.clock.advance(40_000);
    const again = await t.request("GET", "/api/tokens", { token });
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit-remaining")).toBe("2");
  });

  test("errors and unknown paths count and carry the headers too; non-/api paths are not limited", async () => {
    t = small();
    const nf = await t.request("GET", "/api/nope");
    expect(nf.status).toBe(404);
    expect(nf.headers.get("ratelimit-remaining")).toBe("2");
    expect((await t.request("GET", "/api/tokens")).headers.get("ratelimit-remaining")).toBe("1");
    const health = await t.request("GET", "/healthz");
    expect(health.status).toBe(200);
    expect(health.headers.get("ratelimit-limit")).toBeNull();
  });

  test("users and anonymous callers have separate buckets; an account's API tokens share its bucket", async () => {
    t = small();
    const alice = await t.telegramUser(1, "alice");
    const bob = await t.telegramUser(2, "bob");
    const created = await t.request("POST", "/api/tokens", { token: alice.token, body: { name: "ci" } });
    expect(created.status).toBe(201);
    await t.request("GET", "/api/tokens", { token: alice.token });
    await t.request("GET", "/api/tokens", { token: alice.token });
    expect((await t.request("GET", "/api/tokens", { token: alice.token })).status).toBe(429);
    // Bob's session is another caller; Alice's API token is Alice
    const forBob = await t.request("GET", "/api/tokens", { token: bob.token });
    expect(forBob.status).toBe(200);
    expect(forBob.headers.get("ratelimit-remaining")).toBe("2");
    const viaToken = await t.request("GET", "/api/tokens", { token: created.json.token });
    expect(viaToken.status).toBe(429);
    // made-up tokens do not get fresh buckets: they share the IP's
    for (let i = 0; i < 3; i++) expect((await t.request("GET", "/api/tokens", { token: `lbt_sk_fake${i}` })).status).toBe(401);
    expect((await t.request("GET", "/api/tokens", { token: "not.a.jwt" })).status).toBe(429);
  });

  test("an ended sign-in's token and a revoked or expired API token spend the caller's address, not the account's budget", async () => {
    t = small({ TRUST_PROXY: "true" });
    const { user } = await t.telegramUser(1, "alice");
    const stolen = await issueSession(t.deps, user);
    const expiring = await t.request("POST", "/api/tokens", {
      token: stolen.accessToken,
      body: { name: "short", expiresInDays: 1 },
      headers: { "x-forwarded-for": "192.0.2.1" },
    });
    const revoked = await t.request("POST", "/api/tokens", {
      token: stolen.accessToken,
      body: { name: "gone" },
      headers: { "x-forwarded-for": "192.0.2.1" },
    });
    await t.request("DELETE", `/api/tokens/${revoked.json.id}`, { token: stolen.accessToken, headers: { "x-forwarded-for": "192.0.2.1" } });
    expect(
      (
        await t.request("POST", "/api/auth/logout", {
          body: { refresh_token: stolen.refreshToken },
          headers: { "x-forwarded-for": "192.0.2.1" },
        })
      ).status,
    ).toBe(200);
    t.clock.advance(60_000); // a new window: the owner's requests above are behind
    const thief = (token: string) => t.request("GET", "/api/tokens", { token, headers: { "x-forwarded-for": "203.0.113.9" } });
    const owner = async () =>
      t.request("GET", "/api/tokens", {
        token: (await issueSession(t.deps, user)).accessToken,
        headers: { "x-forwarded-for": "198.51.100.4" },
      });
    // the ended sign-in's access token, still within its lifetime
    for (let i = 0; i < 3; i++) expect((await thief(stolen.accessToken)).status).toBe(401);
    expect((await thief(stolen.accessToken)).status).toBe(429);
    let own = await owner();
    expect([own.status, own.headers.get("ratelimit-remaining")]).toEqual([200, "2"]);
    // a day later: the expired and the revoked API token
    t.clock.advance(24 * 3600_000);
    for (const token of [expiring.json.token, revoked.json.token, expiring.json.token]) expect((await thief(token)).status).toBe(401);
    expect((await thief(revoked.json.token)).status).toBe(429);
    own = await owner();
    expect([own.status, own.headers.get("ratelimit-remaining")]).toEqual([200, "2"]);
  });

  test("sign-in endpoints have the tighter per-IP limit, behind a trusted proxy keyed by X-Forwarded-For", async () => {
    t = small({ TRUST_PROXY: "2" });
    const from = (ip: string) => ({ headers: { "x-forwarded-for": `${ip}, 10.0.0.1` } });
    const a = await t.request("POST", "/api/auth/refresh", { body: {}, ...from("203.0.113.5") });
    expect(a.headers.get("ratelimit-limit")).toBe("2");
    expect(a.headers.get("ratelimit-remaining")).toBe("1");
    await t.request("POST", "/api/auth/email/send-otp", { body: { email: "a@b.c" }, ...from("203.0.113.5") });
    const refused = await t.request("POST", "/api/auth/msgr", { body: {}, ...from("203.0.113.5") });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    // another address in the same IPv6 /64 shares the allowance
    await t.request("POST", "/api/auth/refresh", { body: {}, ...from("2001:db8:1:2::10") });
    await t.request("POST", "/api/auth/refresh", { body: {}, ...from("2001:db8:1:2::11") });
    expect((await t.request("POST", "/api/auth/refresh", { body: {}, ...from("2001:db8:1:2:ffff::1") })).status).toBe(429);
    // another client address has its own allowance; ordinary API calls from the first one still work
    expect((await t.request("POST", "/api/auth/login-widget", { body: {}, ...from("198.51.100.7") })).status).not.toBe(429);
    const ordinary = await t.request("GET", "/api/tokens", from("203.0.113.5"));
    expect(ordinary.status).toBe(401);
    expect(ordinary.headers.get("ratelimit-limit")).toBe("3");
  });

  test("without TRUST_PROXY a forged X-Forwarded-For does not buy a new bucket (real socket)", async () => {
    t = small();
    const server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const url = `http://127.0.0.1:${server.server!.port}/api/auth/refresh`;
      const post = (ip: string) =>
        fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: "{}" });
      expect((await post("1.1.1.1")).headers.get("ratelimit-remaining")).toBe("1");
      expect((await post("2.2.2.2")).headers.get("ratelimit-remaining")).toBe("0");
      const third = await post("3.3.3.3");
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toBe("60");
    } finally {
      await server.stop(true);
    }
  });
});

describe("limiter parts", () => {
  test("shared windows count per key, aligned to the clock; ended windows are swept", async () => {
    const clock = new ManualClock("2026-01-15T12:00:05Z");
    const counters = createLocalWindowCounters();
    const l = new SharedWindowLimiter(counters, clock, 10_000, "t");
    expect(await l.hit("a", 2)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 5 });
    expect((await l.hit("a", 2)).remaining).toBe(0);
    expect((await l.hit("a", 2)).allowed).toBe(false);
    expect((await l.hit("b", 2)).allowed).toBe(true);
    clock.advance(4_500);
    expect(await l.hit("a", 2)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1 });
    clock.advance(500); // 12:00:10: the next window
    expect((await l.hit("a", 2)).remaining).toBe(1);
    expect(await counters.sweep(clock.now())).toBe(2); // a and b of the ended window
  });

  test("auth paths and client IPs", () => {
    for (const p of [
      "/api/auth/email/send-otp",
      "/api/auth/email/verify-link-otp",
      "/api/auth/msgr",
      "/api/auth/login-widget",
      "/api/auth/passkey/login/options",
      "/api/auth/refresh",
    ])
      expect(isAuthPath(p)).toBe(true);
    for (const p of ["/api/auth/me", "/api/auth/msgr/link-widget", "/api/auth/passkey/register/options", "/api/links"])
      expect(isAuthPath(p)).toBe(false);
    const req = new Request("http://x/", { headers: { "x-forwarded-for": " 203.0.113.9 , 10.0.0.2" } });
    const socket = (address: string) => ({ requestIP: () => ({ address }) });
    expect(clientAddress(req, socket("127.0.0.1"), 2)).toBe("203.0.113.9");
    expect(clientAddress(req, socket("127.0.0.1"), 0)).toBe("127.0.0.1");
    expect(clientAddress(new Request("http://x/"), socket("::1"), 1)).toBe("::1");
    expect(clientAddress(new Request("http://x/"), undefined, 1)).toBeNull();
    const forged = new Request("http://x/", { headers: { "x-forwarded-for": "<b>me</b>, 10.0.0.2" } });
    expect(clientAddress(forged, socket("127.0.0.1"), 2)).toBe("127.0.0.1"); // not an address: the socket's
    expect(clientAddress(new Request("http://x/", { headers: { "x-forwarded-for": "[2001:db8::1]:443" } }), socket("127.0.0.1"), 1)).toBe(
      "2001:db8::1",
    );
  });

  test("IPv6 addresses share a bucket per /64; IPv4-mapped addresses count as IPv4", () => {
    expect(ipBucket("203.0.113.9")).toBe("203.0.113.9");
    expect(ipBucket("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(ipBucket("2001:db8:85a3:1234:1:2:3:4")).toBe("2001:db8:85a3:1234::/64");
    expect(ipBucket("2001:db8:85a3:1234:ffff::9")).toBe("2001:db8:85a3:1234::/64");
    expect(ipBucket("2001:0db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipBucket("2001:db8::1")).toBe(ipBucket("2001:db8:0:0:aaaa::2"));
    expect(ipBucket("2001:db8:0:1::1")).not.toBe(ipBucket("2001:db8:0:2::1"));
    expect(ipBucket("::1")).toBe("0:0:0:0::/64");
    expect(ipBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });
});
