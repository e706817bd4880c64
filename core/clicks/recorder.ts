import { inArray } from "drizzle-orm";
import type { Statement } from "bun:sqlite";
import type { Deps } from "../deps";
import { links, type ClickRow, type LinkRow } from "../../db/schema";
import { deviceOf, geoOf } from "./enrich";
import { CLICK_HOOKS, runClickHooks, type Tx } from "./hooks";
import { startClickThread, type ClickThread } from "./thread";
import { isTransientWriteError, salvageBatch } from "./recorder-failures";

/** What the redirect knows about a click; the rest (geo, device, uniqueness) is worked out when flushing. */
export interface PendingClick {
  linkId: number;
  clickedAt: Date;
  ip: string | null;
  userAgent: string | null;
  referer: string | null;
  isBot: boolean;
  botName: string | null;
}

export const UNIQUE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface ClickRecorder {
  /** Queues a click; never touches the database on the caller's path. */
  record(click: PendingClick): void;
  /** Writes every queued click in one transaction (with the click hooks); returns how many. */
  flush(): number;
  /**
   * Flushes every `intervalMs` (25 ms: short batches keep the event-loop pauses, and so p99, small)
   * until stopped. With `offThread`, each batch is handed every `threadIntervalMs` (100 ms: each
   * hand-over costs the request thread a wake-up of the writer) to a worker thread with its own
   * database connection that writes it the same way (`flush()` still writes on the caller's thread).
   */
  start(opts?: { offThread?: boolean }): void;
  /**
   * Stops the timer and writes what is queued (graceful shutdown), waiting for the worker thread to
   * write what it holds; resolves to how many clicks that final write took. Never rejects.
   */
  stop(): Promise<number>;
  readonly pending: number;
}

/**
 * An in-memory batch of clicks and its flusher. A batch is written in one transaction: the clicks,
 * the visitor rows that decide `is_unique`, the counters on the links, and every CLICK_HOOK.
 */
export function createClickRecorder(deps: Deps, opts: { intervalMs?: number; threadIntervalMs?: number; maxBatch?: number } = {}): ClickRecorder {
  const intervalMs = opts.intervalMs ?? 25;
  const threadIntervalMs = opts.threadIntervalMs ?? 100;
  const maxBatch = opts.maxBatch ?? 2000;
  let queue: PendingClick[] = [];
  let timer: ReturnType<typeof setInterval> | null = null;
  let soon: ReturnType<typeof setTimeout> | null = null;
  let thread: ClickThread | null = null;

  let failures = 0; // writes in a row that failed for a reason that is not transient
  function write(batch: PendingClick[]) {
    const rows = batch.map((c) => enrich(deps, c));
    deps.db.transaction((tx) => writeBatch(tx, deps, rows));
  }
  function flush(): number {
    if (!queue.length) return 0;
    const batch = queue;
    queue = [];
    try {
      write(batch);
      failures = 0;
      return batch.length;
    } catch (e) {
      if (/closed/i.test((e as Error).message)) {
        deps.log.error(`click recorder: database closed, ${batch.length} clicks not written`);
        stopTimer();
        return 0;
      }
      // failing again, and not for a passing reason (e.g. a hook that throws for one click): split it
      failures = isTransientWriteError(e) ? 0 : failures + 1;
      if (failures >= 2) {
        deps.log.error(`click recorder: flush of ${batch.length} clicks failed again, splitting the batch`, e);
        const salvaged = salvageBatch(deps.log, batch, write);
        queue = salvaged.retry.concat(queue);
        if (!salvaged.retry.length) {
          failures = 0;
          return salvaged.written;
        }
        e = salvaged.error;
      } else queue = batch.concat(queue); // keep them for the next flush
      deps.log.error(`click recorder: flush of ${queue.length} clicks failed, will retry`, e);
      throw e;
    }
  }
  let retryAt = 0;
  const safeFlush = () => {
    soon = null;
    if (thread) {
      if (!queue.length || thread.write(queue)) {
        queue = [];
        return;
      }
      deps.log.error("click recorder: the writer thread is gone; writing clicks on this thread");
      thread = null;
    }
    if (Date.now() < retryAt) return;
    try {
      flush();
    } catch {
      retryAt = Date.now() + 1000; // logged; retried a second later with what has queued since
    }
  };
  function stopTimer() {
    if (timer) clearInterval(timer);
    if (soon) clearTimeout(soon);
    timer = soon = null;
  }

  return {
    record(click) {
      queue.push(click);
      if (queue.length >= maxBatch && !soon) soon = setTimeout(safeFlush, 0);
    },
    flush,
    start(opts = {}) {
      if (timer) return;
      if (opts.offThread) thread = startClickThread(deps);
      timer = setInterval(safeFlush, thread ? threadIntervalMs : intervalMs);
      timer.unref?.();
    },
    async stop() {
      stopTimer();
      if (thread) {
        const last = thread;
        thread = null;
        if (!queue.length || last.write(queue)) {
          queue = [];
          return last.close();
        }
        await last.close(); // gone: what is queued is written on this thread below
      }
      try {
        return flush();
      } catch {
        // logged by flush; a second failure splits the batch so that what can be written is
        try {
          return flush();
        } catch {
          return 0; // logged by flush; nothing more can be done while shutting down
        }
      }
    },
    get pending() {
      return queue.length;
    },
  };
}

