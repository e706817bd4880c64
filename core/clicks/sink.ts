import { unlinkSync } from "node:fs";
import type { Config } from "../../config";
import type { Logger } from "../log";
import { openClickJournal, type ClickJournal } from "./journal";
import { cutClick } from "./journal-format";
import { ClickPacker, type PendingClick } from "./packed";
import { journalCursor, type JournalCursor } from "./journal-cursor";
import { replayJournal } from "./replay";
import { DiskFeed } from "./disk-feed";
import { dirWritable } from "./journal-disk";
import { ClickMarks } from "./sink-marks";
import { WriterSupervisor } from "./supervisor";
import { SinkTicks } from "./sink-ticks";
import type { WriterEvents } from "./thread";
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
 * (ClickPacker: numbers in typed arrays and each distinct string once), and a timer hands the batch
 * to the writer supervisor (supervisor.ts: the writer thread, or this thread's write queue, loss and
 * catch-up). The journal makes an answered click survive the process being killed; the writer's
 * mark, committed with each batch, says which journaled clicks are stored (ClickMarks), so replay at
 * start writes each missing one exactly once.
 */
export function createClickSink(opts: ClickSinkOptions): ClickSink {
  const intervalMs = opts.intervalMs ?? 25;
  const threadIntervalMs = opts.threadIntervalMs ?? 100;
  const maxBatch = opts.maxBatch ?? 2000;
  const threadBatch = opts.threadBatch ?? 10_000;
  const memoryCap = opts.config.journalMemoryClicks ?? 200_000;
  const packer = new ClickPacker();
  const marks = new ClickMarks();
  const feed = new DiskFeed(marks, memoryCap, maxBatch, opts.log);
  let journal: ClickJournal | null = null;
  let cursor: JournalCursor | null = null;
  const events: WriterEvents = {
    committed(seq, clicks) {
      if (seq > 0) journal?.committed(seq);
      marks.committed(seq);
      opts.written?.written(clicks);
      if (feed.spilling) ticks.nextPart();
    },
    dropped: (clicks) => opts.written?.dropped(clicks),
  };
  const writer = new WriterSupervisor({
    log: opts.log,
    writer: opts.writer,
    journalDir: opts.journalDir,
    packer,
    marks,
    feed,
    cursor: () => cursor,
    events,
  });
  const pending = () => packer.length + writer.queued;

  const ticks = new SinkTicks(writer, () => feed.spilling);

  return {
    record(click) {
      const c = cutClick(click);
      const seq = journal ? journal.append(c) : 0;
      packer.add(c, seq);
      // when it was answered: the click's own time
      if (seq) marks.answered(seq, c.clickedAt.getTime());
      if (packer.length >= (writer.onThread ? threadBatch : maxBatch)) ticks.now();
    },
    flush: () => writer.flushHere(),
    async start(startOpts = {}) {
      if (ticks.started) return;
      if (opts.journalDir) {
        const replayed = await replayJournal(opts.journalDir, writer.writerHere(), writer.queueHere(), opts.log);
        for (const path of replayed.segments) unlinkSync(path);
        journal = openClickJournal(opts.journalDir, replayed.lastSeq + 1, { segmentBytes: opts.segmentBytes });
        // what the journal held is written now: the backlog starts empty
        marks.startAt(replayed.lastSeq);
        cursor = journalCursor(opts.journalDir);
      }
      if (startOpts.offThread) {
        if (!opts.threadEntry) throw new Error("click sink: no writer thread entry configured");
        writer.startThread(opts.threadEntry, opts.config);
        feed.part = threadBatch;
      }
      ticks.start(writer.onThread ? threadIntervalMs : intervalMs);
    },
    async stop() {
      ticks.stop();
      return writer.close(() => journal?.close());
    },
    get pending() {
      return pending();
    },
    backlog() {
      return journal ? marks.backlog() : { clicks: pending(), oldestAt: null };
    },
    memory() {
      // with a journal, what was handed over and not yet committed (queued, or being written); without one, what is queued
      const handed = journal ? marks.inFlight() : writer.queued;
      return { clicks: packer.length + handed, spilling: feed.spilling, limit: cursor ? memoryCap : null };
    },
    journalWritable() {
      return !opts.journalDir || dirWritable(opts.journalDir);
    },
  };
}
