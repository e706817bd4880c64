import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { SmtpSink } from "../../helpers/smtp-sink";
import { SoftAuthenticator } from "../../helpers/soft-authenticator";

let sink: SmtpSink;
let t: TestApp;
let server: ReturnType<TestApp["app"]["listen"]>;
let base: string;
beforeAll(async () => {
  sink = await new SmtpSink().start();
  t = createTestApp({ env: { SMTP_URL: sink.url, BASE_URL: "http://localhost:3999" } });
  server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${server.server!.port}`;
});
afterAll(async () => {
  await server.stop();
  t.close();
  await sink.stop();
});

async function call(method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as any };
}

test("over real HTTP: email code sign-in, passkey registration, passkey sign-in, refresh", async () => {
  expect((await call("POST", "/api/auth/email/send-otp", { email: "e2e@example.com" })).json).toEqual({ success: true });
  const signIn = await call("POST", "/api/auth/email/verify-otp", {
    email: "e2e@example.com",
    code: await sink.codeFor("e2e@example.com"),
  });
  expect(signIn.status).toBe(200);
  const token = signIn.json.access_token;

  const device = new SoftAuthenticator("http://localhost:3999");
  const regOptions = await call("POST", "/api/auth/passkey/register/options", undefined, token);
  expect((await call("POST", "/api/auth/passkey/register/verify", device.register(regOptions.json), token)).status).toBe(201);
  const loginOptions = await call("POST", "/api/auth/passkey/login/options", { email: "e2e@example.com" });
  const passkeyLogin = await call("POST", "/api/auth/passkey/login/verify", device.assert(loginOptions.json));
  expect(passkeyLogin.status).toBe(200);
  expect(passkeyLogin.json.user.id).toBe(signIn.json.user.id);

  const refreshed = await call("POST", "/api/auth/refresh", { refresh_token: passkeyLogin.json.refresh_token });
  expect(refreshed.status).toBe(200);
  const me = await call("GET", "/api/auth/me", undefined, refreshed.json.access_token);
  expect(me.json).toMatchObject({ user: { email: "e2e@example.com" }, subscription: { plan: "free", expiresAt: null } });
  expect(me.json.identities).toHaveLength(2);
});
