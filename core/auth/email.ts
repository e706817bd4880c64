import type { Deps } from "../deps";
import { upsertEmailUser } from "../accounts/users";
import { assertOwnEmailFree, linkEmail, type LinkResult } from "../accounts/linking";
import { consumeEmailCode, normalizeEmail, sendEmailCode } from "./email-codes";
import { issueSession, type Session } from "./sessions";

type MailDeps = Pick<Deps, "asyncDb" | "config" | "clock" | "mailer">;

/** POST /api/auth/email/send-otp: mails a sign-in code. */
export async function sendLoginCode(deps: MailDeps, rawEmail: string): Promise<void> {
  await sendEmailCode(deps, normalizeEmail(rawEmail), "login", null);
}

/** POST /api/auth/email/verify-otp: consumes the code, creates the account on first sign-in, starts a session. */
export async function verifyLoginCode(deps: Pick<Deps, "asyncDb" | "config" | "clock">, rawEmail: string, code: string): Promise<Session> {
  const email = normalizeEmail(rawEmail);
  await consumeEmailCode(deps, { email, code, purpose: "login", userId: null });
  return issueSession(deps, await upsertEmailUser(deps, email));
}

/** POST /api/auth/email/send-link-otp: checks the link rules first, then mails a confirmation code. */
export async function sendLinkCode(deps: MailDeps, userId: number, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  // the same answer whether or not the email has an account, and whatever that account holds
  await assertOwnEmailFree(deps, userId, email);
  await sendEmailCode(deps, email, "link", userId);
}

/**
 * POST /api/auth/email/verify-link-otp: consumes the code and links the email, merging when it has an
 * account. The code is checked before anything about the email's account: a wrong code is the same
 * 400 whether or not that account belongs to another Telegram identity, so guessing tells nothing.
 */
export async function verifyLinkCode(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  rawEmail: string,
  code: string,
): Promise<LinkResult> {
  const email = normalizeEmail(rawEmail);
  await assertOwnEmailFree(deps, userId, email);
  await consumeEmailCode(deps, { email, code, purpose: "link", userId });
  // linkEmail checks whether the email's account may merge, inside its transaction
  return linkEmail(deps, userId, email);
}
