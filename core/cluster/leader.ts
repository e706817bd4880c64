/**
 * Leader leases: some work must run on one node at a time (cron jobs, bot polling, the MTProto
 * source). A node asks for a lease by name; `held()` says whether it has it right now.
 */
export interface LeaderLease {
  readonly name: string;
  /** true while this node holds the lease */
  held(): boolean;
  /** Checks the lease once: keeps it, notices it was lost, or takes it when free. Returns `held()`. */
  tick(): Promise<boolean>;
  /** Takes the lease if it can and keeps checking it in the background. */
  start(): Promise<void>;
  /** Stops checking and gives the lease up. */
  stop(): Promise<void>;
}

export interface LeaseOptions {
  /** called when this node gains (true) or loses (false) the lease */
  onChange?: (held: boolean) => void;
  /** how often the lease is checked (default 15 s, so a dead holder is replaced within a minute) */
  intervalMs?: number;
}

/** One node alone: it always leads. What SQLite mode uses. */
export function createLocalLeaderLease(name: string, options: LeaseOptions = {}): LeaderLease {
  let held = false;
  const set = (v: boolean) => {
    if (v === held) return;
    held = v;
    options.onChange?.(v);
  };
  return {
    name,
    held: () => held,
    async tick() {
      return held;
    },
    async start() {
      set(true);
    },
    async stop() {
      set(false);
    },
  };
}
