import { SQL } from "bun";
import type { LeaderLease, LeaseOptions } from "./leader";

/** First key of every advisory lock the cluster takes; the second is a hash of the lease name. */
export const LEASE_LOCK_SPACE = 7246;

/**
 * A leader lease held as a PostgreSQL session advisory lock on a connection of its own. The server
 * drops the lock the moment that session ends, so when the holder dies (process killed, network
 * lost: TCP keepalives end the session within about half a minute) another node takes the lease
 * at its next check. The holder checks that its *current* session still holds the lock, so after a
 * reconnect it steps down instead of believing it still leads.
 */
export function createPgLeaderLease(url: string, name: string, options: LeaseOptions = {}): LeaderLease {
  // one connection: every statement of this lease runs in the same session
  const conn = new SQL(url, { max: 1, idleTimeout: 0 });
  let held = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  let checking: Promise<boolean> | null = null;
  const set = (v: boolean) => {
    if (v === held) return;
    held = v;
    options.onChange?.(v);
  };
  const check = async (): Promise<boolean> => {
    try {
      const [{ mine }] = await conn`SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
        AND classid = ${LEASE_LOCK_SPACE} AND objid = hashtext(${name})::oid AND objsubid = 2 AND granted) AS mine`;
      if (mine) return true;
      set(false);
      await conn`SET tcp_keepalives_idle = 10`;
      await conn`SET tcp_keepalives_interval = 5`;
      await conn`SET tcp_keepalives_count = 3`;
      const [{ got }] = await conn`SELECT pg_try_advisory_lock(${LEASE_LOCK_SPACE}, hashtext(${name})) AS got`;
      return got;
    } catch {
      // the database is unreachable: whoever holds the lock now, it is not this node
      return false;
    }
  };
  const lease: LeaderLease = {
    name,
    held: () => held,
    async tick() {
      // one check at a time: a timer tick and a caller's tick share the same round trip
      checking ??= check().finally(() => (checking = null));
      set(await checking);
      return held;
    },
    async start() {
      await lease.tick();
      timer = setInterval(() => void lease.tick(), options.intervalMs ?? 15_000);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await checking;
      if (held) await conn`SELECT pg_advisory_unlock(${LEASE_LOCK_SPACE}, hashtext(${name}))`.catch(() => {});
      set(false);
      await conn.close();
    },
  };
  return lease;
}
