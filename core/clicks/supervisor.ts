import type { Config } from "../../config";
import { briefError, createRepeatLog, type Logger } from "../log";
import type { DiskFeed } from "./disk-feed";
import type { JournalCursor } from "./journal-cursor";
import { unpackClicks, type ClickPacker, type PackedClicks } from "./packed";
import { replayJournal } from "./replay";
import type { ClickMarks } from "./sink-marks";
import { startClickThread, type ClickThread, type WriterEvents } from "./thread";
import { createWriteQueue, writeLimit, type WriteQueue } from "./write-queue";
import type { ClickWriter } from "./writer";

/** After a failed write or catch-up, how long before the next try (a pause on the monotonic clock). */
const RETRY_MS = 1000;

export interface SupervisorOptions {
  log: Logger;
  /** the writer on this thread's connection (replay, tests, and the fallback when the thread is gone); made on first use */
  writer: () => ClickWriter;
  /** the click journal's directory; null: no journal */
  journalDir: string | null;
  packer: ClickPacker;
  marks: ClickMarks;
  feed: DiskFeed;
  /** the journal's reader for spilling, once the sink has opened the journal */
  cursor: () => JournalCursor | null;
  events: WriterEvents;
}

/**
 * Gets the sink's packed clicks written: to the writer thread while it lives, else on this thread's
 * write queue. When the thread is lost with batches it never wrote, what it did not commit is written
 * back from the journal (catch-up) before anything newer; while more wait than memory allows, the
 * writer is fed from the journal on disk (disk-feed.ts). Failures pause writing for RETRY_MS.
 */
export class WriterSupervisor {
  private thread: ClickThread | null = null;
  private writer: ClickWriter | null = null;
  private queue: WriteQueue | null = null;
  /** the writer thread was lost and what it held is not yet written back from the journal */
  private replayOwed = false;
  /** when to try writing again after a failure (performance.now: a pause, not a time of day) */
  private retryAt = 0;
  private readonly repeat: ReturnType<typeof createRepeatLog>;

  constructor(private readonly o: SupervisorOptions) {
    this.repeat = createRepeatLog(o.log);
  }

  writerHere(): ClickWriter {
    return (this.writer ??= this.o.writer());
  }

  /** This thread's write queue (replay at start, and the writer while there is no thread). */
  queueHere(): WriteQueue {
    return (this.queue ??= createWriteQueue(
      this.writerHere(),
      this.o.log,
      this.o.events.committed,
      this.o.events.dropped,
      writeLimit(this.o.feed.cap),
    ));
  }

  get onThread(): boolean {
    return this.thread !== null;
  }

  /** Clicks queued on this thread. */
  get queued(): number {
    return this.queue?.pending ?? 0;
  }

  startThread(entry: string, config: Config): void {
    this.thread = startClickThread(entry, config, this.o.log, this.o.events);
  }

  /** Moves what is packed to this thread's queue and writes everything queued; resolves to how many. */
  async flushHere(): Promise<number> {
    const { packer, marks } = this.o;
    if (packer.length) {
      const batch = packer.take();
      marks.handed(batch);
      this.queueHere().add(batch);
    }
    return this.queue ? this.queue.flush() : 0;
  }

  /**
   * A turn of the timer while the last one still waits for a write: past the memory cap, what is
   * packed is let go (each click is in the journal, read back from disk as the writer catches up),
   * so the cap holds however long a write takes.
   */
  spillIfDue(): void {
    const { packer, feed } = this.o;
    if (!feed.due(this.o.cursor(), packer.length)) return;
    feed.begin();
    packer.take();
  }

