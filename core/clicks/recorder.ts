import type { Deps } from "../deps";
import { enrich, writeBatch, type PendingClick } from "./batch";
import { ClickPacker, startClickThread, unpackClicks, type ClickThread } from "./thread";
import { isTransientWriteError, salvageBatch } from "./recorder-failures";

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
  /** the writer thread, with the clicks packed as they arrive for the next hand-over to it */
  let writer: { thread: ClickThread; packed: ClickPacker } | null = null;

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
  /**
   * Hands the packed clicks to the writer thread. When it is gone they join the queue and false is
   * returned: the caller drops the writer, and this thread records and writes from then on.
   */
  function handOver(w: NonNullable<typeof writer>): boolean {
    const batch = w.packed.length ? w.packed.take() : null;
    if (!batch || w.thread.write(batch)) return true;
    queue = queue.concat(unpackClicks(batch));
    return false;
  }
  const pending = () => queue.length + (writer?.packed.length ?? 0);
  let retryAt = 0;
  const safeFlush = () => {
    soon = null;
    if (writer) {
      if (handOver(writer)) return;
      deps.log.error("click recorder: the writer thread is gone; writing clicks on this thread");
      writer = null;
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
      if (writer) writer.packed.add(click);
      else queue.push(click);
      if (pending() >= maxBatch && !soon) soon = setTimeout(safeFlush, 0);
    },
    flush,
    start(opts = {}) {
      if (timer) return;
      if (opts.offThread) {
        writer = { thread: startClickThread(deps), packed: new ClickPacker() };
        for (const c of queue) writer.packed.add(c); // recorded before the start
        queue = [];
      }
      timer = setInterval(safeFlush, writer ? threadIntervalMs : intervalMs);
      timer.unref?.();
    },
    async stop() {
      stopTimer();
      if (writer) {
        const last = writer;
        writer = null;
        if (handOver(last)) return last.thread.close();
        await last.thread.close(); // gone: what was packed is queued and written on this thread below
      }
      // a second try after a failure splits the batch, so that what can be written is (flush logs each)
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          return flush();
        } catch {}
      }
      return 0; // nothing more can be done while shutting down
    },
    get pending() {
      return pending();
    },
  };
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
