import { accessSync, constants, statSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import type { Config } from "../../config";
import { briefError, createRepeatLog, type Logger } from "../log";
import { openClickJournal, type ClickJournal } from "./journal";
import { cutClick } from "./journal-format";
import { ClickPacker, lastSeqOf, packClicks, unpackClicks, type PackedClicks, type PendingClick } from "./packed";
import { journalCursor, type JournalCursor } from "./journal-cursor";
import { replayJournal } from "./replay";
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

/** Clicks answered within this many ms share one entry of the backlog's timeline. */
const BACKLOG_STEP_MS = 50;

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
  /** clicks read from disk at a time while spilling: a live batch's size (see nextFromDisk) */
  let spillPart = maxBatch;
  const packer = new ClickPacker();
  let writer: ClickWriter | null = null;
  const writerOf = () => (writer ??= opts.writer());
  let queue: ReturnType<typeof createWriteQueue> | null = null;
  /** the sequence number of the last click journaled, and of the last one committed */
  let lastSeq = 0;
  let committedSeq = 0;
  /** when clicks were answered: each entry's `at` holds for the clicks from its `seq` up to the next entry's */
  const timeline: { seq: number; at: number }[] = [];
  const events: WriterEvents = {
    committed(seq, clicks) {
      if (seq > 0) {
        journal?.committed(seq);
        if (seq > committedSeq) committedSeq = seq;
        while (timeline.length > 1 && timeline[1]!.seq <= committedSeq + 1) timeline.shift();
      }
      opts.written?.written(clicks);
    },
    dropped: (clicks) => opts.written?.dropped(clicks),
  };
  const queueOf = () => (queue ??= createWriteQueue(writerOf(), log, events.committed, events.dropped));
  let journal: ClickJournal | null = null;
  let thread: ClickThread | null = null;
  /** the last sequence number handed to the writer thread; while `spilling`, what is above it waits in the journal only */
  let handedSeq = 0;
  let spilling = false;
  let cursor: JournalCursor | null = null;
  const memoryCap = opts.config.journalMemoryClicks ?? 200_000;
  let timer: ReturnType<typeof setInterval> | null = null;
  let soon: ReturnType<typeof setTimeout> | null = null;
  let retryAt = 0;
  /** the writer thread was lost and what it held is not yet written back from the journal */
  let replayOwed = false;
  const repeat = createRepeatLog(log);

  const pending = () => packer.length + (queue?.pending ?? 0);

  async function flush(): Promise<number> {
    if (packer.length) {
      const batch = packer.take();
      handedSeq = Math.max(handedSeq, lastSeqOf(batch));
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
      const { lastSeq } = await replayJournal(opts.journalDir!, writerOf(), queueOf(), log, dropPacked);
      // what was packed before the journal was read has just been written from it
      const rest = unpackClicks(packer.take()).filter((c) => c.seq > lastSeq);
      for (const c of rest) packer.add(c, c.seq);
      handedSeq = Math.max(handedSeq, lastSeq);
      replayOwed = false;
      // the write-back read the journal up to its newest click: nothing waits on disk only any more
      spilling = false;
    } catch (e) {
      retryAt = Date.now() + 1000;
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
        if (Date.now() >= retryAt) await catchUp();
        // every click packed is in the journal, where the next try reads it
        if (replayOwed) return void packer.take();
      }
      const overCap = () => spilling || (cursor !== null && packer.length > 0 && lastSeq - committedSeq > memoryCap);
      if (thread) {
        // a thread found gone may have taken batches with it that it never wrote: the journal has them
        if (thread.gone) await threadLost(packer.take());
        else {
          if (overCap()) return await spillTo(thread);
          if (!packer.length) return;
          const batch = packer.take();
          handedSeq = Math.max(handedSeq, lastSeqOf(batch));
          if (thread.write(batch)) return;
          await threadLost(batch);
        }
      }
      if (!thread && overCap()) feedQueue();
      if (Date.now() < retryAt) return;
      try {
        // while spilling, the queue holds what was fed from disk, and nothing is packed
        await (spilling ? queueOf().flush() : flush());
      } catch {
        retryAt = Date.now() + 1000; // logged; retried a second later with what has queued since
      }
      if (spilling) caughtUp();
    } finally {
      ticking = false;
    }
  };

  /**
   * More clicks wait than memory may hold (JOURNAL_MEMORY_CLICKS; the database is away or slow): the
   * packed ones are let go, as every one of them is in the journal, and the writer is fed from the
   * journal on disk as it commits, until it has caught up with the newest click: a part of at most
   * `spillPart` clicks at a time, with at most two parts (and never more than half the cap) handed
   * over and not yet committed, so what the writer holds, and each of its transactions, stays that
   * size however large the backlog (handed 100,000 clicks at a time, the writer thread of a node
   * catching up after a long outage grew to 612 MB).
   */
  function nextFromDisk(): PackedClicks | null {
    if (!spilling) {
      spilling = true;
      log.warn(
        `click journal: more than ${memoryCap} clicks wait for the database; the others wait on disk only until the writer catches up`,
      );
    }
    packer.take();
    const room = Math.min(Math.floor(memoryCap / 2), 2 * spillPart) - (handedSeq - committedSeq);
    if (room <= 0 || !cursor) return null;
    const part = cursor.read(handedSeq, Math.min(room, spillPart));
    if (!part.length) return null;
    handedSeq = part[part.length - 1]!.seq;
    return packClicks(part);
  }

  function caughtUp() {
    if (spilling && handedSeq >= lastSeq) {
      spilling = false;
      log.info("click journal: the writer has caught up; clicks wait in memory again");
    }
  }

  /** The writer thread's side of a spill: the next part from disk, handed over. */
  async function spillTo(to: ClickThread) {
    const batch = nextFromDisk();
    if (batch && !to.write(batch)) return threadLost(batch);
    caughtUp();
  }

  /** Without the writer thread: the next part from disk goes to this thread's write queue (flushed by the tick). */
  function feedQueue() {
    const batch = nextFromDisk();
    if (batch) queueOf().add(batch);
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
        lastSeq = seq;
        // when it was answered: the click's own time (a clock read per click costs more than the rest of this)
        const at = c.clickedAt.getTime();
        // the first click after everything was written starts the timeline afresh: an entry left from
        // before a quiet spell would date this click to then
        if (seq - 1 <= committedSeq) timeline.length = 0;
        const last = timeline[timeline.length - 1];
        if (!last || at - last.at >= BACKLOG_STEP_MS) timeline.push({ seq, at });
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
        lastSeq = committedSeq = handedSeq = Math.max(lastSeq, committedSeq, replayed.lastSeq);
        cursor = journalCursor(opts.journalDir);
      }
      if (startOpts.offThread) {
        if (!opts.threadEntry) throw new Error("click sink: no writer thread entry configured");
        thread = startClickThread(opts.threadEntry, opts.config, log, events);
        spillPart = threadBatch;
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
        const batch = packer.length && !spilling ? packer.take() : null;
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
      if (spilling) packer.take();
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
      const clicks = Math.max(0, lastSeq - committedSeq);
      return { clicks, oldestAt: clicks && timeline.length ? timeline[0]!.at : null };
    },
    memory() {
      // with a journal, what was handed over and not yet committed (queued, or being written); without one, what is queued
      const handed = journal ? Math.max(0, handedSeq - committedSeq) : (queue?.pending ?? 0);
      return { clicks: packer.length + handed, spilling, limit: cursor ? memoryCap : null };
    },
    journalWritable() {
      if (!opts.journalDir) return true;
      for (let dir = opts.journalDir; ; dir = dirname(dir)) {
        try {
          if (!statSync(dir).isDirectory()) return false;
          accessSync(dir, constants.W_OK);
          return true;
        } catch (e) {
          if ((e as { code?: string }).code !== "ENOENT" || dirname(dir) === dir) return false;
        }
      }
    },
  };
}
