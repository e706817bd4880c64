/**
 * A running node holds its NODE_NAME, so two processes never share a click journal or a writer's
 * mark: an exclusive lock on its journal directory (both modes: a second process on the same
 * machine), and in cluster mode a PostgreSQL advisory lock on a connection of its own (a second
 * process anywhere). The kernel drops the first and the server the second when the holder dies, so
 * a node killed with SIGKILL can be started again at once. In cluster mode the name's row is also
 * taken with a fencing token (name-fence.ts), which the click writer checks with every batch.
 */
import { nodeDatabaseUrl } from "../../db/postgres";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { dlopen, FFIType } from "bun:ffi";
import { SQL } from "bun";
import type { Logger } from "../log";
import { createPgLeaderLease } from "./leader-pg";
import { heartbeat, journalHolderId, letGo, takeNameRow } from "./name-fence";

/** The lock file in the journal directory (the journal reads only its segment files). */
const NODE_LOCK_FILE = "node.lock";

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

/** flock(2) from the C library: Node has no file locks, and a lock file alone outlives a killed holder. */
let flock: ((fd: number, op: number) => number) | null = null;
function flockOf(): (fd: number, op: number) => number {
  if (!flock) {
    const lib = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
      flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    });
    flock = (fd, op) => lib.symbols.flock(fd, op);
  }
  return flock;
}

/** An exclusive lock on `dir` (made when missing), or null when another process holds it. */
function lockDirectory(dir: string): { release(): void } | null {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fd = openSync(join(dir, NODE_LOCK_FILE), "a", 0o600);
  if (flockOf()(fd, LOCK_EX | LOCK_NB) !== 0) {
    closeSync(fd);
    return null;
  }
  return {
    release() {
      flockOf()(fd, LOCK_UN);
      closeSync(fd);
    },
  };
}

export interface NodeNameHold {
  /** Whether this node holds its name now (false once another node took it: the node is fenced). */
  held(): boolean;
  /** Lets the name go (after everything else has stopped). */
  release(): Promise<void>;
}

/**
 * Takes this node's name (`journalDir`: this node's own journal directory), or resolves to the one line that says why it cannot (the caller exits
 * with it, having touched nothing: no journal read, no file removed). While held in cluster mode the
 * database lock is checked every `intervalMs`; a node that lost it (its connection to the database
 * went) says so and takes it again once it can.
 */
export async function claimNodeName(
  config: { nodeName: string; databaseUrl: string | null; journalDir: string },
  log: Logger,
  intervalMs = 5000,
  pool?: SQL,
): Promise<NodeNameHold | string> {
  const dir = config.journalDir;
  const inUse = `NODE_NAME "${config.nodeName}" is in use`;
  const dirLock = lockDirectory(dir);
  if (!dirLock) return `${inUse}: another process holds its click journal at ${dir}; stop it, or give this node another NODE_NAME`;
  if (config.databaseUrl === null) return { held: () => true, release: async () => dirLock.release() };
  let started = false;
  const url = nodeDatabaseUrl(config.databaseUrl, config.nodeName);
  const lease = createPgLeaderLease(url, `node-name:${config.nodeName}`, {
    intervalMs,
    onChange: (held) => {
      if (!started) return;
      if (held) log.info(`NODE_NAME "${config.nodeName}" held again in the database`);
      else log.warn(`NODE_NAME "${config.nodeName}": its hold in the database was lost (the connection went); taking it again`);
    },
  });
  await lease.start();
  if (!lease.held()) {
    await lease.stop();
    dirLock.release();
    return `${inUse}: another node holds it in the database; stop that node, or give this one another NODE_NAME`;
  }
  // the name's row is taken and kept through the node's pool (no connection of its own), when given
  const conn = pool ?? new SQL(url, { max: 1, idleTimeout: 0 });
  const closeConn = () => (pool ? Promise.resolve() : conn.close());
  const journal = `node:${config.nodeName}`;
  const me = journalHolderId(dir);
  const taken = await takeNameRow(conn, journal, me).catch((e: Error) => ({ refused: `the database refused it: ${e.message}` }));
  if ("refused" in taken) {
    await closeConn();
    await lease.stop();
    dirLock.release();
    return `${inUse}: ${taken.refused}; stop that node, or give this one another NODE_NAME`;
  }
  started = true;
  let held = true;
  const timer = setInterval(async () => {
    if (!held) return;
    // an unreachable database says nothing about who holds the name: the next beat asks again
    const still = await heartbeat(conn, journal, me, taken.generation).catch(() => true);
    if (still || !held) return;
    held = false;
    clearInterval(timer);
    log.error(
      `NODE_NAME "${config.nodeName}" WAS TAKEN BY ANOTHER NODE (a start with the same name and another click journal): this node writes no more clicks and marks nothing; the clicks it answers stay in its journal at ${dir}. Stop the other node, then restart this one`,
    );
  }, intervalMs);
  return {
    held: () => held,
    async release() {
      clearInterval(timer);
      if (held) await letGo(conn, journal, me, taken.generation).catch(() => {});
      await closeConn();
      await lease.stop();
      dirLock.release();
    },
  };
}
