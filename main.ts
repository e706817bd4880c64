import { ConfigError, loadConfig, type Config } from "./config";
import { openDeps, type ServiceDeps } from "./app";
import { nodeServices } from "./app/services";
import { clickJournalOf } from "./core/clicks/backlog";
import { startServices, stopServices } from "./lifecycle";
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
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`);
      process.exit(1);
    }
    console.error(`Could not open the database${config.databaseUrl ? " at DATABASE_URL" : ""}: ${(e as Error).message}`);
    process.exit(1);
  }
}

/** config → deps → start → signals. */
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
  const { app, bot, services } = nodeServices(deps, name, readiness);

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
