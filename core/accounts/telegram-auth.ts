import { createHash, createHmac } from "node:crypto";
import { signData } from "@telegram-apps/init-data-node";
import type { Deps } from "../deps";
import { NotConfigured, Unauthorized } from "../errors";
import { safeEqual } from "../random";
import type { TelegramProfile } from "./users";

/** initData and Login Widget data older than this are refused (CONTRACT §4). */
const TELEGRAM_AUTH_MAX_AGE_SECONDS = 24 * 3600;

function botToken(deps: Pick<Deps, "config">): string {
  if (!deps.config.botToken) throw new NotConfigured("Telegram sign-in needs BOT_TOKEN to be configured");
  return deps.config.botToken;
}

function assertFresh(deps: Pick<Deps, "clock">, authDate: Date) {
  const age = (deps.clock.now().getTime() - authDate.getTime()) / 1000;
  if (!Number.isFinite(age)) throw new Unauthorized("Telegram auth data has no valid auth_date", "invalid_auth_data");
  if (age > TELEGRAM_AUTH_MAX_AGE_SECONDS) throw new Unauthorized("Telegram auth data is older than 24 hours", "auth_data_expired");
  if (age < -300) throw new Unauthorized("Telegram auth data is dated in the future", "invalid_auth_data");
}

/** Verifies a Mini App initData string (HMAC with the bot token, 24 h freshness) and returns the Telegram user. */
export function verifyInitData(deps: Pick<Deps, "config" | "clock">, raw: string): TelegramProfile {
  const token = botToken(deps);
  let authDate: Date;
  let user: { id?: unknown; username?: unknown; first_name?: unknown; language_code?: unknown } | undefined;
  try {
    // the library signs the data-check-string (every field but hash, sorted, keyed with
    // HMAC("WebAppData", token)); the comparison is ours, in constant time (its validate uses !==)
    const params = new URLSearchParams(raw);
    const pairs: string[] = [];
    params.forEach((value, key) => {
      if (key !== "hash") pairs.push(`${key}=${value}`);
    });
    const hash = params.get("hash");
    if (!hash || !safeEqual(signData(pairs.sort().join("\n"), token), hash)) throw new Error("bad hash");
    authDate = new Date(Number(params.get("auth_date")) * 1000);
    const userJson = params.get("user");
    user = userJson ? JSON.parse(userJson) : undefined;
  } catch {
    throw new Unauthorized("Invalid Telegram initData", "invalid_init_data");
  }
  assertFresh(deps, authDate);
  if (!user || !Number.isSafeInteger(user.id)) throw new Unauthorized("initData carries no user", "invalid_init_data");
  return {
    id: user.id as number,
    username: typeof user.username === "string" ? user.username : null,
    firstName: typeof user.first_name === "string" ? user.first_name : null,
    appLanguage: typeof user.language_code === "string" ? user.language_code : null,
  };
}

export interface LoginWidgetData {
  id: number | string;
  first_name?: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  auth_date: number | string;
  hash: string;
}

/** Verifies Telegram Login Widget data: HMAC-SHA256 keyed with SHA-256 of the bot token, 24 h freshness. */
export function verifyLoginWidget(deps: Pick<Deps, "config" | "clock">, data: LoginWidgetData): TelegramProfile {
  const token = botToken(deps);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) if (k !== "hash" && v !== undefined && v !== null) fields[k] = String(v);
  const checkString = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("\n");
  const secret = createHash("sha256").update(token).digest();
  const expected = createHmac("sha256", secret).update(checkString).digest("hex");
  if (typeof data.hash !== "string" || !safeEqual(expected, data.hash.toLowerCase()))
    throw new Unauthorized("Invalid Telegram login data", "invalid_auth_data");
  const authDate = Number(data.auth_date);
  const id = Number(data.id);
  if (!Number.isInteger(authDate) || !Number.isSafeInteger(id)) throw new Unauthorized("Invalid Telegram login data", "invalid_auth_data");
  assertFresh(deps, new Date(authDate * 1000));
  return { id, username: data.username ?? null, firstName: data.first_name ?? null };
}
