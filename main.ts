import { Cron } from "croner";
import { ConfigError, loadConfig, type Config } from "./config";
import { openDeps, type ServiceDeps } from "./app";
import { clickJournalOf } from "./core/clicks/backlog";
import { createApi } from "./api/app";
import { createBot } from "./bot/bot";
import { FEATURES } from "./bot/features";
import { WEBHOOK_PATH, botRunner, webhookHandler } from "./bot/runtime";
import { JOBS } from "./jobs";
import { startServices, stopServices, type Service } from "./lifecycle";
import { deliveryWorker } from "./app/delivery-routes";
import { startMtprotoSource } from "./jobs/mtproto-source";
import { placementViewsPlacement } from "./jobs/placement-views";
import type { MtprotoSource } from "./core/tracking/mtproto";
import { leadingJob, whileLeading } from "./core/cluster/lead";
import { followCaches } from "./core/cluster/caches";
import { CACHE_FOLLOWERS } from "./app/cache-followers";
import { isDatabaseUnavailable } from "./db/unavailable";
import { briefError } from "./core/log";
import { createReadiness } from "./core/readiness";
import { claimNodeName } from "./core/cluster/node-name";
import { routeDriverLines } from "./core/driver-lines";
import { createMetrics } from "./core/metrics";

function loadConfigOrExit(): Config {
  try {
    const config = loadConfig();
    return config;
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`Configuration error: ${e.message}`);
    process.exit(1);
  }
}

/** The service's dependencies; a database that cannot be opened (PostgreSQL unreachable, migrations refused) ends the start with one line. */
async function openDepsOrExit(config: Config): Promise<ServiceDeps> {
  try {
    // the running service also reports the process's own figures (memory, CPU, event-loop lag)
    return await openDeps(config, { metrics: createMetrics({ processMetrics: true }) });
  } catch (e) {
    console.error(`Could not open the database${config.databaseUrl ? " at DATABASE_URL" : ""}: ${(e as Error).message}`);
    process.exit(1);
  }
}

/**
 * Wires config → deps → api + bot + jobs. Services start in list order and stop in reverse:
 * HTTP stops accepting first, then the bot, then jobs, and the database closes last.
 */
