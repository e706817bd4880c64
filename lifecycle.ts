import type { Logger } from "./core/log";

/** A part of the running service. main.ts starts the list in order and stops it in reverse. */
export interface Service {
  name: string;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/** Starts services in order; if one fails, stops the ones already started and rethrows. */
export async function startServices(services: Service[], log: Logger): Promise<void> {
  const started: Service[] = [];
  for (const s of services) {
    try {
      await s.start();
      started.push(s);
      log.debug(`started ${s.name}`);
    } catch (e) {
      log.error(`could not start ${s.name}`, e);
      await stopServices(started, log);
      throw e;
    }
  }
}

/** Stops services in reverse order; a failing stop is logged and the rest still stop. */
export async function stopServices(services: Service[], log: Logger): Promise<void> {
  for (const s of [...services].reverse()) {
    try {
      await s.stop();
      log.debug(`stopped ${s.name}`);
    } catch (e) {
      log.error(`could not stop ${s.name} cleanly`, e);
    }
  }
}
