/**
 * The gauges of a running node, read when /metrics is scraped: the click journal's backlog and the
 * age of its oldest click, the outbox's depth, the leases held, and (cluster mode) the node's
 * database connections. Counters are bumped where their events happen.
 */
import type { SQL } from "bun";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/async";
import type { Deps } from "./deps";
import type { Metrics } from "./metrics";
import pkg from "../package.json" with { type: "json" };

/** The build's version (package.json's): bump it with each release, so a rolling upgrade shows which node runs which. */
const BUILD_VERSION = pkg.version;

type Watched = Pick<Deps, "clicks" | "asyncDb" | "cluster" | "clock">;

/** Registers the node's gauges on `metrics`: the journal, the outbox, the node itself, and (with `pg`) its connections. */
export function watchService(deps: Watched, metrics: Metrics, pg?: { sql: SQL; applicationName: string }): void {
  watchJournal(deps, metrics);
  watchOutbox(deps, metrics);
  watchNode(deps, metrics);
  if (pg) watchConnections(metrics, pg);
}

/** The click journal: its backlog, its oldest click, what this node holds in memory, and when memory fills at the current growth. */
function watchJournal(deps: Watched, metrics: Metrics): void {
  metrics.gauge("click_journal_backlog", "Clicks answered and not yet written to the database", () => deps.clicks.backlog().clicks);
  metrics.gauge("click_journal_oldest_age_seconds", "Age of the oldest click not yet written (0 when none waits)", () => {
    const { oldestAt } = deps.clicks.backlog();
    // oldestAt is a click's time, from the same clock
    return oldestAt === null ? 0 : Math.max(0, (deps.clock.now().getTime() - oldestAt) / 1000);
  });
  metrics.gauge(
    "click_journal_memory_clicks",
    "Clicks waiting for the database that this node holds in memory (at most JOURNAL_MEMORY_CLICKS)",
    () => deps.clicks.memory().clicks,
  );
  metrics.gauge("click_journal_spilling", "1 while more clicks wait than memory may hold: the others wait on disk only", () =>
    deps.clicks.memory().spilling ? 1 : 0,
  );
  metrics.gauge(
    "click_journal_memory_limit_clicks",
    "Clicks this node holds in memory at most for its writer (JOURNAL_MEMORY_CLICKS); past it they wait on disk only",
    () => deps.clicks.memory().limit,
  );
  // the backlog's growth between scrapes at least a second apart
  let grown: { at: number; clicks: number; rate: number | null } | null = null;
  metrics.gauge(
    "click_journal_memory_full_seconds",
    "Seconds until the clicks held in memory reach JOURNAL_MEMORY_CLICKS at the rate the backlog grew over the last scrapes (absent while it does not grow, or once past it)",
    () => {
      const { clicks, spilling, limit } = deps.clicks.memory();
      const now = { at: deps.clock.now().getTime(), clicks: deps.clicks.backlog().clicks };
      if (!grown || now.at < grown.at) grown = { ...now, rate: null };
      else if (now.at - grown.at >= 1000)
        grown = { ...now, rate: now.clicks > grown.clicks ? ((now.clicks - grown.clicks) * 1000) / (now.at - grown.at) : null };
      if (limit === null || spilling || !grown.rate) return null;
      return Math.max(0, limit - clicks) / grown.rate;
    },
  );
}

/** The outbox's depth by status, one query per scrape; the last figure read (and how stale) while the database does not answer. */
function watchOutbox(deps: Watched, metrics: Metrics): void {
  // while the database is away the depth cannot be read: the last one read is shown, and
  // outbox_depth_stale says it is (1) and since when the figure dates (outbox_depth_age_seconds)
  let depth: { at: number; rows: [{ status: "pending" | "sending" }, number][] } | null = null;
  let depthFresh = false;
  // the gauges of one scrape are read at once: they share one query
  let reading: Promise<void> | null = null;
  const readDepth = () =>
    (reading ??= (async () => {
      try {
        const rows = await rowsOf<{ status: string; n: number | string }>(
          deps.asyncDb,
          sql`select status, count(*) as n from outbox where status in ('pending', 'sending') group by status`,
        );
        const by = new Map(rows.map((r) => [r.status, Number(r.n)]));
        depth = {
          at: deps.clock.now().getTime(),
          rows: (["pending", "sending"] as const).map((status) => [{ status }, by.get(status) ?? 0]),
        };
        depthFresh = true;
      } catch {
        depthFresh = false;
      } finally {
        reading = null;
      }
    })());
  metrics.labelledGauge(
    "outbox_depth",
    "Outbox rows waiting (pending) or being sent (sending); the last figure read while the database does not answer",
    ["status"] as const,
    async () => (await readDepth(), depth?.rows ?? []),
  );
  metrics.gauge(
    "outbox_depth_stale",
    "1 while outbox_depth shows the last figure read (the database does not answer), else 0",
    async () => {
      await readDepth();
      return depth ? (depthFresh ? 0 : 1) : null;
    },
  );
  metrics.gauge("outbox_depth_age_seconds", "How old the figure outbox_depth shows is", async () => {
    await readDepth();
    return depth ? Math.max(0, (deps.clock.now().getTime() - depth.at) / 1000) : null;
  });
}

/** Whether the database answers, the build, and the leases this node holds. */
function watchNode(deps: Watched, metrics: Metrics): void {
  metrics.gauge("database_reachable", "1 while this node's database answers (within 2 s), else 0", async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 2000)));
    try {
      const ok = await Promise.race([
        rowsOf(deps.asyncDb, sql`select 1 as one`).then(
          () => true,
          () => false,
        ),
        late,
      ]);
      return ok ? 1 : 0;
    } finally {
      clearTimeout(timer);
    }
  });
  metrics.labelledGauge(
    "build_info",
    "Always 1; its labels say which build this node runs (a rolling upgrade shows both)",
    ["version", "bun"] as const,
    () => [[{ version: BUILD_VERSION, bun: Bun.version }, 1]],
  );
  metrics.labelledGauge("lease_held", "1 for each lease this node holds now, 0 for those it waits for", ["lease"] as const, () =>
    deps.cluster.leases().map(({ name, held }) => [{ lease: name }, held ? 1 : 0]),
  );
}

/** This node's PostgreSQL connections, counted by the server by their application_name. */
function watchConnections(metrics: Metrics, pg: { sql: SQL; applicationName: string }): void {
  // every connection of this node names itself (application_name), so the server can count them
  const byState = async () => {
    const rows = await pg.sql<
      { state: string | null; n: string }[]
    >`select state, count(*) as n from pg_stat_activity where application_name = ${pg.applicationName} group by state`;
    return rows.map((r) => ({ state: r.state ?? "unknown", n: Number(r.n) }));
  };
  metrics.gauge("db_connections", "PostgreSQL connections this node has open (pool, leases, listener, writer thread)", async () =>
    (await byState()).reduce((t, r) => t + r.n, 0),
  );
  // in use: running a query or inside a transaction (taken from its pool); the scrape's own query is one of them
  metrics.gauge(
    "db_pool_in_use",
    "PostgreSQL connections of this node running a query or in a transaction now (besides the scrape's own)",
    async () => Math.max(0, (await byState()).reduce((t, r) => t + (r.state === "idle" ? 0 : r.n), 0) - 1),
  );
}
