/**
 * Fixed paths that share a prefix with a `/:id` route (`/api/links/bulk` beside `/api/links/:id`)
 * were handed to the `/:id` route for its methods: `GET /api/links/bulk` was a 400 about the id, and
 * a 405's `Allow` listed the `/:id` methods. Each fixed path now takes only its own methods.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = createTestApp();
  token = (await t.telegramUser()).token;
});
afterAll(() => t.close());

const CASES: [method: string, path: string, allow: string][] = [
  ["GET", "/api/links/bulk", "POST"],
  ["PATCH", "/api/links/bulk", "POST"],
  ["DELETE", "/api/links/bulk/", "POST"],
  ["GET", "/api/links/send-summary", "POST"],
  ["DELETE", "/api/links/send-summary", "POST"],
  ["PATCH", "/api/tracking/filters", "GET, HEAD"],
  ["DELETE", "/api/tracking/filters", "GET, HEAD"],
  ["PATCH", "/api/tracking/limits", "GET, HEAD"],
  ["DELETE", "/api/tracking/limits", "GET, HEAD"],
  ["DELETE", "/api/auth/passkey/list", "GET, HEAD"],
  ["PUT", "/api/auth/passkey/list", "GET, HEAD"],
];

test("a fixed path asked with another method is 405 whose Allow lists that path's own methods", async () => {
  for (const [method, path, allow] of CASES) {
    const res = await t.request(method, path, { token, ...(method === "PATCH" ? { body: {} } : {}) });
    expect([method, path, res.status, res.headers.get("allow")]).toEqual([method, path, 405, allow]);
    expect(res.json).toEqual({ error: "method_not_allowed", message: `${method} is not allowed on ${path}; use ${allow}` });
  }
});

test("signed out it is the same 405 (the method is wrong whoever asks)", async () => {
  const res = await t.request("GET", "/api/links/bulk");
  expect([res.status, res.headers.get("allow")]).toEqual([405, "POST"]);
});

test("the fixed paths and the /:id routes still answer their own methods", async () => {
  const bulk = await t.request("POST", "/api/links/bulk", { token, body: { urls: ["https://a.example/"] } });
  expect(bulk.status).toBe(201);
  const id = bulk.json.results[0].id;
  expect((await t.request("GET", `/api/links/${id}`, { token })).status).toBe(200);
  expect((await t.request("GET", "/api/tracking/filters", { token })).status).toBe(200);
  expect((await t.request("GET", "/api/tracking/limits", { token })).status).toBe(200);
  expect((await t.request("GET", "/api/auth/passkey/list", { token })).status).toBe(200);
  const put = await t.request("PUT", `/api/links/${id}`, { token, body: {} });
  expect([put.status, put.headers.get("allow")!.split(", ").sort()]).toEqual([405, ["DELETE", "GET", "HEAD", "PATCH"]]);
});
