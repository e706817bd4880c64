/** Passkey sign-in options reveal nothing about an email: the same shape whether it has an account, passkeys, or neither. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { SoftAuthenticator } from "../helpers/soft-authenticator";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

/** The options with the values that differ on every call (challenge) blanked. */
async function optionsFor(email: string) {
  const res = await t.request("POST", "/api/auth/passkey/login/options", { body: { email } });
  expect(res.status).toBe(200);
  expect(res.json.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  return { ...res.json, challenge: "…" };
}

describe("passkey login options", () => {
  test("identical for an email with passkeys, one without, and one with no account; no allowCredentials", async () => {
    const { token } = await t.emailUser("has-passkey@example.com");
    const device = new SoftAuthenticator("http://localhost:3999");
    const reg = await t.request("POST", "/api/auth/passkey/register/options", { token });
    expect(reg.json.authenticatorSelection).toMatchObject({ residentKey: "required", requireResidentKey: true });
    expect((await t.request("POST", "/api/auth/passkey/register/verify", { token, body: device.register(reg.json) })).status).toBe(201);
    await t.emailUser("no-passkey@example.com");

    const withPasskey = await optionsFor("has-passkey@example.com");
    expect(withPasskey).not.toHaveProperty("allowCredentials");
    expect(await optionsFor("no-passkey@example.com")).toEqual(withPasskey);
    expect(await optionsFor("nobody@example.com")).toEqual(withPasskey);

    // the discoverable passkey still signs its owner in through options asked with the email
    const opts = await t.request("POST", "/api/auth/passkey/login/options", { body: { email: "has-passkey@example.com" } });
    const login = await t.request("POST", "/api/auth/passkey/login/verify", { body: device.assert(opts.json) });
    expect(login.status).toBe(200);
    expect(login.json.user.email).toBe("has-passkey@example.com");
  });
});
