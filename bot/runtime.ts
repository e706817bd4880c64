import { API_CONSTANTS, type Bot } from "grammy";
import type { Update } from "grammy/types";
import type { Config } from "../config";
import type { Deps } from "../core/deps";
import { sha256 } from "../core/random";
import type { UpdateContext } from "./context";
import { COMMANDS, commandsIn, RUSSIAN_COMMAND_LANGUAGES } from "./commands";

/**
 * The update types the bot asks Telegram for: its default list (which has my_chat_member and
 * chat_join_request) plus chat_member, which Telegram sends only when asked and which the channels
 * feature counts joins and leaves from. A non-empty list replaces Telegram's default, so the whole
 * list is given, on polling and on setWebhook alike.
 */
export const ALLOWED_UPDATES = [...API_CONSTANTS.DEFAULT_UPDATE_TYPES, "chat_member"] as const;

/** Where Telegram posts updates in BOT_MODE=webhook (under BASE_URL). */
export const WEBHOOK_PATH = "/telegram/webhook";

/** The secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token; derived so it survives restarts. */
export function webhookSecret(config: Pick<Config, "jwtSecret" | "botToken">): string {
  return sha256(`telegram-webhook:${config.botToken}:${config.jwtSecret}`);
}

/** How long Telegram's request waits for an update to be handled before it is answered 200 anyway. */
const WEBHOOK_ANSWER_MS = 10_000;

/**
 * The HTTP handler for webhook mode: checks the secret header (401 without it), then takes the
 * update in the cluster's update ledger so that each update is handled once even when Telegram
 * sends it again, possibly to another node: a new one is handled and marked done (answered 200),
 * one already handled is answered 200 and skipped, one another node is handling right now is
 * answered 503 (Telegram sends it again later; if that node died, its lease has passed by then).
 * A handler that fails releases the update and answers 500, so the next delivery handles it.
 * Handling that outlasts WEBHOOK_ANSWER_MS is answered 200 and finishes in the background.
 */
export function webhookHandler(bot: Bot<UpdateContext>, deps: Pick<Deps, "config" | "cluster" | "log">) {
  const secret = webhookSecret(deps.config);
  const { updates } = deps.cluster;
  return async ({ request, set }: { request: Request; set: { status?: number | string } }) => {
    if (request.headers.get("x-telegram-bot-api-secret-token") !== secret) {
      set.status = 401;
      return "secret token is wrong";
    }
    const update = (await request.json().catch(() => null)) as Update | null;
    if (!update || !Number.isSafeInteger(update.update_id)) {
      set.status = 400;
      return "not a Telegram update";
    }
    const turn = await updates.take(update.update_id);
    if (turn === "done") return "";
    if (turn === "busy") {
      set.status = 503;
      return "being handled";
    }
    const handled = bot.handleUpdate(update).then(
      () => updates.done(update.update_id),
      async (e) => {
        await updates.release(update.update_id);
        throw e;
      },
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), WEBHOOK_ANSWER_MS)));
    try {
      if ((await Promise.race([handled, late])) === "late") {
        handled.catch((e) => deps.log.error(`update ${update.update_id} failed after it was answered`, e));
        deps.log.warn(`update ${update.update_id} took over ${WEBHOOK_ANSWER_MS} ms; answered, still handling`);
      }
      return "";
    } catch (e) {
      deps.log.error(`update ${update.update_id} failed; released for Telegram's next delivery`, e);
      set.status = 500;
      return "handling failed";
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Pauses between polling attempts after an error grammY does not retry itself (409 Conflict). */
const POLLING_BACKOFF = { firstMs: 1000, maxMs: 60_000 };

/**
 * Runs the bot: polling (deleteWebhook + getUpdates loop) or webhook (setWebhook to BASE_URL + path,
 * called after the HTTP server listens). The command list is sent with setMyCommands either way, in
 * English for everyone and in Russian for the languages that get Russian.
 */
export function botRunner(
  bot: Bot<UpdateContext>,
  deps: Pick<Deps, "config" | "log">,
  backoff: { firstMs: number; maxMs: number } = POLLING_BACKOFF,
) {
  let polling: Promise<void> | null = null;
  let stopping = false;
  let wake: (() => void) | null = null;
  /**
   * Polls until stopped. grammY's loop ends on an error it does not retry itself, such as 409
   * Conflict (another getUpdates or a webhook took the bot for a moment, e.g. during a deploy):
   * polling starts again after a pause that doubles up to `maxMs`, and the error is logged once per
   * kind until polling works again.
   */
  async function poll() {
    let pause = backoff.firstMs;
    let told = "";
    while (!stopping) {
      const started = Date.now();
      try {
        await bot.start({
          allowed_updates: ALLOWED_UPDATES,
          onStart: (me) => (told ? undefined : deps.log.info(`bot @${me.username} is polling`)),
        });
        return; // stopped
      } catch (e) {
        if (stopping) return;
        // polling that ran a while before failing worked: a new failure starts the pauses afresh
        if (Date.now() - started > backoff.maxMs) [pause, told] = [backoff.firstMs, ""];
        const what = String((e as Error).message ?? e);
        if (what !== told)
          deps.log.error(
            `bot polling stopped with an error; polling again in ${pause / 1000} s and after each failure, up to every ${backoff.maxMs / 1000} s`,
            e,
          );
        told = what;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pause);
          wake = () => (clearTimeout(timer), resolve());
        });
        wake = null;
        pause = Math.min(pause * 2, backoff.maxMs);
      }
    }
  }
  return {
    async init() {
      await bot.init();
      await bot.api.setMyCommands(COMMANDS);
      // Telegram shows the list of the app's language where there is one
      for (const language_code of RUSSIAN_COMMAND_LANGUAGES) await bot.api.setMyCommands(commandsIn("ru"), { language_code });
    },
    startPolling() {
      stopping = false;
      polling = poll();
    },
    async registerWebhook() {
      const url = deps.config.baseUrl + WEBHOOK_PATH;
      await bot.api.setWebhook(url, { secret_token: webhookSecret(deps.config), allowed_updates: ALLOWED_UPDATES });
      deps.log.info(`bot @${bot.botInfo.username} receives updates at ${url}`);
    },
    async stop() {
      stopping = true;
      wake?.();
      if (bot.isRunning()) await bot.stop();
      await polling;
    },
  };
}
