import { unlinkSync } from "node:fs";
import type { Config } from "../../config";
import { briefError, createRepeatLog, type Logger } from "../log";
import { openClickJournal, type ClickJournal } from "./journal";
import { cutClick } from "./journal-format";
import { ClickPacker, lastSeqOf, unpackClicks, type PackedClicks, type PendingClick } from "./packed";
import { journalCursor, type JournalCursor } from "./journal-cursor";
import { replayJournal } from "./replay";
import { BacklogTimeline } from "./backlog-timeline";
import { DiskFeed, type SinkMarks } from "./disk-feed";
import { dirWritable } from "./journal-disk";
import { startClickThread, type ClickThread, type WriterEvents } from "./thread";
import { createWriteQueue } from "./write-queue";
import type { ClickWriter } from "./writer";

/** The request side of the click pipeline: where the redirect puts a click before it answers. */
export interface ClickSink {
  /** Journals the click (once started with a journal) and queues it; never touches the database. */
  record(click: PendingClick): void;
  /** Writes every queued click on this thread, in one transaction; resolves to how many. */
  flush(): Promise<number>;
  /**
   * Replays what the journal holds and the database has not committed, opens a fresh journal, and
   * hands batches over every `intervalMs` (25 ms), or at once past `maxBatch` (2,000) clicks. With
   * `offThread`, batches go every `threadIntervalMs` (100 ms), or at once past `threadBatch` (10,000)
   * clicks, to a writer thread with its own connection; large on purpose there, since each
   * transaction has a fixed cost (links, counters, roll-up rows, the commit).
   */
  start(opts?: { offThread?: boolean }): Promise<void>;
  /** Stops the timer, lets the writer write everything queued and resolves to how many that last write took. Never rejects. */
  stop(): Promise<number>;
  readonly pending: number;
  /**
   * Clicks answered and not yet committed to the database (journaled, queued, or with the writer),
   * and when the oldest of them was answered (ms since the epoch, to about 50 ms; null when none).
   */
  backlog(): { clicks: number; oldestAt: number | null };
  /** Clicks held in memory for the writer (packed here, or handed to it and not yet committed), whether more wait on disk only, and the cap (JOURNAL_MEMORY_CLICKS; null without a journal, where nothing can wait on disk). */
  memory(): { clicks: number; spilling: boolean; limit: number | null };
  /** Whether an answered click can be journaled now: the journal's directory (or, before it is made, the nearest one above it) is writable; true without a journal. */
  journalWritable(): boolean;
}

export interface ClickSinkOptions {
  log: Logger;
  config: Config;
  /** the writer on the request thread's connection (replay, tests, and the fallback when the thread is gone); made on first use */
  writer: () => ClickWriter;
  /** where the journal lives; null: no journal (a crash loses what is queued) */
  journalDir: string | null;
  /** the writer thread's entry module (app/click-writer-thread.ts), for `start({ offThread: true })` */
  threadEntry?: string;
  intervalMs?: number;
  threadIntervalMs?: number;
  maxBatch?: number;
  threadBatch?: number;
  segmentBytes?: number;
  /** hears what the writer committed and gave up on (the service's metrics) */
  written?: { written(clicks: number): void; dropped(clicks: number): void };
}

/**
 * The click sink: each click is appended to the journal and packed into the current batch
 * (ClickPacker: numbers in typed arrays and each distinct string once), and the batch is handed to
 * the writer (a thread, or this thread's write queue). The journal makes an answered click survive
 * the process being killed; the writer's mark, committed with each batch, says which journaled
 * clicks are stored, so replay at start writes each missing one exactly once.
 */
