import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

describe("API tokens", () => {
  test("created with scopes, secret shown once, listed without it, revoked → 401", async () => {
    const { token } = await t.telegramUser();
    const created = await t.request("POST", "/api/tokens", { token, body: { name: "ci", scopes: ["read:links"], expiresInDays: 30 } });
    expect(created.status).toBe(201);
    expect(created.json.token).toMatch(/^lbt_sk_[A-Za-z0-9_-]{32}$/);
    expect(created.json.scopes).toEqual(["read:links"]);
    expect(created.json.expiresAt).toBe(new Date(t.clock.now().getTime() + 30 * 86400000).toISOString());

    const list = await t.request("GET", "/api/tokens", { token });
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(1);
    expect(list.json[0].token).toBeUndefined();
    expect(JSON.stringify(list.json)).not.toContain(created.json.token);

    // an API token without '*' cannot manage tokens
    const denied = await t.request("GET", "/api/tokens", { token: created.json.token });
    expect(denied.status).toBe(403);
    expect(denied.json.error).toBe("insufficient_scope");

    expect((await t.request("DELETE", `/api/tokens/${created.json.id}`, { token })).json).toEqual({ success: true });
    const revoked = await t.request("GET", "/api/tokens", { token: created.json.token });
    expect(revoked.status).toBe(401);
    expect(revoked.json.error).toBe("token_revoked");
  });

  test("default scope is *, expired tokens are refused, garbage is 401", async () => {
    const { token } = await t.telegramUser();
    const created = await t.request("POST", "/api/tokens", { token, body: { name: "all", expiresInDays: 1 } });
    expect(created.json.scopes).toEqual(["*"]);
    expect((await t.request("GET", "/api/tokens", { token: created.json.token })).status).toBe(200);
    t.clock.advance(86400000 + 1);
    const expired = await t.request("GET", "/api/tokens", { token: created.json.token });
    expect(expired.status).toBe(401);
    expect(expired.json.error).toBe("token_expired");
    expect((await t.request("GET", "/api/tokens", { token: "lbt_sk_nope" })).status).toBe(401);
    expect((await t.request("GET", "/api/tokens", { token: "not.a.jwt" })).status).toBe(401);
    expect((await t.request("GET", "/api/tokens")).status).toBe(401);
  });

  test("validation errors use the contract's body", async () => {
    const { token } = await t.telegramUser();
    const bad = await t.request("POST", "/api/tokens", { token, body: { name: "x", scopes: ["write:everything"] } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("validation_error");
    expect(bad.json.details[0].field).toBe("scopes");
    const wrongType = await t.request("POST", "/api/tokens", { token, body: { name: 5 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.details[0].field).toBe("name");
    const malformed = await t.request("POST", "/api/tokens", { token, body: "{not json", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toBe("invalid_body");
    const unknown = await t.request("GET", "/api/nope");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe("not_found");
  });
});

test("revoking someone else's or an unknown token is 404", async () => {
  const t2 = createTestApp();
  const a = await t2.telegramUser(1, "a");
  const b = await t2.telegramUser(2, "b");
  const created = await t2.request("POST", "/api/tokens", { token: a.token, body: { name: "x" } });
  expect((await t2.request("DELETE", `/api/tokens/${created.json.id}`, { token: b.token })).status).toBe(404);
  expect((await t2.request("DELETE", `/api/tokens/999`, { token: a.token })).status).toBe(404);
  t2.close();
});

test("an empty scope list is refused rather than widened to full access", async () => {
  const t2 = createTestApp();
  try {
    const { token } = await t2.telegramUser();
    const empty = await t2.request("POST", "/api/tokens", { token, body: { name: "nothing", scopes: [] } });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe("validation_error");
    expect(empty.json.details[0].field).toBe("scopes");
    expect((await t2.request("GET", "/api/tokens", { token })).json).toEqual([]);
  } finally {
    t2.close();
  }
});

test("the list shows when a token was last used (minute resolution)", async () => {
  const t2 = createTestApp();
  try {
    const { token } = await t2.telegramUser();
    const created = (await t2.request("POST", "/api/tokens", { token, body: { name: "script" } })).json;
    const lastUsed = async () => (await t2.request("GET", "/api/tokens", { token })).json[0].lastUsedAt;
    expect(await lastUsed()).toBeNull();
    t2.clock.advance(5_000);
    const firstUse = t2.clock.now().toISOString();
    expect((await t2.request("GET", "/api/auth/me", { token: created.token })).status).toBe(200);
    expect(await lastUsed()).toBe(firstUse);
    t2.clock.advance(30_000);
    await t2.request("GET", "/api/auth/me", { token: created.token });
    expect(await lastUsed()).toBe(firstUse);
    t2.clock.advance(31_000);
    await t2.request("GET", "/api/auth/me", { token: created.token });
    expect(await lastUsed()).toBe(t2.clock.now().toISOString());
  } finally {
    t2.close();
  }
});
