import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = createTestApp({ env: { PLAN_LIMITS: JSON.stringify({ free: { links: 4 } }) } });
  token = (await t.telegramUser()).token;
});
afterEach(() => t.close());

const bulk = (urls: unknown) => t.request("POST", "/api/links/bulk", { token, body: { urls } });

test("per-url errors for invalid urls and duplicates (in the request and of existing links)", async () => {
  await t.request("POST", "/api/links", { token, body: { url: "https://have.example/" } });
  const res = await bulk(["https://a.example/", "a.example", "https://a.example/", "https://have.example/", "ftp://x.example/"]);
  expect(res.status).toBe(201);
  expect(res.json.created).toBe(1);
  expect(res.json.errors).toBe(4);
  expect(res.json.results).toEqual([
    {
      url: "https://a.example/",
      trackingUrl: expect.stringMatching(new RegExp(`^${t.config.shortUrl}/[A-Za-z0-9]{8}$`)),
      code: expect.any(String),
      id: expect.any(Number),
    },
  ]);
  expect(res.json.failed.map((f: { url: string }) => f.url)).toEqual([
    "a.example",
    "https://a.example/",
    "https://have.example/",
    "ftp://x.example/",
  ]);
  expect(res.json.failed[0].error).toContain("invalid URL");
  expect(res.json.failed[1].error).toContain("earlier in this request");
  expect(res.json.failed[2].error).toContain("already have a link");
});

test("the same URL written otherwise is a duplicate: scheme and host case, a default port, a trailing slash; the path is not", async () => {
  await t.request("POST", "/api/links", { token, body: { url: "https://have.example/Path" } });
  const res = await bulk(["https://new.example", "HTTPS://NEW.example:443/", "https://HAVE.example/Path", "https://have.example/path"]);
  expect(res.json.results.map((r: { url: string }) => r.url)).toEqual(["https://new.example", "https://have.example/path"]);
  expect(res.json.failed).toEqual([
    { url: "HTTPS://NEW.example:443/", error: expect.stringContaining("earlier in this request") },
    { url: "https://HAVE.example/Path", error: expect.stringContaining("already have a link") },
  ]);
});

test("a URL with capitals outside ASCII (Привет) is found as a duplicate too, on either database", async () => {
  const url = "https://shop.example/Привет";
  expect((await t.request("POST", "/api/links", { token, body: { url } })).status).toBe(201);
  // written again, and with the host in capitals
  for (const again of [url, "https://SHOP.example/Привет"]) {
    const res = await bulk([again]);
    expect([res.json.created, res.json.failed]).toEqual([0, [{ url: again, error: "duplicate: you already have a link to this URL" }]]);
  }
});

test("the plan allows only part of the list: the first N are created, the rest fail", async () => {
  await t.request("POST", "/api/links", { token, body: { url: "https://have.example/" } });
  const urls = Array.from({ length: 6 }, (_, i) => `https://u${i}.example/`);
  const res = await bulk(["bad", ...urls]);
  expect(res.json.created).toBe(3);
  expect(res.json.results.map((r: { url: string }) => r.url)).toEqual(urls.slice(0, 3));
  expect(res.json.failed).toEqual([
    { url: "bad", error: expect.stringContaining("invalid URL") },
    ...urls.slice(3).map((url) => ({ url, error: expect.stringContaining("plan limit") })),
  ]);
  expect((await t.request("GET", "/api/links", { token })).json).toHaveLength(4);
  const none = await bulk(["https://more.example/"]);
  expect(none.status).toBe(200);
  expect(none.json.created).toBe(0);
});

test("1 to 100 urls, strings only", async () => {
  expect((await bulk([])).status).toBe(400);
  expect((await bulk(Array.from({ length: 101 }, (_, i) => `https://x${i}.example/`))).status).toBe(400);
  expect((await bulk("https://x.example/")).status).toBe(400);
  expect((await bulk([5])).status).toBe(400);
});

test("an over-long url is one failed entry, not a refusal of the whole list", async () => {
  const long = `https://long.example/${"a".repeat(5000)}`;
  const res = await bulk([long, "https://fine.example/"]);
  expect(res.status).toBe(201);
  expect(res.json.created).toBe(1);
  expect(res.json.failed).toEqual([{ url: long, error: "invalid URL: must be at most 2048 characters" }]);
});
