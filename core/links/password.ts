/** Link passwords: stored as a slow hash; attempts limited per visitor network and link. */
import type { WindowCounters } from "../cluster/counters";

export const PASSWORD_ATTEMPTS = 5;
export const PASSWORD_WINDOW_MS = 15 * 60 * 1000;

export function hashPassword(plain: string): Promise<string> {
  return Bun.password.hash(plain, { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return Bun.password.verify(plain, hash).catch(() => false);
}

/**
 * Limits password attempts per key (a visitor network and a link) to `max` in each window of
 * `windowMs`, counted in the cluster's shared counters so that every node counts the same attempts
 * (on one node they are in memory, and a restart forgets them, which only ever helps a visitor).
 * An attempt is counted before the password is checked, so parallel guesses cannot outrun the limit;
 * a right password clears the key.
 */
export class AttemptLimiter {
  constructor(private counters: WindowCounters, private prefix: string, private max = PASSWORD_ATTEMPTS, private windowMs = PASSWORD_WINDOW_MS) {}

  /** Counts an attempt; `retryAfterMs` > 0 means it is over the limit and must not be checked. */
  async attempt(key: string, now: Date): Promise<{ retryAfterMs: number }> {
    const { count, resetAt } = await this.counters.hit(`${this.prefix}:${key}`, this.windowMs, now);
    return { retryAfterMs: count > this.max ? Math.max(1000, resetAt.getTime() - now.getTime()) : 0 };
  }

  /** A right password: the key's attempts are forgotten. */
  async succeeded(key: string, now: Date): Promise<void> {
    await this.counters.reset(`${this.prefix}:${key}`, this.windowMs, now);
  }
}
