/**
 * Everything under /api answers in the one JSON error model: `GET /api` and `/api/` (also what a
 * client makes of `/api/links/%2e%2e`) used to answer the HTML "Link not found" page, and a query
 * string over ~64 kB a 431 with an empty body.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";
import { rawRequest } from "../helpers/raw-http";
import { cleanEnv, spawnService } from "../helpers/process";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

function expectJson404(what: string, res: { status: number; headers: Headers | Record<string, string>; text?: string; body?: string }) {
  const type = res.headers instanceof Headers ? res.headers.get("content-type") : res.headers["content-type"];
  expect([what, res.status, type]).toEqual([what, 404, "application/json; charset=utf-8"]);
  const text = res.text ?? res.body ?? "";
  if (text) expect(JSON.parse(text)).toEqual({ error: "not_found", message: expect.stringMatching(/^No route for /) });
}

for (const listen of [false, true]) {
  describe(listen ? "on a listening server" : "in-process", () => {
    let t: TestApp;
    beforeAll(() => (t = createTestApp({ listen })));
    afterAll(() => t.close());

    test("/api and /api/ answer the JSON 404 for every method, never the short-link page", async () => {
      for (const path of ["/api", "/api/", "/api?x=1", "/api/links/%2e%2e", "/api/links/%2E%2E/", "/api/tracking/.."])
        for (const method of METHODS) {
          const res = await t.request(method, path, method === "POST" || method === "PATCH" ? { body: {} } : {});
          expectJson404(`${method} ${path}`, res);
          expect(res.text).not.toContain("<");
        }
    });
  });
}

describe("over a raw socket, the path as sent", () => {
  let t: TestApp;
  beforeAll(() => (t = createTestApp({ listen: true })));
  afterAll(() => t.close());

  test("dot segments, encoded or not, never reach the HTML page", async () => {
    const port = t.app.server!.port!;
    for (const path of ["/api", "/api/", "/api/links/%2e%2e", "/api/links/..", "/api/%2e%2e/api"]) {
      const res = await rawRequest(port, [`GET ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"].join("\r\n"));
      expect([path, res.headers["content-type"]]).toEqual([path, "application/json; charset=utf-8"]);
      expect(JSON.parse(res.body).error).toBeString();
    }
  });
});

describe("`bun start`", () => {
  test("a query string of 100 kB or 900 kB is a JSON 431, not Bun's empty one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "linkbot-431q-"));
    const svc = spawnService(["run", "start"], cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1" }));
    try {
      const [, started] = await svc.waitForOutput(/listening on 127\.0\.0\.1:(\d+)/);
      for (const size of [100_000, 900_000]) {
        const head = [`GET /api/links?search=${"a".repeat(size)} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"].join("\r\n");
        const res = await rawRequest(Number(started), head);
        expect([size, res.status, res.headers["content-type"]]).toEqual([size, 431, "application/json; charset=utf-8"]);
        expect(JSON.parse(res.body)).toEqual({ error: "headers_too_large", message: expect.stringContaining("larger than") });
      }
    } finally {
      svc.proc.kill("SIGTERM");
      await svc.exit();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
