/**
 * Passwords of short links and secure shares: stored as a slow hash (argon2id); attempts limited per
 * visitor network and link, wrong guesses capped per link across all addresses, and the slow checks
 * bounded per process, so guessing costs an attacker time and cannot cost the service its CPU.
 */
import type { WindowCounters } from "../cluster/counters";
import { RateLimited } from "../errors";

/** A password of a link or a share link is 4 to 128 characters. */
export const PASSWORD_MIN = 4;
export const PASSWORD_MAX = 128;
const PASSWORD_ATTEMPTS = 5;
const PASSWORD_WINDOW_MS = 15 * 60 * 1000;
/** Wrong guesses one link takes from all addresses together in a window before its form locks. */
const LINK_WRONG_GUESSES = 50;
/** Password checks (argon2id, ~20 MB and tens of ms each) that run at once in this process. */
export const CONCURRENT_CHECKS = 4;
/** Checks that may wait for a place; past this a visitor is told to try again in a second. */
export const WAITING_CHECKS = 64;

export function hashPassword(plain: string): Promise<string> {
  return Bun.password.hash(plain, { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
}

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Checks a password against its hash. At most CONCURRENT_CHECKS run at once in this process (a
 * per-process bound, as the CPU is); up to WAITING_CHECKS more wait their turn, and a check beyond
 * that is refused with 429 and Retry-After 1 before any hashing.
 */
export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  if (running >= CONCURRENT_CHECKS) {
    if (waiting.length >= WAITING_CHECKS) throw new RateLimited(1, "Too many password checks at once; try again in a second");
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  try {
    return await Bun.password.verify(plain, hash).catch(() => false);
  } finally {
    const next = waiting.shift();
    if (next)
      next(); // the place passes on directly
    else running--;
  }
}

/**
 * Limits password attempts per key (a visitor network and a link) to `max` in each window of
 * `windowMs`, and wrong guesses per link from all addresses to LINK_WRONG_GUESSES, counted in the
 * cluster's shared counters so that every node counts the same attempts (on one node they are in
 * memory, and a restart forgets them, which only ever helps a visitor). A visitor's attempt is
 * counted before the password is checked, so parallel guesses cannot outrun the limit; a right
 * password clears the visitor's key. The link-wide count takes only wrong guesses, so visitors who
 * know the password never lock it.
 */
export class AttemptLimiter {
  constructor(
    private counters: WindowCounters,
    private prefix: string,
    private max = PASSWORD_ATTEMPTS,
    private windowMs = PASSWORD_WINDOW_MS,
    private linkMax = LINK_WRONG_GUESSES,
  ) {}

  /**
   * Counts an attempt of `key` on `link`; `retryAfterMs` > 0 means it is over either limit and must
   * not be checked.
   */
  async attempt(key: string, link: string, now: Date): Promise<{ retryAfterMs: number }> {
    const wrong = await this.counters.count(this.linkKey(link), this.windowMs, now);
    const { count, resetAt } = await this.counters.hit(`${this.prefix}:${key}`, this.windowMs, now);
    const over = count > this.max || wrong >= this.linkMax;
    return { retryAfterMs: over ? Math.max(1000, resetAt.getTime() - now.getTime()) : 0 };
  }

  /** A wrong password: one more against the link, from whatever address. */
  async failed(link: string, now: Date): Promise<void> {
    await this.counters.hit(this.linkKey(link), this.windowMs, now);
  }

  /** A right password: the key's attempts are forgotten. */
  async succeeded(key: string, now: Date): Promise<void> {
    await this.counters.reset(`${this.prefix}:${key}`, this.windowMs, now);
  }

  private linkKey(link: string) {
    return `${this.prefix}:link:${link}`;
  }
}
