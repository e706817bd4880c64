/**
 * Share passwords of secure links: stored as an argon2id hash, asked for with every counted opening,
 * and attempts limited per link and visitor network (IPv6 by /64), wrong guesses per link from all
 * addresses, in the cluster's shared counters, so a short password cannot be guessed.
 */
import type { Deps } from "../deps";
import { FieldError, RateLimited, Unauthorized } from "../errors";
import { AttemptLimiter, hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "../links/password";
import { ipBucket } from "../ip";

export { AttemptLimiter };

/** Share passwords follow the same length rule as link passwords. */
const SHARE_PASSWORD_MIN = PASSWORD_MIN;
const SHARE_PASSWORD_MAX = PASSWORD_MAX;

/** The hash to store for a new password; null clears it. FieldError when its length is out of range. */
export async function sharePasswordHash(password: string | null): Promise<string | null> {
  if (password === null) return null;
  if (password.length < SHARE_PASSWORD_MIN || password.length > SHARE_PASSWORD_MAX)
    throw new FieldError("password", `must be ${SHARE_PASSWORD_MIN} to ${SHARE_PASSWORD_MAX} characters`);
  return hashPassword(password);
}

/**
 * Checks the password a visitor sent for a protected link: 429 while the (link, address) pair is
 * locked out, 401 `password_required` when none was sent, 401 `password_invalid` (and one more
 * failed attempt) when it is wrong. A right password clears the pair's failures.
 */
export async function checkSharePassword(
  deps: Pick<Deps, "clock">,
  attempts: AttemptLimiter,
  link: { id: number; passwordHash: string | null },
  given: string | null | undefined,
  ip: string | null,
): Promise<void> {
  if (!link.passwordHash) return;
  // per link and visitor network: an IPv6 client holds a whole /64 and could rotate through it
  const key = `${link.id}|${ip ? ipBucket(ip) : "-"}`;
  const now = deps.clock.now();
  if (!given) throw new Unauthorized("This link is protected by a password: send it in the X-Share-Password header", "password_required");
  // counted before the slow check, so parallel guesses cannot outrun the limit
  const { retryAfterMs } = await attempts.attempt(key, String(link.id), now);
  if (retryAfterMs > 0) throw new RateLimited(Math.ceil(retryAfterMs / 1000), "Too many wrong passwords for this link; try again later");
  if (!(await verifyPassword(given, link.passwordHash))) {
    await attempts.failed(String(link.id), now);
    throw new Unauthorized("The password is wrong", "password_invalid");
  }
  await attempts.succeeded(key, now);
}