/** A visitor is IP + User-Agent; only a 64-bit hash of the pair is kept, to decide uniqueness. */
function visitorHash(ip: string | null, userAgent: string | null): string {
  return Bun.hash(`${ip ?? ""}\n${userAgent ?? ""}`).toString(16);
}

function enrich(deps: Deps, c: PendingClick): Enriched {
  const geo = geoOf(deps.config.geoipDb, c.ip);
  const dev = deviceOf(c.userAgent, c.isBot);
  const row: ClickRow = {
    id: 0, // set when inserted
    linkId: c.linkId,
    clickedAt: c.clickedAt,
    ip: c.ip,
    country: geo.country,
    city: geo.city,
    device: dev.device,
    browser: dev.browser,
    os: dev.os,
    referer: c.referer?.slice(0, 2048) ?? null,
    userAgent: c.userAgent?.slice(0, 1024) ?? null,
    isBot: c.isBot,
    botName: c.botName,
    isUnique: false,
  };
  return { row, visitorHash: visitorHash(c.ip, c.userAgent) };
}

/** Prepared statements of the flusher, one set per connection (drizzle's builder is too slow per row here). */
function statementsOf(deps: Deps) {
  let st = statements.get(deps.db);
  if (!st) {
    const db = deps.db.$client;
    st = {
      visitor: db.prepare("select last_unique_at as at from click_visitors where link_id = ? and visitor_hash = ?"),
      upsertVisitor: db.prepare("insert into click_visitors (link_id, visitor_hash, last_unique_at) values (?, ?, ?) on conflict (link_id, visitor_hash) do update set last_unique_at = excluded.last_unique_at"),
      insert: db.prepare(
        "insert into clicks (link_id, clicked_at, ip, country, city, device, browser, os, referer, user_agent, is_bot, bot_name, is_unique) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      alive: db.prepare("select id from links where id = ?"),
      count: db.prepare("update links set total_clicks = total_clicks + ?, unique_clicks = unique_clicks + ?, bot_clicks = bot_clicks + ? where id = ?"),
    };
    statements.set(deps.db, st);
  }
  return st;
}
const statements = new WeakMap<object, Record<"visitor" | "upsertVisitor" | "insert" | "alive" | "count", Statement>>();

type Enriched = { row: ClickRow; visitorHash: string };

function writeBatch(tx: Tx, deps: Deps, rows: Enriched[]) {
  const st = statementsOf(deps);
  const alive = new Set([...new Set(rows.map((r) => r.row.linkId))].filter((id) => st.alive.get(id)));
  const lastUnique = new Map<string, number>();
  const inserted: ClickRow[] = [];
  const counts = new Map<number, { total: number; unique: number; bots: number }>();
  for (const { row: r, visitorHash } of rows) {
    if (!alive.has(r.linkId)) continue; // clicks of links deleted meanwhile are dropped
    const at = r.clickedAt.getTime();
    if (!r.isBot) {
      const key = `${r.linkId}:${visitorHash}`;
      let last = lastUnique.get(key);
      if (last === undefined) last = (st.visitor.get(r.linkId, visitorHash) as { at: number } | null)?.at ?? -Infinity;
      if (at - last! >= UNIQUE_WINDOW_MS) {
        r.isUnique = true;
        last = at;
        st.upsertVisitor.run(r.linkId, visitorHash, at);
      }
      lastUnique.set(key, last!);
    }
    const res = st.insert.run(r.linkId, at, r.ip, r.country, r.city, r.device, r.browser, r.os, r.referer, r.userAgent, r.isBot ? 1 : 0, r.botName, r.isUnique ? 1 : 0);
    r.id = Number(res.lastInsertRowid);
    inserted.push(r);
    const n = counts.get(r.linkId) ?? { total: 0, unique: 0, bots: 0 };
    n.total++;
    if (r.isUnique) n.unique++;
    if (r.isBot) n.bots++;
    counts.set(r.linkId, n);
  }
  for (const [id, n] of counts) st.count.run(n.total, n.unique, n.bots, id);
  if (!inserted.length || !CLICK_HOOKS.length) return;
  const linkRows = new Map<number, LinkRow>(tx.select().from(links).where(inArray(links.id, [...counts.keys()])).all().map((l) => [l.id, l]));
  runClickHooks(tx, deps, inserted.map((click) => ({ click, link: linkRows.get(click.linkId)! })));
}

const recorders = new WeakMap<Deps, ClickRecorder>();

/**
 * The click recorder of this set of dependencies (one per running service): the visitor routes
 * record into it, main.ts starts it and stops it (flushing) on shutdown, tests flush it.
 */
export function clickRecorderFor(deps: Deps): ClickRecorder {
  let r = recorders.get(deps);
  if (!r) recorders.set(deps, (r = createClickRecorder(deps)));
  return r;
}
