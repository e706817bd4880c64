import { GrammyError, HttpError, type Api } from "grammy";
import type { Deps } from "../deps";
import { AppError, NotConfigured, Upstream } from "../errors";

/** The Bot API client, or 503 when the bot is not configured (channels need it for everything). */
export function channelApi(deps: Pick<Deps, "telegram">): Api {
  if (!deps.telegram) throw new NotConfigured("The Telegram bot is not configured (BOT_TOKEN is unset), so channels cannot be reached");
  return deps.telegram;
}

/** The bot's own Telegram user id: the numeric part of its token. */
export function botUserId(deps: Pick<Deps, "config">): number {
  return Number(deps.config.botToken?.split(":")[0] ?? 0);
}

/**
 * Runs a Bot API call for a channel. Telegram's refusal (missing rights, a chat it does not know)
 * becomes a 409 `telegram_refused` carrying Telegram's own description; an unreachable Telegram
 * is a 502. Never a 500.
 */
export async function askTelegram<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof GrammyError) throw new AppError(409, "telegram_refused", e.description);
    if (e instanceof HttpError) throw new Upstream("Telegram could not be reached; try again later", "telegram_unreachable");
    throw e;
  }
}
