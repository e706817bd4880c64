import { ConfigError, loadConfig } from "./config";
import { createDeps } from "./core";
import { createApi } from "./api/app";
import { createBot } from "./bot/bot";
import { Cron } from "croner";
import { TRACKING_NOTIFICATIONS_CRON, trackingNotificationsJob } from "./jobs/tracking-notifications";
import { startMtprotoSource } from "./jobs/mtproto-source";
import { TRACKING_SOURCES_CRON, trackingSourcesJob } from "./jobs/tracking-sources";

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
  const app = createApi(deps).listen({ hostname: config.host, port: config.port });
  deps.log.info(`HTTP server listening on ${config.host}:${app.server?.port}`);
  deps.log.info(`Dashboard: ${config.baseUrl}/`);

  const bot = config.botToken ? createBot({ ...deps, config: { ...config, botToken: config.botToken } }) : null;
  if (bot) {
    void bot.start({ onStart: (me) => deps.log.info(`bot @${me.username} polling`) }).catch((e) => deps.log.error("bot stopped", e));
  } else deps.log.info("BOT_TOKEN is not set: the bot is off and Telegram sign-in answers 503");

  const jobs = [
    new Cron(TRACKING_NOTIFICATIONS_CRON, { protect: true, catch: (e) => deps.log.error("tracking notifications job failed", e) }, () => trackingNotificationsJob(deps)),
    new Cron(TRACKING_SOURCES_CRON, { protect: true, catch: (e) => deps.log.error("tracking sources job failed", e) }, () => trackingSourcesJob(deps)),
  ];

  const mtproto = await startMtprotoSource(deps);
  if (mtproto) jobs.push(new Cron("17 * * * *", { protect: true, catch: (e) => deps.log.error("mtproto sync failed", e) }, async () => {
    await mtproto.sync();
  }));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info(`${signal}: shutting down`);
    for (const job of jobs) job.stop();
    await mtproto?.stop().catch(() => {});
    await bot?.stop();
    await app.stop();
    deps.handle.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

await main();
