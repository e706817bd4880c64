import { and, desc, eq, gt, isNull, lt, lte, or, sql } from "drizzle-orm";
import { createHmac, randomInt } from "node:crypto";
import type { Deps } from "../deps";
import { AppError, FieldError, RateLimited, Upstream } from "../errors";
import { safeEqual } from "../random";
import { serializeOn, transaction, type AsyncDb, type Tables } from "../../db/async";

/** One-time email codes: 6 digits, valid 10 minutes, 5 wrong tries, one send per 30 s per email. */
const CODE_TTL_MS = 10 * 60_000;
const MAX_WRONG_TRIES = 5;
const RESEND_INTERVAL_MS = 30_000;
/** Wrong guesses allowed per email address within any hour, across all its codes (sign-in and link). */
const MAX_WRONG_GUESSES = 10;
export const EMAIL_GUESS_WINDOW_MS = 3600_000;

export type CodePurpose = "login" | "link";

const EMAIL_RE = /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/;

/** Trims and lower-cases an email address; 400 when it does not look like one. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_RE.test(email)) throw new FieldError("email", "must be a valid email address");
  return email;
}

/** A wrong, expired or used-up code: 400, so a mini-app does not mistake it for an ended session. */
class CodeRejected extends AppError {
  constructor(code: "invalid_code" | "code_expired" | "too_many_attempts", message: string) {
    super(400, code, message);
  }
}

// keyed with the service secret: a leaked database does not give away codes by brute force
function hashCode(deps: Pick<Deps, "config">, email: string, purpose: CodePurpose, code: string): string {
  return createHmac("sha256", deps.config.jwtSecret).update(`${purpose}:${email}:${code}`).digest("hex");
}

/** Codes of one requester: sign-in codes have none, a link code belongs to the account that asked for it. */
function sameRequester(emailCodes: Tables["emailCodes"], userId: number | null) {
  return userId === null ? isNull(emailCodes.userId) : eq(emailCodes.userId, userId);
}

/**
 * Creates a code for `email` and mails it. At most one send per email every 30 s (429 with
 * Retry-After) unless the last code was used. A new code replaces the requester's earlier unused ones of the same purpose
 * (another account's pending link code for the same email stays valid).
 */
export async function sendEmailCode(
  deps: Pick<Deps, "asyncDb" | "config" | "clock" | "mailer">,
  email: string,
  purpose: CodePurpose,
  userId: number | null,
): Promise<void> {
  const now = deps.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const { emailCodes } = deps.asyncDb.tables;
  const id = await transaction(deps.asyncDb, async (tx) => {
    // one send per address at a time, on every node: the check below and the insert go together
    await serializeOn(tx, `email-code:${email}`);
    const [recent] = await tx
      .select({ createdAt: emailCodes.createdAt })
      .from(emailCodes)
      .where(
        and(
          eq(emailCodes.email, email),
          isNull(emailCodes.consumedAt),
          gt(emailCodes.createdAt, new Date(now.getTime() - RESEND_INTERVAL_MS)),
        ),
      )
      .orderBy(desc(emailCodes.createdAt))
      .limit(1);
    if (recent) {
      const wait = (recent.createdAt.getTime() + RESEND_INTERVAL_MS - now.getTime()) / 1000;
      throw new RateLimited(wait, `A code was just sent to ${email}; wait ${Math.ceil(wait)} s before asking for another`);
    }
    await tx
      .delete(emailCodes)
      .where(
        and(
          eq(emailCodes.email, email),
          or(
            and(eq(emailCodes.purpose, purpose), sameRequester(emailCodes, userId), isNull(emailCodes.consumedAt)),
            lte(emailCodes.expiresAt, now),
          ),
        ),
      );
    const [made] = await tx
      .insert(emailCodes)
      .values({
        email,
        purpose,
        userId,
        codeHash: hashCode(deps, email, purpose, code),
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
        createdAt: now,
      })
      .returning({ id: emailCodes.id });
    return made!.id;
  });
  const what = purpose === "login" ? "sign-in" : "confirmation";
  try {
    await deps.mailer.send(
      email,
      `Your ${what} code: ${code}`,
      `Your ${what} code is ${code}.\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this email.`,
    );
  } catch (e) {
    await deps.asyncDb.delete(emailCodes).where(eq(emailCodes.id, id));
    throw new Upstream(`Could not send the email to ${email}: ${(e as Error).message}`, "mail_failed");
  }
}