async function main() {
  // whatever the service writes (database, stored files, secrets) is for its own user only
  process.umask(0o077);
  const deps = await openDepsOrExit(loadConfigOrExit());
  const { log, config } = deps;
  // the database driver's own plain-text warnings go through the JSON log
  routeDriverLines(log);
  // before anything reads the journal or takes a lease: a name in use ends the start here, untouched
  const name = await claimNodeName({ ...config, journalDir: clickJournalOf(config).dir }, log, 5000, deps.engine.pg?.sql);
  if (typeof name === "string") {
    console.error(name);
    await deps.handle.close();
    process.exit(1);
  }
  deps.metrics.gauge(
    "node_name_held",
    "1 while this node holds its NODE_NAME; 0 once another node took it (this node then writes no clicks)",
    () => (name.held() ? 1 : 0),
  );
  // false from the first SIGTERM/SIGINT: /readyz then answers 503 while the node drains
  const readiness = createReadiness();
  const app = createApi(deps, { readiness });
  const bot = config.botToken ? createBot({ ...deps, config: { ...config, botToken: config.botToken } }, { features: FEATURES }) : null;
  const runner = bot ? botRunner(bot, deps) : null;
  if (bot && config.botMode === "webhook") app.post(WEBHOOK_PATH, webhookHandler(bot, deps), { detail: { hide: true } });

  const jobs: Cron[] = [];
  // each job runs on the node holding its lease (on one node: always this one)
  // the MTProto source while it runs on this node; with MTProto configured the placements' views are
  // read beside it (under its lease), else by their own leased job through the web preview
  let mtprotoSource: MtprotoSource | null = null;
  const views = placementViewsPlacement(config, () => mtprotoSource);
  const leadingJobs = [...JOBS, ...views.leased].map((job) => ({
    job,
    lead: leadingJob(deps, job.name, async () => job.run(deps)),
  }));
  const services: Service[] = [
    { name: "database", start() {}, stop: () => deps.handle.close() },
    // let go before the database closes: its row is released through the node's pool
    { name: "node name", start() {}, stop: () => name.release() },
    { name: "matcher thread", start() {}, stop: () => deps.trackerIndex.close() },
    (() => {
      // edits on other nodes reach this node's caches (link cache, ended sign-ins, keyword index)
      let unfollow = async () => {};
      return { name: "caches", start: async () => void (unfollow = await followCaches(deps, CACHE_FOLLOWERS)), stop: () => unfollow() };
    })(),
    {
      name: "jobs",
      async start() {
        for (const { job, lead } of leadingJobs) {
          await lead.start();
          jobs.push(
            new Cron(
              job.pattern,
              {
                name: job.name,
                protect: true,
                catch: (e) =>
                  isDatabaseUnavailable(e) ? log.warn(`job ${job.name} skipped: ${briefError(e)}`) : log.error(`job ${job.name} failed`, e),
              },
              async () => void (await lead.tick()),
            ),
          );
        }
      },
      async stop() {
        jobs.forEach((j) => j.stop());
        for (const { lead } of leadingJobs) await lead.stop();
      },
    },
    (() => {
      const delivery = deliveryWorker(deps);
      return { name: "delivery", start: () => delivery.start(), stop: () => delivery.stop() };
    })(),
    {
      name: "clicks",
      // replays what the click journal holds and the database does not, then hands batches to a
      // writer thread with its own connection, off the request thread; before HTTP starts
      start: () => deps.clicks.start({ offThread: true }),
      // after HTTP has stopped: the pending click batch is written before the database closes
      async stop() {
        const flushed = await deps.clicks.stop();
        if (flushed) log.info(`flushed ${flushed} pending clicks`);
      },
    },
    (() => {
      // optional MTProto keyword source: on only when MTPROTO_* are configured; re-synced hourly; on one node at a time
      let source: MtprotoSource | null = null;
      let sync: Cron | null = null;
      let reading: Cron | null = null;
      const lead = whileLeading(deps, "mtproto-source", {
        async start() {
          source = mtprotoSource = await startMtprotoSource(deps);
          if (source)
            sync = new Cron(
              "17 * * * *",
              { protect: true, catch: (e) => log.error("mtproto sync failed", e) },
              async () => void (await source!.sync()),
            );
          const job = views.withMtproto;
          // even if the source could not start: the views job lives here, it falls back to the web preview
          if (job)
            reading = new Cron(
              job.pattern,
              {
                name: job.name,
                protect: true,
                catch: (e) =>
                  isDatabaseUnavailable(e) ? log.warn(`job ${job.name} skipped: ${briefError(e)}`) : log.error(`job ${job.name} failed`, e),
              },
              async () => void (await job.run(deps)),
            );
        },
        async stop() {
          reading?.stop();
          sync?.stop();
          await source?.stop();
          source = mtprotoSource = null;
        },
      });
      return { name: "mtproto", start: () => lead.start(), stop: () => lead.stop() };
    })(),
    ...(runner ? [{ name: "bot", start: () => runner.init(), stop: () => runner.stop() }] : []),
    {
      name: "http",
      start: () => void app.listen({ hostname: config.host, port: config.port }),
      stop: async () => void (await app.stop()),
    },
    ...(runner
      ? [
          config.botMode === "webhook"
            ? { name: "bot webhook", start: () => runner.registerWebhook(), stop() {} }
            : (() => {
                // Telegram allows one getUpdates caller per bot: polling runs on the node holding the lease
                const lead = whileLeading(deps, "bot-polling", { start: () => runner.startPolling(), stop: () => runner.stop() });
                return { name: "bot polling", start: () => lead.start(), stop: () => lead.stop() };
              })(),
        ]
      : []),
  ];

  try {
    await startServices(services, log);
  } catch (e) {
    console.error(`Could not start: ${(e as Error).message}`);
    process.exit(1);
  }
  // `bun start` runs this as a child of `bun run`, so a signal to the process group (Ctrl-C, systemd's
  // KillMode=control-group) arrives twice within milliseconds: a repeated signal never cuts the
  // graceful shutdown short (the limit below, 15 s past the drain, still ends a shutdown that hangs)
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      log.info(`${signal} again: already shutting down`);
      return;
    }
    stopping = true;
    // readiness fails first: the load balancer stops sending new requests while this node still
    // answers them; then HTTP stops accepting and lets the requests under way finish (app.stop)
    readiness.drain();
    log.info(`${signal}: shutting down${config.drainSeconds ? `; /readyz answers 503 for ${config.drainSeconds} s first` : ""}`);
    setTimeout(
      () => {
        log.error(`shutdown took longer than ${config.drainSeconds + 15} s; exiting`);
        process.exit(1);
      },
      (config.drainSeconds + 15) * 1000,
    ).unref();
    if (config.drainSeconds) await new Promise((r) => setTimeout(r, config.drainSeconds * 1000));
    log.info("closing the listener; requests under way finish first");
    await stopServices(services, log);
    log.info("stopped");
    process.exit(0);
  };
  // installed before the lines that say the node is up: a supervisor (or a test) that signals as soon
  // as it reads them must find the graceful handler, not the default action
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  const port = app.server!.port;
  log.info(`HTTP server listening on ${config.host}:${port}`);
  // in a cluster, once: which one-node work this node took at start (later changes are logged as they happen)
  if (config.databaseUrl) {
    const held = deps.cluster
      .leases()
      .filter((l) => l.held)
      .map((l) => l.name);
    log.info(`node ${config.nodeName} leads ${held.length ? held.join(", ") : "nothing yet"}`, { leases: held });
  }
  if (!bot) log.info("BOT_TOKEN is not set: the bot is off and Telegram sign-in answers 503");
  // with PORT=0 the default BASE_URL names port 0; show the port actually bound
  const dashboard = config.port === 0 ? config.baseUrl.replace(/:0$/, `:${port}`) : config.baseUrl;
  log.info(`Dashboard: ${dashboard}/`);
}

await main();
