/**
 * The node's services, each from a named factory. main.ts lists them in start order (HTTP starts
 * last and stops first; the database closes last) and lifecycle.ts starts and stops the list.
 */
import { Cron } from "croner";
import type { ServiceDeps } from ".";
import type { Service } from "../lifecycle";
import type { Job } from "../jobs";
import type { Logger } from "../core/log";
import type { MtprotoSource } from "../core/tracking/mtproto";
import type { NodeNameHold } from "../core/cluster/node-name";
import { leadingJob, whileLeading } from "../core/cluster/lead";
import { followCaches } from "../core/cluster/caches";
import { isDatabaseUnavailable } from "../db/unavailable";
import { briefError } from "../core/log";
import { startMtprotoSource } from "../jobs/mtproto-source";
import { createApi } from "../api/app";
import { createBot } from "../bot/bot";
import { FEATURES } from "../bot/features";
import { WEBHOOK_PATH, botRunner, webhookHandler } from "../bot/runtime";
import { JOBS } from "../jobs";
import { placementViewsPlacement } from "../jobs/placement-views";
import type { Readiness } from "../core/readiness";
import { CACHE_FOLLOWERS } from "./cache-followers";
import { deliveryWorker } from "./delivery-routes";

type BotRunner = ReturnType<typeof botRunner>;

/** A job on its schedule; a database that is away skips a run with a warning, anything else is an error. */
function scheduled(log: Logger, job: Job, run: () => unknown): Cron {
  return new Cron(
    job.pattern,
    {
      name: job.name,
      protect: true,
      catch: (e) =>
        isDatabaseUnavailable(e) ? log.warn(`job ${job.name} skipped: ${briefError(e)}`) : log.error(`job ${job.name} failed`, e),
    },
    async () => void (await run()),
  );
}

/** The database: nothing to start (openDeps opened it); closed last. */
function databaseService(deps: ServiceDeps): Service {
  return { name: "database", start() {}, stop: () => deps.handle.close() };
}

/** This node's name, claimed before the services start; let go before the database closes (its row goes through the pool). */
function nodeNameService(name: NodeNameHold): Service {
  return { name: "node name", start() {}, stop: () => name.release() };
}

/** The keyword matcher's thread, started with the dependencies. */
function matcherService(deps: ServiceDeps): Service {
  return { name: "matcher thread", start() {}, stop: () => deps.trackerIndex.close() };
}

/** Edits on other nodes reach this node's caches (link cache, ended sign-ins, keyword index). */
function cachesService(deps: ServiceDeps): Service {
  let unfollow = async () => {};
  return { name: "caches", start: async () => void (unfollow = await followCaches(deps, CACHE_FOLLOWERS)), stop: () => unfollow() };
}

/** The cron jobs, each run on the node holding its lease (on one node: always this one). */
function jobsService(deps: ServiceDeps, jobs: Job[]): Service {
  const leading = jobs.map((job) => ({ job, lead: leadingJob(deps, job.name, async () => job.run(deps)) }));
  const crons: Cron[] = [];
  return {
    name: "jobs",
    async start() {
      for (const { job, lead } of leading) {
        await lead.start();
        crons.push(scheduled(deps.log, job, () => lead.tick()));
      }
    },
    async stop() {
      for (const c of crons) c.stop();
      for (const { lead } of leading) await lead.stop();
    },
  };
}

/** The outbox's delivery worker (webhooks, postbacks, bot messages). */
function deliveryService(deps: ServiceDeps): Service {
  const delivery = deliveryWorker(deps);
  return { name: "delivery", start: () => delivery.start(), stop: () => delivery.stop() };
}

/**
 * The click sink: replays what the click journal holds and the database does not, then hands
 * batches to a writer thread with its own connection, off the request thread; started before HTTP.
 * Stopped after HTTP: the pending batch is written before the database closes.
 */
