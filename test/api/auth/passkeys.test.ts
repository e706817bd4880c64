import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { SoftAuthenticator } from "../../helpers/soft-authenticator";

const BASE = "http://localhost:3999";
let t: TestApp;
let device: SoftAuthenticator;
beforeEach(() => {
  t = createTestApp({ env: { BASE_URL: BASE } });
  device = new SoftAuthenticator(BASE);
});
afterEach(() => t.close());

async function registerPasskey(token: string, auth = device, name?: string) {
  const options = await t.request("POST", "/api/auth/passkey/register/options", { token });
  expect(options.status).toBe(200);
  const response = auth.register(options.json);
  return t.request("POST", "/api/auth/passkey/register/verify", { token, body: { ...response, name } });
}
async function loginOptions(email?: string) {
  const res = await t.request("POST", "/api/auth/passkey/login/options", { body: email ? { email } : {} });
  expect(res.status).toBe(200);
  return res.json;
}
const loginVerify = (body: unknown) => t.request("POST", "/api/auth/passkey/login/verify", { body });

describe("passkeys", () => {
  test("registration and login round trip with a software authenticator", async () => {
    const { user, token } = await t.emailUser("pk@example.com");
    const options = await t.request("POST", "/api/auth/passkey/register/options", { token });
    expect(options.json).toMatchObject({ rp: { id: "localhost", name: "Linkbot" }, user: { name: "pk@example.com" }, attestation: "none" });
    expect(options.json.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const reg = await t.request("POST", "/api/auth/passkey/register/verify", {
      token,
      body: { ...device.register(options.json), name: "Laptop" },
    });
    expect(reg.status).toBe(201);
    expect(reg.json).toMatchObject({ name: "Laptop", transports: ["internal"], lastUsedAt: null, createdAt: t.clock.now().toISOString() });
    const list = await t.request("GET", "/api/auth/passkey/list", { token });
    expect(list.json).toEqual([reg.json]);

    const opts = await loginOptions("PK@example.com");
    expect(opts.rpId).toBe("localhost");
    expect(opts.allowCredentials).toBeUndefined(); // discoverable: the email's credential ids are never listed
    t.clock.advance(60_000);
    const login = await loginVerify(device.assert(opts));
    expect(login.status).toBe(200);
    expect(Object.keys(login.json).sort()).toEqual(["access_token", "refresh_token", "subscription", "user"]);
    expect(login.json.user).toMatchObject({ id: user.id, email: "pk@example.com" });
    const me = await t.request("GET", "/api/auth/me", { token: login.json.access_token });
    expect(me.json.identities.map((i: { provider: string }) => i.provider)).toEqual(["email", "passkey"]);
    expect((await t.request("GET", "/api/auth/passkey/list", { token })).json[0].lastUsedAt).toBe(t.clock.now().toISOString());

    // discoverable flow: no email, the credential identifies the user
    const anyOpts = await loginOptions();
    expect(anyOpts.allowCredentials).toBeUndefined();
    expect((await loginVerify(device.assert(anyOpts))).json.user.id).toBe(user.id);
  });

  test("challenges are single-use, expire after 5 minutes and must be ones we issued", async () => {
    const { token } = await t.emailUser("c@example.com");
    const options = await t.request("POST", "/api/auth/passkey/register/options", { token });
    const forged = device.register(options.json, { challenge: Buffer.from("not-ours").toString("base64url") });
    const r1 = await t.request("POST", "/api/auth/passkey/register/verify", { token, body: forged });
    expect([r1.status, r1.json.error]).toEqual([400, "invalid_challenge"]);
    device.credentials.length = 0; // the refused credential was never stored
    const other = await t.emailUser("intruder@example.com");
    const forOtherUser = await t.request("POST", "/api/auth/passkey/register/options", { token });
    const hijack = await t.request("POST", "/api/auth/passkey/register/verify", {
      token: other.token,
      body: new SoftAuthenticator(BASE).register(forOtherUser.json),
    });
    expect([hijack.status, hijack.json.error]).toEqual([400, "invalid_challenge"]);
    const ok = device.register(options.json);
    expect((await t.request("POST", "/api/auth/passkey/register/verify", { token, body: ok })).status).toBe(201);
    const replay = await t.request("POST", "/api/auth/passkey/register/verify", { token, body: device.register(options.json) });
    expect(replay.json.error).toBe("invalid_challenge");

    const opts = await loginOptions("c@example.com");
    const wrong = await loginVerify(device.assert(opts, { challenge: Buffer.from("made-up").toString("base64url") }));
    expect([wrong.status, wrong.json.error]).toEqual([401, "invalid_challenge"]);
    const assertion = device.assert(opts);
    expect((await loginVerify(assertion)).status).toBe(200);
    expect((await loginVerify(assertion)).json.error).toBe("invalid_challenge");

    const late = await loginOptions("c@example.com");
    t.clock.advance(5 * 60_000 + 1);
    expect((await loginVerify(device.assert(late))).json.error).toBe("invalid_challenge");
  });

  test("unknown credentials, a counter that does not advance, a foreign origin and a bad signature are refused", async () => {
    const { token } = await t.emailUser("d@example.com");
    expect((await registerPasskey(token)).status).toBe(201);
    const stranger = new SoftAuthenticator(BASE);
    await registerPasskey((await t.emailUser("other@example.com")).token, stranger);
    const unknownDevice = new SoftAuthenticator(BASE);
    unknownDevice.register({ challenge: "x", rp: {}, user: { id: "x" } });
    const unknown = await loginVerify(unknownDevice.assert(await loginOptions()));
    expect([unknown.status, unknown.json.error]).toEqual([401, "unknown_passkey"]);

    expect((await loginVerify(device.assert(await loginOptions(), { counter: 5 }))).status).toBe(200);
    const cloned = await loginVerify(device.assert(await loginOptions(), { counter: 5 }));
    expect([cloned.status, cloned.json.error]).toEqual([401, "passkey_invalid"]);
    expect(cloned.json.message).toContain("counter");
    expect((await loginVerify(device.assert(await loginOptions(), { counter: 3 }))).status).toBe(401);
    expect((await loginVerify(device.assert(await loginOptions(), { counter: 6 }))).status).toBe(200);

    const phishing = await loginVerify(device.assert(await loginOptions(), { origin: "https://evil.example" }));
    expect([phishing.status, phishing.json.error]).toEqual([401, "passkey_invalid"]);
    const assertion = device.assert(await loginOptions());
    const sig = Buffer.from(assertion.response.signature, "base64url");
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 1, sig.length - 1);
    const bad = await loginVerify({ ...assertion, response: { ...assertion.response, signature: sig.toString("base64url") } });
    expect(bad.status).toBe(401);

    // a challenge issued for one email cannot sign in another user's passkey
    const forOther = await loginOptions("other@example.com");
    expect((await loginVerify(device.assert(forOther))).json.error).toBe("unknown_passkey");
  });

  test("a passkey sign-in without user verification (a touch, no PIN or biometric) is refused; options ask for it", async () => {
    const { token } = await t.emailUser("uv@example.com");
    expect((await registerPasskey(token)).status).toBe(201);
    const opts = await loginOptions();
    expect(opts.userVerification).toBe("required");
    const touched = await loginVerify(device.assert(opts, { userVerified: false }));
    expect([touched.status, touched.json.error]).toEqual([401, "passkey_invalid"]);
    expect((await loginVerify(device.assert(await loginOptions()))).status).toBe(200);
  });

  test("delete removes only your own passkey; routes need a session", async () => {
    const a = await t.emailUser("a@example.com");
    const b = await t.emailUser("b@example.com");
    const reg = await registerPasskey(a.token);
    expect((await t.request("DELETE", `/api/auth/passkey/${reg.json.id}`, { token: b.token })).status).toBe(404);
    expect((await t.request("DELETE", `/api/auth/passkey/${reg.json.id}`, { token: a.token })).json).toEqual({ success: true });
    expect((await t.request("GET", "/api/auth/passkey/list", { token: a.token })).json).toEqual([]);
    expect((await loginVerify(device.assert(await loginOptions()))).json.error).toBe("unknown_passkey");
    expect((await t.request("POST", "/api/auth/passkey/register/options")).status).toBe(401);
    expect((await t.request("GET", "/api/auth/passkey/list")).status).toBe(401);
    const malformed = await loginVerify({ id: "x" });
    expect(malformed.status).toBe(400);
  });
});

