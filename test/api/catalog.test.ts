import { expect, test } from "bun:test";
import { addVerifiedDomain } from "../helpers/domains";
import { eq } from "drizzle-orm";
import { eachWithUser } from "../helpers/app";

const s = eachWithUser();

test("tags: create (201), list, duplicate name 409, delete, other users' 404", async () => {
  const a = await s.t.request("POST", "/api/tags", { token: s.token, body: { name: " Promo " } });
  expect(a.status).toBe(201);
  expect(a.json).toEqual({ id: expect.any(Number), name: "Promo", createdAt: s.t.clock.now().toISOString() });
  expect((await s.t.request("POST", "/api/tags", { token: s.token, body: { name: "promo" } })).status).toBe(409);
  expect((await s.t.request("POST", "/api/tags", { token: s.token, body: { name: "" } })).status).toBe(400);
  expect((await s.t.request("GET", "/api/tags", { token: s.token })).json).toEqual([a.json]);
  const bob = await s.t.emailUser();
  expect((await s.t.request("GET", "/api/tags", { token: bob.token })).json).toEqual([]);
  expect((await s.t.request("DELETE", `/api/tags/${a.json.id}`, { token: bob.token })).status).toBe(404);
  expect((await s.t.request("DELETE", `/api/tags/${a.json.id}`, { token: s.token })).json).toEqual({ success: true });
});

test("pixels: the five types with id checks; scopes read:pixels and write:pixels", async () => {
  const ok = await s.t.request("POST", "/api/pixels", { token: s.token, body: { name: "Ads", type: "facebook", pixelId: "1234567890" } });
  expect(ok.status).toBe(201);
  expect(ok.json).toMatchObject({ name: "Ads", type: "facebook", pixelId: "1234567890" });
  const badType = await s.t.request("POST", "/api/pixels", { token: s.token, body: { name: "x", type: "myspace", pixelId: "1" } });
  expect(badType.status).toBe(400);
  const badId = await s.t.request("POST", "/api/pixels", { token: s.token, body: { name: "x", type: "google", pixelId: "</script>" } });
  expect(badId.status).toBe(400);
  expect(badId.json.details[0].field).toBe("pixelId");
  const ro = (await s.t.request("POST", "/api/tokens", { token: s.token, body: { name: "ro", scopes: ["read:pixels"] } })).json.token;
  expect((await s.t.request("GET", "/api/pixels", { token: ro })).json).toHaveLength(1);
  expect((await s.t.request("POST", "/api/pixels", { token: ro, body: { name: "y", type: "yandex", pixelId: "12345678" } })).status).toBe(
    403,
  );
  const links = (await s.t.request("POST", "/api/tokens", { token: s.token, body: { name: "l", scopes: ["read:links"] } })).json.token;
  expect((await s.t.request("GET", "/api/pixels", { token: links })).status).toBe(403);
  expect((await s.t.request("DELETE", `/api/pixels/${ok.json.id}`, { token: s.token })).json).toEqual({ success: true });
});

test("domains: hostname checked, one owner per hostname once verified, the service's own host refused", async () => {
  const d = await s.t.request("POST", "/api/domains", { token: s.token, body: { hostname: "Go.Brand.Example" } });
  expect(d.status).toBe(201);
  expect(d.json.hostname).toBe("go.brand.example");
  const bob = await s.t.emailUser();
  const verified = await addVerifiedDomain(s.t, bob.token, "go.bob.example");
  const taken = await s.t.request("POST", "/api/domains", { token: s.token, body: { hostname: "go.bob.example" } });
  expect([taken.status, taken.json.error]).toEqual([409, "domain_taken"]);
  expect(verified.verified).toBe(true);
  for (const hostname of ["https://x.example", "x.example/path", "localhost", "bad_host.example"])
    expect((await s.t.request("POST", "/api/domains", { token: s.token, body: { hostname } })).status).toBe(400);
  expect((await s.t.request("GET", "/api/domains", { token: s.token })).json).toEqual([d.json]);
  expect((await s.t.request("DELETE", `/api/domains/${d.json.id}`, { token: s.token })).json).toEqual({ success: true });
});

test("domains: international names are kept in their ASCII (punycode) form, which browsers send as Host", async () => {
  const typed = await s.t.request("POST", "/api/domains", { token: s.token, body: { hostname: "Go.Пример.рф" } });
  expect(typed.status).toBe(201);
  expect(typed.json.hostname).toBe("go.xn--e1afmkfd.xn--p1ai");
  const ascii = await s.t.request("POST", "/api/domains", { token: s.token, body: { hostname: "xn--80ak6aa92e.xn--p1ai" } });
  expect(ascii.status).toBe(201);
  expect((await s.t.request("POST", "/api/domains", { token: s.token, body: { hostname: "go.пример.рф" } })).status).toBe(409);
  const unverified = await s.t.request("POST", "/api/links", {
    token: s.token,
    body: { url: "https://ok.example/", domain_id: typed.json.id },
  });
  expect(unverified.json.details).toEqual([{ field: "domain_id", message: expect.stringContaining("not verified") }]);
  await s.t.deps.asyncDb
    .update(s.t.deps.asyncDb.tables.domains)
    .set({ verifiedAt: s.t.clock.now() })
    .where(eq(s.t.deps.asyncDb.tables.domains.id, typed.json.id));
  const l = await s.t.request("POST", "/api/links", { token: s.token, body: { url: "https://ok.example/", domain_id: typed.json.id } });
  expect(l.json.trackingUrl).toBe(`http://go.xn--e1afmkfd.xn--p1ai/${l.json.code}`);
  const visit = await s.t.request("GET", `/${l.json.code}`, {
    headers: { host: "go.xn--e1afmkfd.xn--p1ai", "user-agent": "Mozilla/5.0 (Windows NT 10.0) Chrome/124.0" },
  });
  expect(visit.status).toBe(302);
});
