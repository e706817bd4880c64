/**
 * What nodes of a cluster share, built once in the composition root: in-process (and DATA_DIR)
 * implementations for one node on SQLite, PostgreSQL ones in cluster mode. (Outbox claims are the
 * outbox's own: core/delivery/outbox.ts claims with a lease on either database.)
 */
import type { Clock } from "../clock";
import type { PgDbHandle } from "../../db/postgres";
import { createLocalChangeBus, type ChangeBus } from "./change-bus";
import { createPgChangeBus } from "./change-bus-pg";
import { createLocalWindowCounters, type WindowCounters } from "./counters";
import { createPgWindowCounters } from "./counters-pg";
import { createLocalLeaderLease, type LeaderLease, type LeaseOptions } from "./leader";
import { createPgLeaderLease } from "./leader-pg";
import { createFileSettings, type SharedSettings } from "./settings";
import { createPgSettings } from "./settings-pg";
import { createLocalUpdateLedger, type UpdateLedger } from "./update-ledger";
import { createPgUpdateLedger } from "./update-ledger-pg";

export interface Cluster {
  /** this process's id among the nodes (random at each start): a node skips the bus messages it sent */
  nodeId: string;
  /** A lease by name; each call makes a new contender (start it, stop it when done). */
  lease(name: string, options?: LeaseOptions): LeaderLease;
  /** The leases this node has asked for, and whether it holds each now (metrics, `which node leads`). */
  leases(): { name: string; held: boolean }[];
  bus: ChangeBus;
  counters: WindowCounters;
  settings: SharedSettings;
  updates: UpdateLedger;
}

/** One node: everything in process, settings in `dataDir`. */
export function createLocalCluster(deps: { dataDir: string; clock: Clock }): Cluster {
  return {
    nodeId: crypto.randomUUID(),
    ...trackLeases((name, options) => createLocalLeaderLease(name, options)),
    bus: createLocalChangeBus(),
    counters: createLocalWindowCounters(),
    settings: createFileSettings(deps.dataDir),
    updates: createLocalUpdateLedger(deps.clock),
  };
}

/** Cluster mode: everything in the PostgreSQL database at `url`, opened as `handle`. */
export function createPgCluster(deps: { url: string; handle: PgDbHandle; clock: Clock }): Cluster {
  const { db, sql } = deps.handle;
  return {
    nodeId: crypto.randomUUID(),
    ...trackLeases((name, options) => createPgLeaderLease(deps.url, name, options)),
    bus: createPgChangeBus(sql),
    counters: createPgWindowCounters(db),
    settings: createPgSettings(db),
    updates: createPgUpdateLedger({ db, clock: deps.clock }),
  };
}

/** A lease factory that remembers the leases it made, so the node can say which it holds. */
function trackLeases(make: (name: string, options?: LeaseOptions) => LeaderLease): Pick<Cluster, "lease" | "leases"> {
  const made: { name: string; lease: LeaderLease }[] = [];
  return {
    lease(name, options) {
      const lease = make(name, options);
      made.push({ name, lease });
      return lease;
    },
    leases: () => made.map(({ name, lease }) => ({ name, held: lease.held() })),
  };
}
