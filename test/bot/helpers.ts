import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { createTestApp } from "../helpers/app";
import { createBot } from "../../bot/bot";
import type { Composer } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { FEATURES } from "../../bot/features";
import { ALLOWED_UPDATES } from "../../bot/runtime";
import type { BotContext } from "../../bot/context";
import { requireUser } from "../../bot/require-user";

/**
 * A test app with the real bot polling a fake Bot API. `extraFeatures` (for a signed-in person) are
 * registered after the bot's own features, for this bot only. Call `stop()` in afterEach.
 */
export async function startBotApp(env: Record<string, string> = {}, extraFeatures: Composer<BotContext>[] = []) {
  const fake = new FakeBotApi().start();
  const t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url, BASE_URL: "https://links.example.com", ...env } });
  const bot = createBot(t.deps as Parameters<typeof createBot>[0], { features: [...FEATURES, requireUser(...extraFeatures)] });
  // a failure is kept for stop() to judge: stopping during start-up aborts grammY's retry delay,
  // which rejects before stop() could be awaiting it
  const running = bot.start({ drop_pending_updates: false, allowed_updates: ALLOWED_UPDATES }).then(
    () => undefined,
    (e: unknown) => e,
  );
  await fake.waitFor("getMe");
  async function stop() {
    await bot.stop();
    const failure = await running;
    if (failure && !String(failure).includes("Aborted delay")) throw failure;
    await fake.stop();
    t.close();
  }
  return { fake, t, bot, stop };
}

/** The inline buttons of a recorded call, flattened. */
export function buttons(params: Record<string, any>): InlineKeyboardButton[] {
  return (params.reply_markup?.inline_keyboard ?? []).flat();
}
