import { webhookCallback, type Bot } from "grammy";
import type { Config } from "../config";
import type { Deps } from "../core/deps";
import { sha256 } from "../core/random";
import type { BotContext } from "./context";
import { COMMANDS } from "./commands";

/** Where Telegram posts updates in BOT_MODE=webhook (under BASE_URL). */
export const WEBHOOK_PATH = "/telegram/webhook";

/** The secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token; derived so it survives restarts. */
export function webhookSecret(config: Pick<Config, "jwtSecret" | "botToken">): string {
  return sha256(`telegram-webhook:${config.botToken}:${config.jwtSecret}`);
}

/** The HTTP handler for webhook mode (an Elysia handler): checks the secret header, feeds the bot. */
export function webhookHandler(bot: Bot<BotContext>, config: Config) {
  return webhookCallback(bot, "elysia", { secretToken: webhookSecret(config), onTimeout: "return" });
}

/**
 * Runs the bot: polling (deleteWebhook + getUpdates loop) or webhook (setWebhook to BASE_URL + path,
 * called after the HTTP server listens). Command list is sent with setMyCommands either way.
 */
export function botRunner(bot: Bot<BotContext>, deps: Pick<Deps, "config" | "log">) {
  let polling: Promise<void> | null = null;
  return {
    async init() {
      await bot.init();
      await bot.api.setMyCommands(COMMANDS);
    },
    startPolling() {
      polling = bot.start({ onStart: (me) => deps.log.info(`bot @${me.username} is polling`) }).catch((e) => deps.log.error("bot polling stopped with an error", e));
    },
    async registerWebhook() {
      const url = deps.config.baseUrl + WEBHOOK_PATH;
      await bot.api.setWebhook(url, { secret_token: webhookSecret(deps.config) });
      deps.log.info(`bot @${bot.botInfo.username} receives updates at ${url}`);
    },
    async stop() {
      if (bot.isRunning()) await bot.stop();
      await polling;
    },
  };
}
