import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, rawSql, type TestApp } from "../helpers/app";
import { visitorSuite } from "./visitor-suite";
import { rawRequest } from "../helpers/raw-http";

visitorSuite("visitor flow on a listening server", { listen: true });

describe("the listening server's native /<code> route", () => {
  let inProcess: TestApp;
  let served: TestApp;
  beforeEach(() => {
    inProcess = createTestApp();
    served = createTestApp({ listen: true });
  });
  afterEach(() => {
    inProcess.close();
    served.close();
  });
  const comparable = (r: Awaited<ReturnType<TestApp["request"]>>) => ({
    status: r.status,
    type: r.headers.get("content-type"),
    cache: r.headers.get("cache-control"),
    rateLimited: r.headers.has("ratelimit-limit"),
    text: r.text,
  });

  test("answers every path exactly as the Elysia app does in-process", async () => {
    for (const [method, path] of [
      ["GET", "/api"],
      ["GET", "/API"],
      ["GET", "/healthz"],
      ["GET", "/"],
      ["GET", "/unknownCode"],
      ["GET", "/unknownCode/"],
      ["GET", "/%41bc"],
      ["GET", "/a.b"],
      ["GET", "/api/whatever"],
      ["GET", "/s/abc"],
      ["HEAD", "/api"],
      ["HEAD", "/unknownCode"],
      ["GET", "/docs"],
      ["POST", "/unknownCode"],
    ] as const) {
      const a = await inProcess.request(method, path, { headers: { "user-agent": "Mozilla/5.0 Chrome/124.0" } });
      const b = await served.request(method, path, { headers: { "user-agent": "Mozilla/5.0 Chrome/124.0" } });
      expect({ method, path, ...comparable(b) }).toEqual({ method, path, ...comparable(a) });
    }
    expect((await served.request("GET", "/api")).headers.get("ratelimit-limit")).toBe("100000"); // /api still meets the /api rate limit
  });

  test("a failure while answering gives the contract's 500 body and is logged", async () => {
    const { token } = await served.telegramUser();
    const link = (await served.request("POST", "/api/links", { token, body: { url: "https://ok.example/" } })).json;
    await rawSql(served.deps.asyncDb, "ALTER TABLE links RENAME TO links_moved"); // the link lookup now throws
    const res = await served.request("GET", `/${link.code}x`);
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ error: "internal_error", message: "Something went wrong on our side" });
    // the line names the request by the id its answer carries
    const id = res.headers.get("x-request-id");
    expect(id).toBeString();
    expect(served.logs.some((l) => l.includes(`unhandled error on GET /${link.code}x`) && l.includes(`[${id}]`))).toBe(true);
  });

  test("every answer carries its own request id: redirects, HEAD, pages", async () => {
    const { token } = await served.telegramUser();
    const link = (await served.request("POST", "/api/links", { token, body: { url: "https://ok.example/" } })).json;
    const answers = [
      await served.request("GET", `/${link.code}`),
      await served.request("GET", `/${link.code}`),
      await served.request("HEAD", `/${link.code}`),
      await served.request("GET", "/noSuchCode"),
    ];
    expect(answers.map((r) => r.status)).toEqual([302, 302, 302, 404]);
    const ids = answers.map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9-]{8,64}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(answers[0]!.headers.get("location")).toBe("https://ok.example/");
  });
});

describe("HTTP/1.0 requests without a Host header", () => {
  // HAProxy's default health check and some old clients send exactly this
  test("are answered like any other: health, API error body, 404 page", async () => {
    const served = createTestApp({ listen: true });
    try {
      const port = served.app.server!.port!;
      const health = await rawRequest(port, "GET /healthz HTTP/1.0");
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ ok: true });
      const api = await rawRequest(port, "GET /api/links HTTP/1.0");
      expect(api.status).toBe(401);
      expect(JSON.parse(api.body).error).toBeString();
      const missing = await rawRequest(port, "GET /api/nothing-here HTTP/1.0");
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body).message).toBe("No route for GET /api/nothing-here");
      const page = await rawRequest(port, "GET /noSuchCode HTTP/1.0");
      expect(page.status).toBe(404);
      expect(page.headers["content-type"]).toContain("text/html");
    } finally {
      served.close();
    }
  });
});