export function createClickSink(opts: ClickSinkOptions): ClickSink {
  const { log } = opts;
  const intervalMs = opts.intervalMs ?? 25;
  const threadIntervalMs = opts.threadIntervalMs ?? 100;
  const maxBatch = opts.maxBatch ?? 2000;
  const threadBatch = opts.threadBatch ?? 10_000;
  const packer = new ClickPacker();
  let writer: ClickWriter | null = null;
  const writerOf = () => (writer ??= opts.writer());
  let queue: ReturnType<typeof createWriteQueue> | null = null;
  const marks: SinkMarks = { lastSeq: 0, committedSeq: 0, handedSeq: 0 };
  /** when the clicks not yet committed were answered */
  const timeline = new BacklogTimeline();
  const events: WriterEvents = {
    committed(seq, clicks) {
      if (seq > 0) {
        journal?.committed(seq);
        if (seq > marks.committedSeq) marks.committedSeq = seq;
        timeline.committed(marks.committedSeq);
      }
      opts.written?.written(clicks);
    },
    dropped: (clicks) => opts.written?.dropped(clicks),
  };
  const queueOf = () => (queue ??= createWriteQueue(writerOf(), log, events.committed, events.dropped));
  let journal: ClickJournal | null = null;
  let thread: ClickThread | null = null;
  let cursor: JournalCursor | null = null;
  const memoryCap = opts.config.journalMemoryClicks ?? 200_000;
  const feed = new DiskFeed(marks, memoryCap, maxBatch, log);
  let timer: ReturnType<typeof setInterval> | null = null;
  let soon: ReturnType<typeof setTimeout> | null = null;
  /** when to try writing again after a failure, on the monotonic clock (performance.now: a pause, not a time of day) */
  let retryAt = 0;
  /** the writer thread was lost and what it held is not yet written back from the journal */
  let replayOwed = false;
  const repeat = createRepeatLog(log);

  const pending = () => packer.length + (queue?.pending ?? 0);

  async function flush(): Promise<number> {
    if (packer.length) {
      const batch = packer.take();
      marks.handedSeq = Math.max(marks.handedSeq, lastSeqOf(batch));
      queueOf().add(batch);
    }
    return queue ? queue.flush() : 0;
  }

  /**
   * The writer thread is gone, with whatever it held: with a journal, what it did not commit is read
   * back from the journal (which also holds everything queued here), so nothing is lost or doubled;
   * without one, what is queued here is written on this thread from now on.
   */
  async function threadLost(batch: PackedClicks) {
    log.error("click writer thread is gone; writing clicks on this thread");
    thread = null;
    if (!journal || !opts.journalDir) return queueOf().add(batch);
    replayOwed = true;
    await catchUp();
  }

  /**
   * Writes back from the journal what the lost thread did not commit (the journal also holds
   * everything packed here), streaming it a part at a time (replay.ts), up to the newest click.
   * Until that has gone through (the database may be out of reach), newer clicks wait in the journal
   * only: written first, they would move the mark past the ones still owed, and held in memory they
   * would grow with the outage. What is packed meanwhile is let go, as the journal has every one.
   */
  async function catchUp() {
    try {
      const dropPacked = () => void packer.take();
      const { lastSeq: upTo } = await replayJournal(opts.journalDir!, writerOf(), queueOf(), log, dropPacked);
      // what was packed before the journal was read has just been written from it
      const rest = unpackClicks(packer.take()).filter((c) => c.seq > upTo);
      for (const c of rest) packer.add(c, c.seq);
      marks.handedSeq = Math.max(marks.handedSeq, upTo);
      replayOwed = false;
      // the write-back read the journal up to its newest click: nothing waits on disk only any more
      feed.spilling = false;
    } catch (e) {
      retryAt = performance.now() + 1000;
      repeat(
        "error",
        "catch-up",
        "click journal: could not write back what the writer thread left yet; trying again every second",
        briefError(e),
      );
    }
  }

  // one tick at a time: a tick that finds the previous one still writing leaves the clicks packed
  let ticking = false;
  const tick = async () => {
    soon = null;
    if (ticking) return;
    ticking = true;
    try {
      if (replayOwed) {
        if (performance.now() >= retryAt) await catchUp();
        // every click packed is in the journal, where the next try reads it
        if (replayOwed) return void packer.take();
      }
      if (thread) {
        // a thread found gone may have taken batches with it that it never wrote: the journal has them
        if (thread.gone) await threadLost(packer.take());
        else {
          if (feed.due(cursor, packer.length)) {
            packer.take(); // each is in the journal, read back as the writer catches up
            return await spillTo(thread);
          }
          if (!packer.length) return;
          const batch = packer.take();
          marks.handedSeq = Math.max(marks.handedSeq, lastSeqOf(batch));
          if (thread.write(batch)) return;
          await threadLost(batch);
        }
      }
      // spilling without the writer thread: the next part from disk goes to this thread's write queue
      if (!thread && feed.due(cursor, packer.length)) {
        packer.take();
        const batch = feed.next(cursor);
        if (batch) queueOf().add(batch);
      }
      if (performance.now() < retryAt) return;
      try {
        // while spilling, the queue holds what was fed from disk, and nothing is packed
        await (feed.spilling ? queueOf().flush() : flush());
      } catch {
        retryAt = performance.now() + 1000; // logged; retried a second later with what has queued since
      }
      feed.caughtUp();
    } finally {
      ticking = false;
    }
  };

  /** Spilling (disk-feed.ts), the writer thread's side: the next part from disk, handed over. */
  async function spillTo(to: ClickThread) {
    const batch = feed.next(cursor);
    if (batch && !to.write(batch)) return threadLost(batch);
    feed.caughtUp();
  }

  function stopTimer() {
    if (timer) clearInterval(timer);
    if (soon) clearTimeout(soon);
    timer = soon = null;
  }

  return {
    record(click) {
      const c = cutClick(click);
      const seq = journal ? journal.append(c) : 0;
      packer.add(c, seq);
      if (seq) {
        marks.lastSeq = seq;
        // when it was answered: the click's own time (a clock read per click costs more than the rest of this)
        timeline.answered(seq, c.clickedAt.getTime(), marks.committedSeq);
      }
      if (packer.length >= (thread ? threadBatch : maxBatch) && !soon) soon = setTimeout(() => void tick(), 0);
    },
    flush,
    async start(startOpts = {}) {
      if (timer) return;
      if (opts.journalDir) {
        const replayed = await replayJournal(opts.journalDir, writerOf(), queueOf(), log);
        for (const path of replayed.segments) unlinkSync(path);
        journal = openClickJournal(opts.journalDir, replayed.lastSeq + 1, { segmentBytes: opts.segmentBytes });
        // what the journal held is written now: the backlog starts empty
        marks.lastSeq = marks.committedSeq = marks.handedSeq = Math.max(marks.lastSeq, marks.committedSeq, replayed.lastSeq);
        cursor = journalCursor(opts.journalDir);
      }
      if (startOpts.offThread) {
        if (!opts.threadEntry) throw new Error("click sink: no writer thread entry configured");
        thread = startClickThread(opts.threadEntry, opts.config, log, events);
        feed.part = threadBatch;
      }
      timer = setInterval(() => void tick(), thread ? threadIntervalMs : intervalMs);
      timer.unref?.();
    },
    async stop() {
      stopTimer();
      let flushed = 0;
      if (thread) {
        const last = thread;
        thread = null;
        // while spilling, what is packed waits in the journal for the next start: written now, it would move the mark past the clicks on disk
        const batch = packer.length && !feed.spilling ? packer.take() : null;
        if (!batch || last.write(batch)) {
          flushed = await last.close();
          journal?.close();
          return flushed;
        }
        await last.close();
        await threadLost(batch);
      }
      if (replayOwed) await catchUp();
      if (replayOwed) {
        // written now, the packed clicks would move the mark past the ones owed: all of them wait in the journal for the next start
        journal?.close();
        return 0;
      }
      // while spilling, what is packed waits in the journal for the next start, as above
      if (feed.spilling) packer.take();
      // the first waits for a write under way; a second try after a failure splits the batch, so
      // that what can be written is (the queue logs each)
      for (let attempt = 0; attempt < 2 && (attempt === 0 || pending()); attempt++) {
        try {
          flushed += await flush();
        } catch {}
      }
      journal?.close();
      return flushed;
    },
    get pending() {
      return pending();
    },
    backlog() {
      if (!journal) return { clicks: pending(), oldestAt: null };
      const clicks = Math.max(0, marks.lastSeq - marks.committedSeq);
      return { clicks, oldestAt: clicks ? timeline.oldestAt() : null };
    },
    memory() {
      // with a journal, what was handed over and not yet committed (queued, or being written); without one, what is queued
      const handed = journal ? Math.max(0, marks.handedSeq - marks.committedSeq) : (queue?.pending ?? 0);
      return { clicks: packer.length + handed, spilling: feed.spilling, limit: cursor ? memoryCap : null };
    },
    journalWritable() {
      return !opts.journalDir || dirWritable(opts.journalDir);
    },
  };
}
