import type { Deps } from "../deps";
import { writeClicks } from "./batch";
import { ClickPacker, concatPacked, packClicks, packedLength, unpackClicks, type PackedClicks, type PendingClick } from "./packed";
import { startClickThread, type ClickThread } from "./thread";
import { isTransientWriteError, salvageBatch } from "./recorder-failures";

export interface ClickRecorder {
  /** Queues a click; never touches the database on the caller's path. */
  record(click: PendingClick): void;
  /** Queues a batch packed elsewhere (the writer thread receives them so), after what is already held. */
  recordPacked(batch: PackedClicks): void;
  /** Writes every queued click in one transaction (with the click hooks); returns how many. */
  flush(): number;
  /**
   * Flushes every `intervalMs` (25 ms), or at once past `maxBatch` (2,000) clicks, until stopped:
   * short batches keep the event-loop pauses, and so p99, small. With `offThread`, each batch is
   * handed every `threadIntervalMs` (100 ms), or at once past `threadBatch` (10,000) clicks, to a
   * worker thread with its own database connection that writes it the same way (`flush()` still
   * writes on the caller's thread). There the batches are large on purpose: a transaction has a
   * fixed cost (links, counters, roll-up rows, the commit), and batches of ~8,000 instead of 2,000
   * cut the server's CPU per redirect by about 0.5 µs under load.
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
 * the visitor rows that decide `is_unique`, the counters on the links, and every CLICK_HOOK. Clicks
 * are packed as they are recorded (ClickPacker), in both modes, and written from that form.
 */
export function createClickRecorder(deps: Deps, opts: { intervalMs?: number; threadIntervalMs?: number; maxBatch?: number; threadBatch?: number } = {}): ClickRecorder {
  const intervalMs = opts.intervalMs ?? 25;
  const threadIntervalMs = opts.threadIntervalMs ?? 100;
  const maxBatch = opts.maxBatch ?? 2000;
  const threadBatch = opts.threadBatch ?? 10_000;
  const packer = new ClickPacker();
  /** clicks taken from the packer or handed in, not written yet: what a failed write keeps for the next try */
  let held: PackedClicks | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let soon: ReturnType<typeof setTimeout> | null = null;
  /** the writer thread, when the clicks are written off this thread */
  let thread: ClickThread | null = null;

  /** Everything queued, oldest first, as one batch (null when nothing is). */
  function take(): PackedClicks | null {
    let batch = held;
    held = null;
    if (packer.length) batch = batch ? concatPacked(batch, packer.take()) : packer.take();
    return batch;
  }

  let failures = 0; // writes in a row that failed for a reason that is not transient
  function flush(): number {
    const batch = take();
    if (!batch) return 0;
    try {
      const n = writeClicks(deps, batch);
      failures = 0;
      return n;
    } catch (e) {
      if (/closed/i.test((e as Error).message)) {
        deps.log.error(`click recorder: database closed, ${packedLength(batch)} clicks not written`);
        stopTimer();
        return 0;
      }
      // failing again, and not for a passing reason (e.g. a hook that throws for one click): split it
      failures = isTransientWriteError(e) ? 0 : failures + 1;
      if (failures >= 2) {
        deps.log.error(`click recorder: flush of ${packedLength(batch)} clicks failed again, splitting the batch`, e);
        const salvaged = salvageBatch(deps.log, unpackClicks(batch), (part) => writeClicks(deps, packClicks(part)));
        if (!salvaged.retry.length) {
          failures = 0;
          return salvaged.written;
        }
        held = packClicks(salvaged.retry);
        e = salvaged.error;
      } else held = batch; // kept for the next flush
      deps.log.error(`click recorder: flush of ${packedLength(held)} clicks failed, will retry`, e);
      throw e;
    }
  }
  /**
   * Hands what is queued to the writer thread. When it is gone the batch is held here and false is
   * returned: the caller drops the thread, and this thread writes from then on.
   */
  function handOver(t: ClickThread): boolean {
    const batch = take();
    if (!batch || t.write(batch)) return true;
    held = batch;
    return false;
  }
  const pending = () => (held ? packedLength(held) : 0) + packer.length;
  let retryAt = 0;
  const safeFlush = () => {
    soon = null;
    if (thread) {
      if (handOver(thread)) return;
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
      packer.add(click);
      if (pending() >= (thread ? threadBatch : maxBatch) && !soon) soon = setTimeout(safeFlush, 0);
    },
    recordPacked(batch) {
      held = held ? concatPacked(held, batch) : batch;
    },
    flush,
    start(opts = {}) {
      if (timer) return;
      if (opts.offThread) thread = startClickThread(deps); // what was recorded before goes with the first hand-over
      timer = setInterval(safeFlush, thread ? threadIntervalMs : intervalMs);
      timer.unref?.();
    },
    async stop() {
      stopTimer();
      if (thread) {
        const last = thread;
        thread = null;
        if (handOver(last)) return last.close();
        await last.close(); // gone: what was queued is held and written on this thread below
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
