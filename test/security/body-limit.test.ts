/**
 * Bodies over the 1 MB limit are refused promptly with the JSON error body, on every route, signed
 * in or not, with or without Content-Length, however large the declared length.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { rawRequest } from "../helpers/raw-http";

let t: TestApp;
let port: number;
let token: string;
beforeAll(async () => {
  t = createTestApp({ listen: true });
  port = t.app.server!.port!;
  token = (await t.telegramUser()).token;
});
afterAll(() => t.close());

const ROUTES: [string, string, boolean][] = [
  ["POST", "/api/tokens", true],
  ["POST", "/api/tokens", false],
  ["POST", "/api/links", false],
  ["PATCH", "/api/links/1", true],
  ["POST", "/api/auth/email/send-otp", false],
  ["POST", "/api/auth/refresh", false],
  ["POST", "/api/no-such-route", false],
  ["POST", "/somecode", false],
  ["POST", "/", false],
];
const TYPES = ["application/json", "text/plain", "application/x-www-form-urlencoded"];

function head(method: string, path: string, signedIn: boolean, type: string, extra: string) {
  return [
    `${method} ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    `Content-Type: ${type}`,
    ...(signedIn ? [`Authorization: Bearer ${token}`] : []),
    extra,
  ].join("\r\n");
}

function expectTooLarge(res: { status: number; headers: Record<string, string>; body: string; ms: number }) {
  expect(res.status).toBe(413);
  expect(res.headers["content-type"]).toContain("application/json");
  expect(JSON.parse(res.body)).toEqual({ error: "too_large", message: expect.stringContaining("larger than") });
  expect(res.ms).toBeLessThan(1000);
}

describe("bodies over 1 MB", () => {
  for (const [method, path, signedIn] of ROUTES)
    test(`${method} ${path} ${signedIn ? "signed in" : "signed out"}: a chunked body that keeps coming is 413 within 1 s`, async () => {
      for (const type of TYPES) {
        // 16 MB offered in 64 KB chunks: the answer must come long before the sender is done
        const chunk = (type === "application/json" ? '{"name":"' : "a=") + "x".repeat(64 * 1024);
        expectTooLarge(
          await rawRequest(port, head(method, path, signedIn, type, "Transfer-Encoding: chunked"), { chunk, times: 256, chunked: true }),
        );
      }
    });

  test("a huge declared Content-Length is 413 with the JSON body before any byte of it is read", async () => {
    for (const length of ["1048577", "99999999999", "9007199254740993", "100000000000000000"]) {
      for (const [method, path, signedIn] of ROUTES.slice(0, 5))
        expectTooLarge(
          await rawRequest(port, head(method, path, signedIn, "application/json", `Content-Length: ${length}`), {
            chunk: "{",
            times: 1,
            chunked: false,
          }),
        );
    }
  });

  test("the server keeps answering after refusing (no stuck connection or memory held)", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe("oversized headers", () => {
  test("headers over the limit are 431 with the JSON error body (signed in or not, any route)", async () => {
    for (const path of ["/api/tokens", "/api/auth/email/send-otp", "/app"]) {
      const res = await rawRequest(port, [`GET ${path} HTTP/1.1`, "Host: 127.0.0.1", `X-Padding: ${"a".repeat(13 * 1024)}`].join("\r\n"));
      expect([path, res.status]).toEqual([path, 431]);
      expect(JSON.parse(res.body)).toEqual({ error: "headers_too_large", message: expect.stringContaining("larger than") });
    }
    // ordinary headers pass
    expect(
      (await rawRequest(port, ["GET /healthz HTTP/1.1", "Host: 127.0.0.1", `X-Padding: ${"a".repeat(4 * 1024)}`].join("\r\n"))).status,
    ).toBe(200);
  });

  test("`bun start` raises Bun's own header limit, so headers Bun would refuse without a body get the JSON 431 too", async () => {
    const { spawnService, cleanEnv } = await import("../helpers/process");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "linkbot-431-"));
    const svc = spawnService(["run", "start"], cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1" }));
    try {
      const [, started] = await svc.waitForOutput(/listening on 127\.0\.0\.1:(\d+)/);
      const res = await rawRequest(
        Number(started),
        ["GET /api/links HTTP/1.1", "Host: 127.0.0.1", `X-Padding: ${"a".repeat(40 * 1024)}`].join("\r\n"),
      );
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body).error).toBe("headers_too_large");
    } finally {
      svc.proc.kill("SIGTERM");
      await svc.exit();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
