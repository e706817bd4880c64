/**
 * /metrics without METRICS_TOKEN used to be served to any loopback request without X-Forwarded-For
 * or Forwarded, so a proxy that sets only X-Real-IP, or a TCP/TLS tunnel, published it. Now any
 * header a proxy adds, or a Host that is not a loopback name, means "from elsewhere": 403.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { rawRequest } from "../helpers/raw-http";

let t: TestApp;
let port: number;
beforeAll(() => {
  t = createTestApp({ listen: true });
  port = t.app.server!.port!;
});
afterAll(() => t.close());

const scrape = (headers: string[]) => rawRequest(port, ["GET /metrics HTTP/1.1", ...headers, "Connection: close"].join("\r\n"));

test("a direct scrape on a loopback host name is served", async () => {
  for (const host of ["127.0.0.1", `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
    const res = await scrape([`Host: ${host}`]);
    expect([host, res.status]).toEqual([host, 200]);
    expect(res.body).toContain("linkbot_http_requests_total");
  }
});

test("any header a proxy adds makes it remote: 403 in the JSON error model", async () => {
  for (const header of [
    "X-Real-IP: 203.0.113.9",
    "X-Forwarded-For: 203.0.113.9",
    "X-Forwarded-Host: stats.example",
    "X-Forwarded-Proto: https",
    "Forwarded: for=203.0.113.9",
    "Via: 1.1 proxy",
    "True-Client-IP: 203.0.113.9",
    "CF-Connecting-IP: 203.0.113.9",
  ]) {
    const res = await scrape([`Host: 127.0.0.1:${port}`, header]);
    expect([header, res.status]).toEqual([header, 403]);
    expect(JSON.parse(res.body)).toEqual({ error: "forbidden", message: expect.stringContaining("METRICS_TOKEN") });
  }
});

test("a tunnel that passes on the public host name (no proxy header at all) is refused too", async () => {
  for (const host of ["stats.example", "203.0.113.9", "203.0.113.9:443", "127.0.0.1.nip.io"]) {
    const res = await scrape([`Host: ${host}`]);
    expect([host, res.status]).toEqual([host, 403]);
  }
});
