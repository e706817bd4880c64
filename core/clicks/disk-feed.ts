import type { Logger } from "../log";
import type { JournalCursor } from "./journal-cursor";
import { packClicks, type PackedClicks } from "./packed";

/** The sequence numbers a click sink keeps: the last click journaled, the last committed, and the last handed to its writer. */
export interface SinkMarks {
  lastSeq: number;
  committedSeq: number;
  /** while spilling, what is above it waits in the journal only */
  handedSeq: number;
}

/**
 * The click sink's way through an outage longer than its memory (JOURNAL_MEMORY_CLICKS; the
 * database away or slow): once more clicks wait than the cap, the sink lets the packed ones go (every
 * one is in the journal) and the writer is fed from the journal on disk as it commits, until it has
 * caught up with the newest click. A part is at most `part` clicks (a live batch), and at most two
 * parts, never more than half the cap, are handed over and not yet committed: what the writer holds,
 * and each of its transactions, stays that size however long the backlog (handed 100,000 clicks at a
 * time, the writer thread of a node catching up after a long outage grew to 612 MB).
 */
export class DiskFeed {
  spilling = false;
  /** clicks read from disk at a time: the live batch of the writer that is fed */
  part: number;

  constructor(
    private readonly marks: SinkMarks,
    readonly cap: number,
    part: number,
    private readonly log: Logger,
  ) {
    this.part = part;
  }

  /** Whether the writer is to be fed from disk now: spilling already, or more waiting than the cap with clicks packed. */
  due(cursor: JournalCursor | null, packed: number): boolean {
    return this.spilling || (cursor !== null && packed > 0 && this.marks.lastSeq - this.marks.committedSeq > this.cap);
  }

  /** The next part from disk for the writer (spilling from now on), or null when it holds enough or nothing new is journaled. */
  next(cursor: JournalCursor | null): PackedClicks | null {
    this.begin();
    const m = this.marks;
    const room = Math.min(Math.floor(this.cap / 2), 2 * this.part) - (m.handedSeq - m.committedSeq);
    if (room <= 0 || !cursor) return null;
    const part = cursor.read(m.handedSeq, Math.min(room, this.part));
    if (!part.length) return null;
    m.handedSeq = part[part.length - 1]!.seq;
    return packClicks(part);
  }

  /** Spilling from now on: what is journaled and not yet handed over is read from disk (by next). */
  begin(): void {
    if (this.spilling) return;
    this.spilling = true;
    this.log.warn(
      `click journal: more than ${this.cap} clicks wait for the database; the others wait on disk only until the writer catches up`,
    );
  }

  /** Ends the spill once every click journaled has been handed over. */
  caughtUp(): void {
    if (this.spilling && this.marks.handedSeq >= this.marks.lastSeq) {
      this.spilling = false;
      this.log.info("click journal: the writer has caught up; clicks wait in memory again");
    }
  }
}
