/** Link passwords: stored as a slow hash; wrong attempts limited per visitor IP and link. */

export const PASSWORD_ATTEMPTS = 5;
export const PASSWORD_WINDOW_MS = 15 * 60 * 1000;

export function hashPassword(plain: string): Promise<string> {
  return Bun.password.hash(plain, { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return Bun.password.verify(plain, hash).catch(() => false);
}

/**
 * Counts wrong password attempts per (IP, link) in a sliding window kept in memory (a restart
 * forgets them, which only ever helps a visitor). `retryAfterMs` > 0 means the visitor must wait.
 */
export class AttemptLimiter {
  private fails = new Map<string, number[]>();
  constructor(private max = PASSWORD_ATTEMPTS, private windowMs = PASSWORD_WINDOW_MS) {}

  retryAfterMs(key: string, now: number): number {
    const recent = this.recent(key, now);
    return recent.length >= this.max ? recent[0]! + this.windowMs - now : 0;
  }

  fail(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.fails.set(key, recent);
    if (this.fails.size > 100_000) this.prune(now);
  }

  reset(key: string): void {
    this.fails.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.fails.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  private prune(now: number) {
    for (const [k, v] of this.fails) if (!v.some((t) => t > now - this.windowMs)) this.fails.delete(k);
  }
}
