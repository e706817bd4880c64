import { BacklogTimeline } from "./backlog-timeline";
import type { SinkMarks } from "./disk-feed";
import { lastSeqOf, type PackedClicks } from "./packed";

/**
 * Where the click sink's clicks stand, by journal sequence number: the last answered (journaled),
 * the last handed to the writer, the last committed; and when the clicks not yet committed were
 * answered (the backlog's age, with no clock read per click).
 */
export class ClickMarks implements SinkMarks {
  lastSeq = 0;
  committedSeq = 0;
  handedSeq = 0;
  private readonly timeline = new BacklogTimeline();

  /** Click `seq` was journaled; `at` is the click's own time (a clock read per click costs more than the rest of record). */
  answered(seq: number, at: number): void {
    this.lastSeq = seq;
    this.timeline.answered(seq, at, this.committedSeq);
  }

  /** A batch went to the writer. */
  handed(batch: PackedClicks): void {
    this.handedUpTo(lastSeqOf(batch));
  }

  handedUpTo(seq: number): void {
    if (seq > this.handedSeq) this.handedSeq = seq;
  }

  /** The writer committed up to `seq` (0: a batch with no journaled click). */
  committed(seq: number): void {
    if (seq <= 0) return;
    if (seq > this.committedSeq) this.committedSeq = seq;
    this.timeline.committed(this.committedSeq);
  }

  /** At start, after replay wrote the journal up to `seq`: nothing waits. */
  startAt(seq: number): void {
    this.lastSeq = this.committedSeq = this.handedSeq = Math.max(this.lastSeq, this.committedSeq, seq);
  }

  /** Journaled clicks not yet committed, and when the oldest of them was answered. */
  backlog(): { clicks: number; oldestAt: number | null } {
    const clicks = Math.max(0, this.lastSeq - this.committedSeq);
    return { clicks, oldestAt: clicks ? this.timeline.oldestAt() : null };
  }

  /** Handed to the writer and not yet committed. */
  inFlight(): number {
    return Math.max(0, this.handedSeq - this.committedSeq);
  }
}