test("a team workspace's * token cannot reach its maker's own account: no passkey, settings, identities or teams through it", async () => {
  const { token } = await t.telegramUser(1, "owner");
  await t.request("POST", "/api/links", { token, body: { url: "https://private.example/secret" } });
  const team = (await t.request("POST", "/api/workspaces", { token, body: { name: "Acme" } })).json.id as number;
  const made = await t.request("POST", "/api/tokens", { token, headers: { "x-workspace": String(team) }, body: { name: "ci" } });
  expect(made.status).toBe(201);
  const teamToken = made.json.token as string;
  // inside its workspace it works
  expect((await t.request("GET", "/api/links", { token: teamToken })).status).toBe(200);
  expect((await t.request("GET", "/api/tokens", { token: teamToken })).status).toBe(200);
  // the person's own account is out of its reach
  const refused = [
    ["POST", "/api/auth/passkey/register/options"],
    ["GET", "/api/auth/passkey/list"],
    ["GET", "/api/auth/me"],
    ["POST", "/api/auth/email/send-link-otp", { email: "thief@example.com" }],
    ["PATCH", "/api/settings", { language: "ru" }],
    ["POST", "/api/workspaces", { name: "Elsewhere" }],
    ["GET", "/api/workspaces"],
  ] as const;
  for (const [method, path, body] of refused) {
    const res = await t.request(method, path, { token: teamToken, ...(body ? { body } : {}) });
    expect({ path, status: res.status, error: res.json?.error }).toEqual({ path, status: 403, error: "insufficient_scope" });
  }
  expect((await t.request("GET", "/api/auth/passkey/list", { token })).json).toEqual([]);
  // the personal workspace's own * token keeps them
  const own = (await t.request("POST", "/api/tokens", { token, body: { name: "mine" } })).json.token as string;
  expect((await registerPasskey(own)).status).toBe(201);
});
