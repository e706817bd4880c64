/** Builds Telegram sign-in data the way Telegram does, for tests. */
import { createHash, createHmac } from "node:crypto";
import { sign } from "@telegram-apps/init-data-node";

export const TEST_BOT_TOKEN = "123456789:AAtestTokenForAuthTests_abcdefgh";

/** Mini App initData for `user`, signed with `token` at `authDate`. */
export function signInitData(user: { id: number; username?: string; first_name?: string }, authDate: Date, token = TEST_BOT_TOKEN): string {
  return sign({ user: { first_name: user.first_name ?? "Test", ...user } } as Parameters<typeof sign>[0], token, authDate);
}

/** Login Widget fields with a hash: HMAC-SHA256 of the sorted "k=v" lines, keyed with SHA-256(token). */
export function signWidget(
  fields: { id: number; first_name: string; username?: string; auth_date: number },
  token = TEST_BOT_TOKEN,
): Record<string, string | number> {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  const check = entries
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join("\n");
  const hash = createHmac("sha256", createHash("sha256").update(token).digest()).update(check).digest("hex");
  return { ...Object.fromEntries(entries), hash };
}

export const unixSeconds = (d: Date) => Math.floor(d.getTime() / 1000);
