import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(() => (t = createTestApp()));
afterAll(() => t.close());

// CONTRACT §3: validation errors name the field. Numbers converted from query and path text are
// checked by Elysia one by one and came back named "body".
test("an out-of-range number in the query or the path is a 400 that names that parameter", async () => {
  const { token } = await t.telegramUser(42, "alice");
  const tracker = (await t.request("POST", "/api/tracking", { token, body: { name: "T", keyword: "k" } })).json;
  const cases: [string, string][] = [
    [`/api/tracking/${tracker.id}/matches?limit=500`, "limit"],
    [`/api/tracking/${tracker.id}/matches?offset=-1`, "offset"],
    [`/api/tracking/${tracker.id}/matches?limit=7&offset=-3`, "offset"],
    ["/api/webhooks/deliveries?limit=101", "limit"],
    ["/api/tracking/0", "id"],
    ["/api/secure/files?folderId=0", "folderId"],
  ];
  for (const [path, field] of cases) {
    const res = await t.request("GET", path, { token });
    expect({ path, status: res.status, error: res.json.error }).toEqual({ path, status: 400, error: "validation_error" });
    expect({ path, fields: res.json.details.map((d: { field: string }) => d.field) }).toEqual({ path, fields: [field] });
    expect(res.json.message).toStartWith(`Invalid request: ${field} `);
  }
  // in range still works
  expect((await t.request("GET", `/api/tracking/${tracker.id}/matches?limit=100&offset=0`, { token })).json).toEqual({
    items: [],
    total: 0,
  });
});

// "Bad input always gets a clear error": a union ("a number or null") used to answer "should be one
// of: 'number', 'null'" even for a number that only broke a bound, and "'undefined', 'null'" for an optional one.
test("a value of the right type that breaks a bound of an optional or nullable field says which bound", async () => {
  const { token } = await t.telegramUser(42, "alice");
  const cases: [string, string, unknown, string, string][] = [
    ["POST", "/api/links", { url: "https://a.example", max_clicks: 0 }, "max_clicks", "must be a positive whole number"], // the links model names the rule itself,
    ["POST", "/api/links", { url: "https://a.example", title: "x".repeat(5000) }, "title", "must be at most 200 characters"], // the limit core checks, in its words,
    [
      "POST",
      "/api/secure/links",
      { fileId: 1, expiresInHours: 1, maxViews: 0 },
      "maxViews",
      "Expected integer to be greater or equal to 1",
    ],
    // path ids are integers (the OpenAPI document says so): a word is refused as "not a whole number"
    ["DELETE", "/api/auth/passkey/abc", undefined, "id", "must be a whole number"],
  ];
  for (const [method, path, body, field, message] of cases) {
    const res = await t.request(method, path, { token, body });
    expect({ path, status: res.status, details: res.json.details }).toEqual({ path, status: 400, details: [{ field, message }] });
  }
  // a value of no alternative's type still names the alternatives
  const wrongType = await t.request("POST", "/api/links", { token, body: { url: "https://a.example", max_clicks: "many" } });
  expect(wrongType.json.details).toEqual([{ field: "max_clicks", message: "Property 'max_clicks' should be one of: 'number', 'null'" }]);
});