/**
 * 429 while `email` has used up its guesses: MAX_WRONG_GUESSES wrong codes within the last hour,
 * whichever code they were aimed at. A new code every 30 s would otherwise buy 5 fresh tries each.
 * The wrong guesses are rows in the database, so every node counts the same ones.
 */
async function assertGuessesLeft(db: AsyncDb, email: string, now: Date): Promise<void> {
  const { emailCodeFailures } = db.tables;
  const recent = await db
    .select({ at: emailCodeFailures.failedAt })
    .from(emailCodeFailures)
    .where(and(eq(emailCodeFailures.email, email), gt(emailCodeFailures.failedAt, new Date(now.getTime() - EMAIL_GUESS_WINDOW_MS))))
    .orderBy(desc(emailCodeFailures.failedAt))
    .limit(MAX_WRONG_GUESSES);
  if (recent.length < MAX_WRONG_GUESSES) return;
  // open again when the oldest of the last MAX_WRONG_GUESSES leaves the window
  const wait = (recent[MAX_WRONG_GUESSES - 1]!.at.getTime() + EMAIL_GUESS_WINDOW_MS - now.getTime()) / 1000;
  throw new RateLimited(wait, `Too many wrong codes for ${email}; try again in ${Math.ceil(wait / 60)} min`);
}

/**
 * Checks and consumes the latest code of `email` for `purpose` (for links: requested by `userId`).
 * Atomic: of parallel requests with the right code exactly one succeeds. Throws CodeRejected otherwise,
 * and RateLimited (429) while the address has no guesses left this hour, even for the right code.
 * Not for use inside a transaction: a wrong try must be counted even though the call throws.
 */
export async function consumeEmailCode(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  input: { email: string; code: string; purpose: CodePurpose; userId: number | null },
): Promise<void> {
  const code = input.code.trim();
  if (!/^\d{6}$/.test(code)) throw new FieldError("code", "must be the 6-digit code from the email");
  const now = deps.clock.now();
  const db = deps.asyncDb;
  const { emailCodes, emailCodeFailures } = db.tables;
  await assertGuessesLeft(db, input.email, now);
  const [row] = await db
    .select()
    .from(emailCodes)
    .where(
      and(
        eq(emailCodes.email, input.email),
        eq(emailCodes.purpose, input.purpose),
        sameRequester(emailCodes, input.userId),
        isNull(emailCodes.consumedAt),
      ),
    )
    .orderBy(desc(emailCodes.id))
    .limit(1);
  if (!row) throw new CodeRejected("invalid_code", "No code is pending for this email; request a new one");
  if (row.expiresAt.getTime() <= now.getTime()) throw new CodeRejected("code_expired", "This code has expired; request a new one");
  if (row.attempts >= MAX_WRONG_TRIES) throw new CodeRejected("too_many_attempts", "Too many wrong codes; request a new one");
  if (!safeEqual(row.codeHash, hashCode(deps, input.email, input.purpose, code))) {
    await db
      .update(emailCodes)
      .set({ attempts: sql`${emailCodes.attempts} + 1` })
      .where(eq(emailCodes.id, row.id));
    await db.insert(emailCodeFailures).values({ email: input.email, failedAt: now });
    const left = MAX_WRONG_TRIES - row.attempts - 1;
    if (left <= 0) throw new CodeRejected("too_many_attempts", "Wrong code. Too many wrong codes; request a new one");
    throw new CodeRejected("invalid_code", `Wrong code; ${left} attempt${left === 1 ? "" : "s"} left`);
  }
  const claimed = await db
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(and(eq(emailCodes.id, row.id), isNull(emailCodes.consumedAt), lt(emailCodes.attempts, MAX_WRONG_TRIES)))
    .returning({ id: emailCodes.id });
  if (claimed.length !== 1) throw new CodeRejected("invalid_code", "This code was already used; request a new one");
}
