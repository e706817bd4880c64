import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { local, seed } from "./helpers";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

const view = (code: string, password?: string, path = "") =>
  t.request("GET", `/api/secure/view/${code}${path}`, { headers: password === undefined ? {} : { "x-share-password": password } });
const viewCount = async (token: string, fileId: number) =>
  (await t.request("GET", `/api/secure/links?fileId=${fileId}`, { token })).json[0].viewCount as number;

async function protectedLink(password = "s3cret!") {
  const s = await seed(t);
  const res = await t.request("POST", "/api/secure/links", {
    token: s.token,
    body: { fileId: s.text.id, expiresInHours: 1, maxViews: 5, password },
  });
  expect(res.status).toBe(201);
  return { ...s, l: res.json };
}

describe("share passwords", () => {
  test("link objects show hasPassword; the password is never echoed; 4–128 characters", async () => {
    const { token, text, l } = await protectedLink();
    expect(l.hasPassword).toBe(true);
    expect(JSON.stringify(l)).not.toContain("s3cret");
    const list = (await t.request("GET", `/api/secure/links?fileId=${text.id}`, { token })).json;
    expect(list[0].hasPassword).toBe(true);
    for (const password of ["abc", "x".repeat(129)]) {
      const bad = await t.request("POST", "/api/secure/links", { token, body: { fileId: text.id, expiresInHours: 1, password } });
      expect([bad.status, bad.json.error, bad.json.details?.[0]?.field]).toEqual([400, "validation_error", "password"]);
    }
    const plain = await t.request("POST", "/api/secure/links", { token, body: { fileId: text.id, expiresInHours: 1 } });
    expect(plain.json.hasPassword).toBe(false);
  });

  test("missing → 401 password_required, wrong → 401 password_invalid, neither counts; right → the content and one view", async () => {
    const { token, text, l } = await protectedLink();
    const missing = await view(l.code);
    expect([missing.status, missing.json.error]).toEqual([401, "password_required"]);
    expect(missing.json.lines).toBeUndefined();
    const wrong = await view(l.code, "s3cret?");
    expect([wrong.status, wrong.json.error]).toEqual([401, "password_invalid"]);
    for (const path of ["/stream", "/download"]) {
      const bytes = await view(l.code, undefined, path);
      expect([path, bytes.status, bytes.json.error]).toEqual([path, 401, "password_required"]);
    }
    expect(await viewCount(token, text.id)).toBe(0);
    const right = await view(l.code, "s3cret!");
    expect(right.status).toBe(200);
    expect(right.json.lines).toEqual(["line 1", "line <2>"]);
    expect(await viewCount(token, text.id)).toBe(1);
    // the grant of an opened view streams without the password and counts nothing more
    const stream = await t.request("GET", local(right.json.streamUrl));
    expect([stream.status, stream.text]).toEqual([200, "line 1\nline <2>"]);
    expect((await view(l.code, "s3cret!", "/download")).status).toBe(200); // no grant: the password again, one more view
    expect(await viewCount(token, text.id)).toBe(2);
  });

  test("wrong attempts are limited per link and address: the 6th try is 429 even with the right password, and the lock lifts", async () => {
    const { token, text, l } = await protectedLink();
    for (let i = 0; i < 5; i++) expect((await view(l.code, `wrong-${i}`)).json.error).toBe("password_invalid");
    const locked = await view(l.code, "s3cret!");
    expect([locked.status, locked.json.error]).toEqual([429, "rate_limited"]);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await viewCount(token, text.id)).toBe(0);
    // another link of the same owner is not locked
    const other = await t.request("POST", "/api/secure/links", {
      token,
      body: { fileId: text.id, expiresInHours: 24, password: "other-pw" },
    });
    expect((await view(other.json.code, "other-pw")).status).toBe(200);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await view(l.code, "s3cret!")).status).toBe(200);
  });

  test("the viewer page's form is limited like the API (one count for both)", async () => {
    const { l } = await protectedLink();
    const press = (password: string) =>
      t.request("POST", `/s/${l.code}`, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `password=${encodeURIComponent(password)}`,
      });
    for (let i = 0; i < 3; i++) expect((await press(`nope-${i}`)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await view(l.code, `nope-api-${i}`)).status).toBe(401);
    const page = await press("s3cret!");
    expect(page.status).toBe(429);
    expect(page.text).toContain("Too many");
  });

  test("PATCH sets, changes and removes the password and turns notifyOnView on and off; another user's link is 404", async () => {
    const s = await seed(t);
    const l = (await t.request("POST", "/api/secure/links", { token: s.token, body: { fileId: s.text.id, expiresInHours: 1 } })).json;
    const set = await t.request("PATCH", `/api/secure/links/${l.id}`, {
      token: s.token,
      body: { password: "first-pw", notifyOnView: true },
    });
    expect(set.json).toMatchObject({ hasPassword: true, notifyOnView: true });
    expect((await view(l.code)).status).toBe(401);
    await t.request("PATCH", `/api/secure/links/${l.id}`, { token: s.token, body: { password: "second-pw" } });
    expect((await view(l.code, "first-pw")).json.error).toBe("password_invalid");
    expect((await view(l.code, "second-pw")).status).toBe(200);
    const cleared = await t.request("PATCH", `/api/secure/links/${l.id}`, {
      token: s.token,
      body: { password: null, notifyOnView: false },
    });
    expect(cleared.json).toMatchObject({ hasPassword: false, notifyOnView: false });
    expect((await view(l.code)).status).toBe(200);
    const eve = await t.telegramUser(77, "eve");
    const foreign = await t.request("PATCH", `/api/secure/links/${l.id}`, { token: eve.token, body: { password: "takeover" } });
    expect([foreign.status, foreign.json.error]).toEqual([404, "not_found"]);
    const short = await t.request("PATCH", `/api/secure/links/${l.id}`, { token: s.token, body: { password: "abc" } });
    expect(short.status).toBe(400);
  });
});

