/**
 * One-node work under leader leases: periodic jobs, bot polling and the MTProto source run on the
 * node that holds their lease, and move to another node when it dies (PostgreSQL gives the lease to
 * the next node that asks, within a minute). On one node the lease is always held, so everything
 * runs as it always did.
 */
import type { Deps } from "../deps";

export interface LeadingWork {
  /** called when this node gains the lease */
  start(): unknown | Promise<unknown>;
  /** called when it loses the lease, and at shutdown while it holds it */
  stop(): unknown | Promise<unknown>;
}

/**
 * Runs `work` while this node holds the lease `name`: started on gaining it, stopped on losing it
 * (another node takes over) and at `stop()`. Starts and stops never overlap.
 */
export function whileLeading(
  deps: Pick<Deps, "cluster" | "log">,
  name: string,
  work: LeadingWork,
): { start(): Promise<void>; stop(): Promise<void> } {
  let running = false;
  // leads taken while the node starts and given up while it stops are no news (main.ts says once which it holds)
  let quiet = true;
  let chain: Promise<void> = Promise.resolve();
  const change = (held: boolean) => {
    chain = chain
      .then(async () => {
        if (held && !running) {
          await work.start();
          running = true;
          deps.log[quiet ? "debug" : "info"](`lease ${name}: this node leads`);
        } else if (!held && running) {
          running = false;
          await work.stop();
          deps.log[quiet ? "debug" : "info"](`lease ${name}: this node no longer leads`);
        }
      })
      .catch((e) => deps.log.error(`lease ${name}: could not ${held ? "start" : "stop"} its work`, e));
  };
  const lease = deps.cluster.lease(name, { onChange: change });
  return {
    async start() {
      await lease.start();
      await chain;
      quiet = false;
    },
    async stop() {
      quiet = true;
      await lease.stop();
      change(false);
      await chain;
    },
  };
}

/**
 * A periodic job's run under its lease `job-<name>`: the node that holds the lease runs it, the
 * others skip their tick. A holder's tick checks the lease first (one round trip): the background check runs
 * every 15 s, and a holder whose database session ended (a PostgreSQL restart, a failover) would
 * believe it leads until then, running the job beside the node that took the lease over.
 */
export function leadingJob(deps: Pick<Deps, "cluster" | "log">, name: string, run: () => Promise<unknown>) {
  let quiet = true; // as in whileLeading
  const lease = deps.cluster.lease(`job-${name}`, {
    onChange: (held) => deps.log[quiet ? "debug" : "info"](`lease job-${name}: this node ${held ? "leads" : "no longer leads"}`),
  });
  return {
    async start() {
      await lease.start();
      quiet = false;
    },
    stop() {
      quiet = true;
      return lease.stop();
    },
    /** the job's tick: runs it when this node holds its lease; true when it ran */
    async tick(): Promise<boolean> {
      // a node that believes it leads makes sure first; one that does not leaves taking it to the background
      if (!lease.held() || !(await lease.tick())) return false;
      await run();
      return true;
    },
  };
}
