import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = createTestApp();
  token = (await t.telegramUser()).token;
});
afterEach(() => t.close());

test("tags: create (201), list, duplicate name 409, delete, other users' 404", async () => {
  const a = await t.request("POST", "/api/tags", { token, body: { name: " Promo " } });
  expect(a.status).toBe(201);
  expect(a.json).toEqual({ id: expect.any(Number), name: "Promo", createdAt: t.clock.now().toISOString() });
  expect((await t.request("POST", "/api/tags", { token, body: { name: "promo" } })).status).toBe(409);
  expect((await t.request("POST", "/api/tags", { token, body: { name: "" } })).status).toBe(400);
  expect((await t.request("GET", "/api/tags", { token })).json).toEqual([a.json]);
  const bob = await t.emailUser();
  expect((await t.request("GET", "/api/tags", { token: bob.token })).json).toEqual([]);
  expect((await t.request("DELETE", `/api/tags/${a.json.id}`, { token: bob.token })).status).toBe(404);
  expect((await t.request("DELETE", `/api/tags/${a.json.id}`, { token })).json).toEqual({ success: true });
});

test("pixels: the five types with id checks; scopes read:pixels and write:pixels", async () => {
  const ok = await t.request("POST", "/api/pixels", { token, body: { name: "Ads", type: "facebook", pixelId: "1234567890" } });
  expect(ok.status).toBe(201);
  expect(ok.json).toMatchObject({ name: "Ads", type: "facebook", pixelId: "1234567890" });
  const badType = await t.request("POST", "/api/pixels", { token, body: { name: "x", type: "myspace", pixelId: "1" } });
  expect(badType.status).toBe(400);
  const badId = await t.request("POST", "/api/pixels", { token, body: { name: "x", type: "google", pixelId: "</script>" } });
  expect(badId.status).toBe(400);
  expect(badId.json.details[0].field).toBe("pixelId");
  const ro = (await t.request("POST", "/api/tokens", { token, body: { name: "ro", scopes: ["read:pixels"] } })).json.token;
  expect((await t.request("GET", "/api/pixels", { token: ro })).json).toHaveLength(1);
  expect((await t.request("POST", "/api/pixels", { token: ro, body: { name: "y", type: "yandex", pixelId: "12345678" } })).status).toBe(403);
  const links = (await t.request("POST", "/api/tokens", { token, body: { name: "l", scopes: ["read:links"] } })).json.token;
  expect((await t.request("GET", "/api/pixels", { token: links })).status).toBe(403);
  expect((await t.request("DELETE", `/api/pixels/${ok.json.id}`, { token })).json).toEqual({ success: true });
});

test("domains: hostname checked, one owner per hostname, the service's own host refused", async () => {
  const d = await t.request("POST", "/api/domains", { token, body: { hostname: "Go.Brand.Example" } });
  expect(d.status).toBe(201);
  expect(d.json.hostname).toBe("go.brand.example");
  const bob = await t.emailUser();
  expect((await t.request("POST", "/api/domains", { token: bob.token, body: { hostname: "go.brand.example" } })).status).toBe(409);
  for (const hostname of ["https://x.example", "x.example/path", "localhost", "bad_host.example"])
    expect((await t.request("POST", "/api/domains", { token, body: { hostname } })).status).toBe(400);
  expect((await t.request("GET", "/api/domains", { token })).json).toEqual([d.json]);
  expect((await t.request("DELETE", `/api/domains/${d.json.id}`, { token })).json).toEqual({ success: true });
});

test("domains: international names are kept in their ASCII (punycode) form, which browsers send as Host", async () => {
  const typed = await t.request("POST", "/api/domains", { token, body: { hostname: "Go.Пример.рф" } });
  expect(typed.status).toBe(201);
  expect(typed.json.hostname).toBe("go.xn--e1afmkfd.xn--p1ai");
  const ascii = await t.request("POST", "/api/domains", { token, body: { hostname: "xn--80ak6aa92e.xn--p1ai" } });
  expect(ascii.status).toBe(201);
  expect((await t.request("POST", "/api/domains", { token, body: { hostname: "go.пример.рф" } })).status).toBe(409);
  const l = await t.request("POST", "/api/links", { token, body: { url: "https://ok.example/", domain_id: typed.json.id } });
  expect(l.json.trackingUrl).toBe(`http://go.xn--e1afmkfd.xn--p1ai/${l.json.code}`);
  const visit = await t.request("GET", `/${l.json.code}`, { headers: { host: "go.xn--e1afmkfd.xn--p1ai", "user-agent": "Mozilla/5.0 (Windows NT 10.0) Chrome/124.0" } });
  expect(visit.status).toBe(302);
});
