/** TRUST_PROXY: the visitor's address is counted from the right of X-Forwarded-For, so a client cannot choose it. */
import { afterEach, describe, expect, test } from "bun:test";
import { clientAddress, type Peer } from "../../api/shared/client-ip";
import { loadConfig, ConfigError } from "../../config";
import { createTestApp, type TestApp } from "../helpers/app";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const socket: Peer = { requestIP: () => ({ address: "192.0.2.50" }) };
const req = (xff?: string) => new Request("http://localhost/x", { headers: xff === undefined ? {} : { "x-forwarded-for": xff } });

describe("clientAddress", () => {
  test("TRUST_PROXY off: always the socket address", () => {
    expect(clientAddress(req("203.0.113.5"), socket, 0)).toBe("192.0.2.50");
  });

  test("one proxy: the last address (the one the proxy appended), whatever the client put before it", () => {
    expect(clientAddress(req("203.0.113.5"), socket, 1)).toBe("203.0.113.5");
    expect(clientAddress(req("6.6.6.6, 203.0.113.5"), socket, 1)).toBe("203.0.113.5");
    expect(clientAddress(req("1.1.1.1,2.2.2.2 , [2001:db8::7]:443"), socket, 1)).toBe("2001:db8::7");
  });

  test("N proxies: the Nth address from the right; entries that are not addresses are skipped", () => {
    expect(clientAddress(req("6.6.6.6, 203.0.113.5, 10.0.0.2"), socket, 2)).toBe("203.0.113.5");
    expect(clientAddress(req("6.6.6.6, 203.0.113.5, unknown, 10.0.0.3, 10.0.0.2"), socket, 3)).toBe("203.0.113.5");
    expect(clientAddress(req("203.0.113.5:5123, garbage, 10.0.0.2"), socket, 2)).toBe("203.0.113.5");
  });

  test("fewer addresses than proxies, or none: the socket address", () => {
    expect(clientAddress(req("203.0.113.5"), socket, 2)).toBe("192.0.2.50");
    expect(clientAddress(req("unknown"), socket, 1)).toBe("192.0.2.50");
    expect(clientAddress(req(), socket, 1)).toBe("192.0.2.50");
    expect(clientAddress(req(), null, 1)).toBeNull();
  });
});

describe("TRUST_PROXY configuration", () => {
  const dir = mkdtempSync(join(tmpdir(), "linkbot-proxy-"));
  const load = (v: string) => loadConfig({ DATA_DIR: dir, TRUST_PROXY: v }).trustProxy;
  test("true/1 is one proxy, false/0 none, a number N is N proxies; anything else stops the start naming the variable", () => {
    expect(load("true")).toBe(1);
    expect(load("1")).toBe(1);
    expect(load("false")).toBe(0);
    expect(load("0")).toBe(0);
    expect(load("3")).toBe(3);
    expect(loadConfig({ DATA_DIR: dir }).trustProxy).toBe(0);
    expect(() => load("maybe")).toThrow(ConfigError);
    expect(() => load("maybe")).toThrow(/^TRUST_PROXY: /);
    expect(() => load("99")).toThrow(/^TRUST_PROXY: /);
  });
});

describe("behind a proxy that appends (TRUST_PROXY=true)", () => {
  let t: TestApp;
  afterEach(() => t.close());

  test("a forged first X-Forwarded-For entry cannot buy a fresh sign-in allowance", async () => {
    t = createTestApp({ env: { TRUST_PROXY: "true", RATE_LIMIT_AUTH: "3" } });
    const from = (forged: string) => ({ body: {}, headers: { "x-forwarded-for": `${forged}, 203.0.113.5` } });
    for (let i = 0; i < 3; i++) expect((await t.request("POST", "/api/auth/refresh", from(`198.51.100.${i}`))).status).toBe(400);
    const refused = await t.request("POST", "/api/auth/refresh", from("198.51.100.99"));
    expect(refused.status).toBe(429);
    // another real client (another address appended by the proxy) has its own allowance
    expect(
      (await t.request("POST", "/api/auth/refresh", { body: {}, headers: { "x-forwarded-for": "198.51.100.99, 203.0.113.6" } })).status,
    ).toBe(400);
  });
});