describe("password guessing across addresses", () => {
  let p: TestApp;
  beforeEach(() => (p = createTestApp({ env: { TRUST_PROXY: "true" } })));
  afterEach(() => p.close());
  const from = (ip: string, code: string, password: string) =>
    p.request("GET", `/api/secure/view/${code}`, { headers: { "x-forwarded-for": ip, "x-share-password": password } });

  async function protectedShare() {
    const s = await seed(p);
    return (
      await p.request("POST", "/api/secure/links", {
        token: s.token,
        body: { fileId: s.text.id, expiresInHours: 24, maxViews: 1000, password: "s3cret!" },
      })
    ).json as { code: string };
  }

  test("addresses of one IPv6 /64 count as one visitor: the 6th guess from a fresh address of it is 429", async () => {
    const l = await protectedShare();
    for (let i = 1; i <= 5; i++) expect((await from(`2001:db8:1:2::${i.toString(16)}`, l.code, `wrong-${i}`)).status).toBe(401);
    const rotated = await from("2001:db8:1:2:ffff::99", l.code, "s3cret!");
    expect([rotated.status, rotated.json.error]).toEqual([429, "rate_limited"]);
    // another network is its own visitor
    expect((await from("2001:db8:1:3::1", l.code, "s3cret!")).status).toBe(200);
  });

  test("wrong guesses from all addresses together lock the link after 50; visitors who know it never lock it", async () => {
    const l = await protectedShare();
    for (let i = 1; i <= 60; i++) expect((await from(`198.51.100.${i}`, l.code, "s3cret!")).status).toBe(200);
    for (let i = 1; i <= 50; i++) expect((await from(`203.0.113.${i}`, l.code, `guess-${i}`)).status).toBe(401);
    const fresh = await from("192.0.2.77", l.code, "s3cret!");
    expect([fresh.status, fresh.json.error, fresh.json.message]).toEqual([
      429,
      "rate_limited",
      "Too many wrong passwords for this link; try again later",
    ]);
    p.clock.advance(15 * 60_000 + 1000);
    expect((await from("192.0.2.77", l.code, "s3cret!")).status).toBe(200);
  }, 60_000);
});

describe("password checks per process", () => {
  test("at most 4 run at once and 64 wait; one more is refused with 429 before any hashing; all others finish", async () => {
    const { verifyPassword, CONCURRENT_CHECKS, WAITING_CHECKS } = await import("../../../core/links/password");
    const hash = await Bun.password.hash("pw", { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
    // the hashes computed, counted as they start (a clock would measure the machine's load, not the rule)
    const verify = spyOn(Bun.password, "verify");
    let finished = 0;
    const checks = Array.from({ length: CONCURRENT_CHECKS + WAITING_CHECKS }, (_, i) =>
      verifyPassword(i % 2 ? "pw" : "nope", hash).finally(() => finished++),
    );
    await Promise.resolve();
    expect(verify).toHaveBeenCalledTimes(CONCURRENT_CHECKS);
    await expect(verifyPassword("pw", hash)).rejects.toMatchObject({ status: 429, code: "rate_limited" });
    // refused at once: no hash computed for it, and none of the others had finished yet
    expect(verify).toHaveBeenCalledTimes(CONCURRENT_CHECKS);
    expect(finished).toBe(0);
    const results = await Promise.all(checks);
    expect(verify).toHaveBeenCalledTimes(CONCURRENT_CHECKS + WAITING_CHECKS);
    verify.mockRestore();
    expect(results.filter(Boolean)).toHaveLength((CONCURRENT_CHECKS + WAITING_CHECKS) / 2);
    expect(await verifyPassword("pw", hash)).toBe(true); // places are free again
  }, 60_000);
});

describe("the owner's preview", () => {
  test("needs a credential that may read secure files: a read:stats token is a visitor and must give the password", async () => {
    const { token, l } = await protectedLink();
    const tokenWith = async (scopes: string[]) =>
      (await t.request("POST", "/api/tokens", { token, body: { name: scopes.join(","), scopes } })).json.token as string;
    const stats = await t.request("GET", `/api/secure/view/${l.code}`, { token: await tokenWith(["read:stats"]) });
    expect([stats.status, stats.json.error, stats.json.lines]).toEqual([401, "password_required", undefined]);
    const reader = await t.request("GET", `/api/secure/view/${l.code}`, { token: await tokenWith(["read:secure"]) });
    expect([reader.status, reader.json.lines]).toEqual([200, ["line 1", "line <2>"]]);
    expect((await t.request("GET", `/api/secure/view/${l.code}`, { token })).status).toBe(200); // the owner's session
  });
});
