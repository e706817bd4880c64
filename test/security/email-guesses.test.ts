/** Email codes: at most 10 wrong guesses per address per hour, whichever codes they were aimed at. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { SmtpSink } from "../helpers/smtp-sink";

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => (sink = await new SmtpSink().start()));
afterAll(() => sink.stop());
beforeEach(() => (t = createTestApp({ env: { SMTP_URL: sink.url } })));
afterEach(() => t.close());

let seq = 0;
const freshEmail = () => `guess${++seq}-${Date.now()}@example.com`;
const send = (email: string) => t.request("POST", "/api/auth/email/send-otp", { body: { email } });
const verify = (email: string, code: string) => t.request("POST", "/api/auth/email/verify-otp", { body: { email, code } });
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

/** Asks for a new code (after the 30 s resend wait) and returns it. */
async function newCode(email: string) {
  t.clock.advance(31_000);
  const before = sink.to(email).length;
  expect((await send(email)).status).toBe(200);
  const deadline = Date.now() + 5000;
  while (sink.to(email).length === before && Date.now() < deadline) await Bun.sleep(5);
  return /(\d{6})/.exec(sink.to(email).at(-1)!.text)![1]!;
}

describe("the hourly guess budget of an address", () => {
  test("11 wrong guesses spread over new codes: the 11th is 429, even the right code waits for the hour", async () => {
    const email = freshEmail();
    let guesses = 0;
    const started = t.clock.now().getTime();
    for (const perCode of [4, 4, 2]) {
      const code = await newCode(email);
      for (let i = 0; i < perCode; i++) {
        const res = await verify(email, wrong(code));
        expect([res.status, res.json.error]).toEqual([400, "invalid_code"]);
        guesses++;
      }
    }
    expect(guesses).toBe(10);
    const code = await newCode(email);
    const refused = await verify(email, wrong(code));
    expect([refused.status, refused.json.error]).toEqual([429, "rate_limited"]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect((await verify(email, code)).status).toBe(429); // the right code too, until the hour has passed
    // another address is not affected
    const other = freshEmail();
    const otherCode = await newCode(other);
    expect((await verify(other, otherCode)).status).toBe(200);

    // an hour after the first wrong guess one guess is free again: the code (still valid: asked 10 min ago at most) works
    t.clock.set(started + 3600_000 + 31_000 + 1);
    const fresh = await newCode(email);
    expect((await verify(email, fresh)).status).toBe(200);
  });

  test("link codes and sign-in codes share the budget", async () => {
    const email = freshEmail();
    const { token } = await t.telegramUser();
    for (let round = 0; round < 2; round++) {
      t.clock.advance(31_000);
      expect((await t.request("POST", "/api/auth/email/send-link-otp", { token, body: { email } })).status).toBe(200);
      for (let i = 0; i < 5; i++)
        expect((await t.request("POST", "/api/auth/email/verify-link-otp", { token, body: { email, code: "000000" } })).status).toBe(400);
    }
    const code = await newCode(email);
    expect((await verify(email, code)).status).toBe(429);
  });
});
