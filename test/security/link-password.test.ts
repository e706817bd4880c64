/** Link-password attempts are limited per link and visitor network: IPv4 by address, IPv6 by /64. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
let code: string;
beforeEach(async () => {
  t = createTestApp({ env: { TRUST_PROXY: "true" } });
  const { token } = await t.telegramUser();
  code = (await t.request("POST", "/api/links", { token, body: { url: "https://secret.example/", password: "right-pw" } })).json.code;
});
afterEach(() => t.close());

const post = (ip: string, password: string) =>
  t.request("POST", `/${code}`, {
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip },
    body: `password=${password}`,
  });

describe("link password lockout", () => {
  test("an IPv6 client rotating addresses inside its /64 is locked out as one visitor", async () => {
    for (let i = 1; i <= 5; i++) expect((await post(`2001:db8:1:2::${i}`, "wrong")).status).toBe(401);
    const locked = await post("2001:db8:1:2:ffff:ffff:ffff:fffe", "right-pw");
    expect(locked.status).toBe(429);
    expect(locked.text).toContain("Too many wrong passwords");
    // the next /64 is another visitor
    const other = await post("2001:db8:1:3::1", "right-pw");
    expect(other.status).toBe(302);
    expect(other.headers.get("location")).toBe("https://secret.example/");
  });

  test("IPv4 visitors are told apart by address", async () => {
    for (let i = 0; i < 5; i++) expect((await post("203.0.113.9", "wrong")).status).toBe(401);
    expect((await post("203.0.113.9", "right-pw")).status).toBe(429);
    expect((await post("::ffff:203.0.113.9", "right-pw")).status).toBe(429); // the same address, IPv4-mapped
    expect((await post("203.0.113.10", "right-pw")).status).toBe(302);
  });
});
