import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { SmtpSink } from "../../helpers/smtp-sink";

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => (sink = await new SmtpSink().start()));
afterAll(() => sink.stop());
beforeEach(() => (t = createTestApp({ env: { SMTP_URL: sink.url, MAIL_FROM: "codes@linkbot.test" } })));
afterEach(() => t.close());

let seq = 0;
const freshEmail = () => `user${++seq}-${Date.now()}@example.com`;
const send = (email: string) => t.request("POST", "/api/auth/email/send-otp", { body: { email } });
const verify = (email: string, code: string) => t.request("POST", "/api/auth/email/verify-otp", { body: { email, code } });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("email one-time codes", () => {
  test("a code mailed over SMTP signs in and creates the account once", async () => {
    const email = freshEmail();
    const sent = await send(email.toUpperCase());
    expect(sent.status).toBe(200);
    expect(sent.json).toEqual({ success: true });
    const code = await sink.codeFor(email);
    const mail = sink.to(email)[0]!;
    expect(mail.from).toBe("codes@linkbot.test");
    expect(mail.subject).toBe(`Your sign-in code: ${code}`);
    expect(mail.text).toContain("valid for 10 minutes");

    const res = await verify(email, code);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["access_token", "refresh_token", "subscription", "user"]);
    expect(res.json.user).toMatchObject({ email, msgrId: null });
    expect(res.json.subscription).toEqual({ plan: "free", expiresAt: null });
    const me = await t.request("GET", "/api/auth/me", { token: res.json.access_token });
    expect(me.json.identities.map((i: { provider: string; subject: string }) => [i.provider, i.subject])).toEqual([["email", email]]);

    // used codes are gone; the throttle is cleared by the successful sign-in
    expect((await verify(email, code)).json.error).toBe("invalid_code");
    expect((await send(email)).status).toBe(200);
    const again = await verify(email, await sink.codeFor(email, 2));
    expect(again.json.user.id).toBe(res.json.user.id);
  });

  test("codes are stored hashed", async () => {
    const email = freshEmail();
    await send(email);
    const code = await sink.codeFor(email);
    const rows = await t.deps.asyncDb
      .select({ code_hash: t.deps.asyncDb.tables.emailCodes.codeHash })
      .from(t.deps.asyncDb.tables.emailCodes);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code_hash).not.toContain(code);
    expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("five wrong tries kill the code, even for the right one afterwards", async () => {
    const email = freshEmail();
    await send(email);
    const code = await sink.codeFor(email);
    const msgs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await verify(email, wrong(code));
      expect(r.status).toBe(400);
      msgs.push(`${r.json.error}: ${r.json.message}`);
    }
    expect(msgs[0]).toBe("invalid_code: Wrong code; 4 attempts left");
    expect(msgs[3]).toBe("invalid_code: Wrong code; 1 attempt left");
    expect(msgs[4]).toStartWith("too_many_attempts");
    const right = await verify(email, code);
    expect([right.status, right.json.error]).toEqual([400, "too_many_attempts"]);
    const badFormat = await verify(email, "12ab");
    expect([badFormat.status, badFormat.json.details[0].field]).toEqual([400, "code"]);
  });

  test("codes expire after 10 minutes", async () => {
    const email = freshEmail();
    await send(email);
    const code = await sink.codeFor(email);
    t.clock.advance(10 * 60_000 + 1);
    const r = await verify(email, code);
    expect([r.status, r.json.error]).toEqual([400, "code_expired"]);
  });

  test("resending is throttled to one code per 30 s per email, and a new code replaces the old", async () => {
    const email = freshEmail();
    await send(email);
    await sink.codeFor(email);
    t.clock.advance(10_000);
    const throttled = await send(email);
    expect(throttled.status).toBe(429);
    expect(throttled.json.error).toBe("rate_limited");
    expect(throttled.headers.get("retry-after")).toBe("20");
    expect(sink.to(email)).toHaveLength(1);
    expect((await send(freshEmail())).status).toBe(200); // other addresses are not affected
    t.clock.advance(20_000);
    expect((await send(email)).status).toBe(200);
    const second = await sink.codeFor(email, 2);
    const pending = {
      n: (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.emailCodes).where(eq(t.deps.asyncDb.tables.emailCodes.email, email)))
        .length,
    };
    expect(pending.n).toBe(1); // the first code was replaced
    expect((await verify(email, second)).status).toBe(200);
  });

  test("parallel verifications of one code: exactly one session", async () => {
    const email = freshEmail();
    await send(email);
    const code = await sink.codeFor(email);
    const results = await Promise.all(Array.from({ length: 8 }, () => verify(email, code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400).every((r) => r.json.error === "invalid_code")).toBe(true);
    const sessions = { n: (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.refreshTokens)).length };
    expect(sessions.n).toBe(1);
  });

  test("bad addresses are 400; without SMTP_URL the code is written to the log", async () => {
    const bad = await send("not-an-email");
    expect([bad.status, bad.json.details[0].field]).toEqual([400, "email"]);
    const local = createTestApp();
    try {
      expect((await local.request("POST", "/api/auth/email/send-otp", { body: { email: "dev@example.com" } })).status).toBe(200);
      const line = local.logs.find((l) => l.includes("mail to dev@example.com"));
      expect(line).toMatch(/Your sign-in code is \d{6}\./);
    } finally {
      local.close();
    }
  });

  test("an unreachable SMTP server is a 502 and does not hold the throttle", async () => {
    const down = createTestApp({ env: { SMTP_URL: "smtp://127.0.0.1:1" } });
    try {
      const r = await down.request("POST", "/api/auth/email/send-otp", { body: { email: "x@example.com" } });
      expect([r.status, r.json.error]).toEqual([502, "mail_failed"]);
      const again = await down.request("POST", "/api/auth/email/send-otp", { body: { email: "x@example.com" } });
      expect(again.status).toBe(502);
    } finally {
      down.close();
    }
  });
});
