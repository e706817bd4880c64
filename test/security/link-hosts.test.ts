/**
 * Default links answered on any bare IP address, so a link whose target is the server's own public
 * address looped through the service. They now answer on SHORT_URL's and BASE_URL's hosts (an
 * address when one of them is one) and on loopback (this machine's checks and tests) only; any
 * other address gets the 404 page.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { rawRequest } from "../helpers/raw-http";

let t: TestApp | undefined;
afterEach(() => t?.close());

async function linkOn(env: Record<string, string> = {}) {
  t = createTestApp({ listen: true, env });
  const { token } = await t.telegramUser();
  const link = (await t.request("POST", "/api/links", { token, body: { url: "https://target.example/" } })).json;
  const port = t.app.server!.port!;
  return async (host: string, method = "GET") => {
    const res = await rawRequest(port, [`${method} /${link.code} HTTP/1.1`, `Host: ${host}`, "Connection: close"].join("\r\n"));
    return { status: res.status, location: res.headers.location, type: res.headers["content-type"] };
  };
}

describe("a default link", () => {
  test("answers on the service's hosts and on loopback", async () => {
    const visit = await linkOn();
    const port = t!.app.server!.port!;
    for (const host of [`127.0.0.1:${port}`, "127.0.0.1", "localhost", `localhost:${port}`, "[::1]", `[::1]:${port}`, "127.1.2.3"])
      expect([host, await visit(host)]).toEqual([host, { status: 302, location: "https://target.example/", type: undefined }]);
  });

  test("answers the 404 page on any other address, the server's public one included, also for HEAD", async () => {
    const visit = await linkOn();
    for (const host of [
      "203.0.113.7",
      "203.0.113.7:443",
      "10.0.0.5",
      "192.168.1.10:3000",
      "[2001:db8::1]",
      "[2001:db8::1]:8080",
      "3405803783",
    ])
      for (const method of ["GET", "HEAD"]) {
        const res = await visit(host, method);
        expect([host, method, res.status, res.type]).toEqual([host, method, 404, "text/html; charset=utf-8"]);
      }
  });

  test("answers on an address when SHORT_URL is that address, and on no other", async () => {
    const visit = await linkOn({ SHORT_URL: "http://203.0.113.7" });
    expect((await visit("203.0.113.7")).status).toBe(302);
    expect((await visit("203.0.113.7:80")).status).toBe(302);
    expect((await visit("198.51.100.1")).status).toBe(404);
  });
});