function clicksService(deps: ServiceDeps): Service {
  return {
    name: "clicks",
    start: () => deps.clicks.start({ offThread: true }),
    async stop() {
      const flushed = await deps.clicks.stop();
      if (flushed) deps.log.info(`flushed ${flushed} pending clicks`);
    },
  };
}

/** Where the MTProto source is while it runs on this node: the placements' views job reads through it. */
interface MtprotoHolder {
  source: MtprotoSource | null;
}

/**
 * The optional MTProto keyword source: on only when MTPROTO_* are configured, re-synced hourly, on
 * one node at a time. `views` is the placements' views job when it runs under this lease (with
 * MTProto configured); it runs even if the source could not start, falling back to the web preview.
 */
function mtprotoService(deps: ServiceDeps, held: MtprotoHolder, views: Job | null): Service {
  let sync: Cron | null = null;
  let reading: Cron | null = null;
  const lead = whileLeading(deps, "mtproto-source", {
    async start() {
      const source = (held.source = await startMtprotoSource(deps));
      if (source)
        sync = new Cron(
          "17 * * * *",
          { protect: true, catch: (e) => deps.log.error("mtproto sync failed", e) },
          async () => void (await source.sync()),
        );
      if (views) reading = scheduled(deps.log, views, () => views.run(deps));
    },
    async stop() {
      reading?.stop();
      sync?.stop();
      await held.source?.stop();
      held.source = null;
    },
  });
  return { name: "mtproto", start: () => lead.start(), stop: () => lead.stop() };
}

/** The bot's own start (its identity, commands); its updates come through botUpdatesService. */
function botService(runner: BotRunner): Service {
  return { name: "bot", start: () => runner.init(), stop: () => runner.stop() };
}

/**
 * How updates reach the bot: in webhook mode Telegram is told the URL; in polling mode the node
 * holding the lease polls (Telegram allows one getUpdates caller per bot).
 */
function botUpdatesService(deps: ServiceDeps, runner: BotRunner): Service {
  if (deps.config.botMode === "webhook") return { name: "bot webhook", start: () => runner.registerWebhook(), stop() {} };
  const lead = whileLeading(deps, "bot-polling", { start: () => runner.startPolling(), stop: () => runner.stop() });
  return { name: "bot polling", start: () => lead.start(), stop: () => lead.stop() };
}

/** The HTTP listener; its stop lets the requests under way finish. */
function httpService(deps: ServiceDeps, app: ReturnType<typeof createApi>): Service {
  return {
    name: "http",
    start: () => void app.listen({ hostname: deps.config.host, port: deps.config.port }),
    stop: async () => void (await app.stop()),
  };
}

/** The node's services in start order; they stop in reverse: HTTP stops accepting first, then the bot, then jobs, and the database closes last. */
export function nodeServices(deps: ServiceDeps, name: NodeNameHold, readiness: Readiness) {
  const { config } = deps;
  const app = createApi(deps, { readiness });
  const bot = config.botToken ? createBot({ ...deps, config: { ...config, botToken: config.botToken } }, { features: FEATURES }) : null;
  const runner = bot ? botRunner(bot, deps) : null;
  if (bot && config.botMode === "webhook") app.post(WEBHOOK_PATH, webhookHandler(bot, deps), { detail: { hide: true } });
  // with MTProto configured the placements' views are read beside the source (under its lease),
  // else by their own leased job through the web preview
  const mtproto: MtprotoHolder = { source: null };
  const views = placementViewsPlacement(config, () => mtproto.source);
  const services: Service[] = [
    databaseService(deps),
    nodeNameService(name),
    matcherService(deps),
    cachesService(deps),
    jobsService(deps, [...JOBS, ...views.leased]),
    deliveryService(deps),
    clicksService(deps),
    mtprotoService(deps, mtproto, views.withMtproto),
    ...(runner ? [botService(runner)] : []),
    httpService(deps, app),
    ...(runner ? [botUpdatesService(deps, runner)] : []),
  ];
  return { app, bot, services };
}