  /** One turn of the timer: hands what is packed (or the next part from disk) to the writer. */
  async pump(): Promise<void> {
    const { packer, feed, marks } = this.o;
    if (this.replayOwed) {
      if (performance.now() >= this.retryAt) await this.catchUp();
      // every click packed is in the journal, where the next try reads it
      if (this.replayOwed) return void packer.take();
    }
    const thread = this.thread;
    if (thread) {
      // a thread found gone may have taken batches with it that it never wrote: the journal has them
      if (thread.gone) await this.threadLost(packer.take());
      else {
        if (feed.due(this.o.cursor(), packer.length)) {
          packer.take(); // each is in the journal, read back as the writer catches up
          return await this.spillTo(thread);
        }
        if (!packer.length) return;
        const batch = packer.take();
        marks.handed(batch);
        if (thread.write(batch)) return;
        await this.threadLost(batch);
      }
    }
    // spilling without the writer thread: the next part from disk goes to this thread's write queue
    if (!this.thread && feed.due(this.o.cursor(), packer.length)) {
      packer.take();
      const batch = feed.next(this.o.cursor());
      if (batch) this.queueHere().add(batch);
    }
    if (performance.now() < this.retryAt) return;
    try {
      // while spilling, the queue holds what was fed from disk, and nothing is packed
      await (feed.spilling ? this.queueHere().flush() : this.flushHere());
    } catch {
      this.retryAt = performance.now() + RETRY_MS; // logged; retried a pause later with what has queued since
    }
    feed.caughtUp();
  }

  /**
   * Lets the writer write everything queued (the timer is stopped) and resolves to how many that
   * last write took; with the journal it is closed after. Never rejects.
   */
  async close(closeJournal: () => void): Promise<number> {
    const { packer, feed } = this.o;
    let flushed = 0;
    if (this.thread) {
      const last = this.thread;
      this.thread = null;
      // while spilling, what is packed waits in the journal for the next start: written now, it would move the mark past the clicks on disk
      const batch = packer.length && !feed.spilling ? packer.take() : null;
      if (!batch || last.write(batch)) {
        flushed = await last.close();
        closeJournal();
        return flushed;
      }
      await last.close();
      await this.threadLost(batch);
    }
    if (this.replayOwed) await this.catchUp();
    if (this.replayOwed) {
      // written now, the packed clicks would move the mark past the ones owed: all of them wait in the journal for the next start
      closeJournal();
      return 0;
    }
    // while spilling, what is packed waits in the journal for the next start, as above
    if (feed.spilling) packer.take();
    // the first waits for a write under way; a second try after a failure splits the batch, so
    // that what can be written is (the queue logs each)
    for (let attempt = 0; attempt < 2 && (attempt === 0 || packer.length + this.queued); attempt++) {
      try {
        flushed += await this.flushHere();
      } catch {}
    }
    closeJournal();
    return flushed;
  }

  /**
   * The writer thread is gone, with whatever it held: with a journal, what it did not commit is read
   * back from the journal (which also holds everything queued here), so nothing is lost or doubled;
   * without one, what is queued here is written on this thread from now on.
   */
  private async threadLost(batch: PackedClicks): Promise<void> {
    this.o.log.error("click writer thread is gone; writing clicks on this thread");
    this.thread = null;
    if (!this.o.journalDir) return this.queueHere().add(batch);
    this.replayOwed = true;
    await this.catchUp();
  }

  /**
   * Writes back from the journal what the lost thread did not commit (the journal also holds
   * everything packed here), streaming it a part at a time (replay.ts), up to the newest click.
   * Until that has gone through (the database may be out of reach), newer clicks wait in the journal
   * only: written first, they would move the mark past the ones still owed, and held in memory they
   * would grow with the outage. What is packed meanwhile is let go, as the journal has every one.
   */
  private async catchUp(): Promise<void> {
    const { packer, marks, feed, log } = this.o;
    try {
      const dropPacked = () => void packer.take();
      const { lastSeq: upTo } = await replayJournal(this.o.journalDir!, this.writerHere(), this.queueHere(), log, dropPacked);
      // what was packed before the journal was read has just been written from it
      const rest = unpackClicks(packer.take()).filter((c) => c.seq > upTo);
      for (const c of rest) packer.add(c, c.seq);
      marks.handedUpTo(upTo);
      this.replayOwed = false;
      // the write-back read the journal up to its newest click: nothing waits on disk only any more
      feed.spilling = false;
    } catch (e) {
      this.retryAt = performance.now() + RETRY_MS;
      this.repeat(
        "error",
        "catch-up",
        "click journal: could not write back what the writer thread left yet; trying again every second",
        briefError(e),
      );
    }
  }

  /** Spilling (disk-feed.ts), the writer thread's side: the next part from disk, handed over. */
  private async spillTo(to: ClickThread): Promise<void> {
    const batch = this.o.feed.next(this.o.cursor());
    if (batch && !to.write(batch)) return this.threadLost(batch);
    this.o.feed.caughtUp();
  }
}
