import { ConfigError, loadConfig } from "./config";
import { createDeps } from "./core";
import { createApi } from "./api/app";
import { createBot } from "./bot/bot";
import { clickRecorderFor } from "./core/clicks/recorder";

/** Starts HTTP server, bot and jobs; stops them in reverse order on SIGINT/SIGTERM. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  const deps = createDeps(config);
  const clicks = clickRecorderFor(deps);
  clicks.start();
  const app = createApi(deps).listen({ hostname: config.host, port: config.port });
  deps.log.info(`HTTP server listening on ${config.host}:${app.server?.port}`);
  deps.log.info(`Dashboard: ${config.baseUrl}/`);

  const bot = config.botToken ? createBot({ ...deps, config: { ...config, botToken: config.botToken } }) : null;
  if (bot) {
    void bot.start({ onStart: (me) => deps.log.info(`bot @${me.username} polling`) }).catch((e) => deps.log.error("bot stopped", e));
  } else deps.log.info("BOT_TOKEN is not set: the bot is off and Telegram sign-in answers 503");

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info(`${signal}: shutting down`);
    await bot?.stop();
    await app.stop();
    const flushed = clicks.stop(); // the pending click batch is written before the database closes
    if (flushed) deps.log.info(`flushed ${flushed} pending clicks`);
    deps.handle.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

await main();
