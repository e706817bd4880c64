/** Clicks answered within this many ms share one entry of the backlog's timeline. */
const BACKLOG_STEP_MS = 50;

/**
 * When the clicks not yet committed were answered, to about BACKLOG_STEP_MS: each entry's `at` holds
 * for the clicks from its `seq` up to the next entry's. The click sink keeps one, so that the age
 * of its oldest waiting click costs no clock read per click.
 */
export class BacklogTimeline {
  private readonly entries: { seq: number; at: number }[] = [];

  /** Click `seq` was answered at `at` (ms), with everything up to `committedSeq` written. */
  answered(seq: number, at: number, committedSeq: number): void {
    // the first click after everything was written starts the timeline afresh: an entry left from
    // before a quiet spell would date this click to then
    if (seq - 1 <= committedSeq) this.entries.length = 0;
    const last = this.entries[this.entries.length - 1];
    if (!last || at - last.at >= BACKLOG_STEP_MS) this.entries.push({ seq, at });
  }

  /** Everything up to `committedSeq` is written: entries that only dated those go. */
  committed(committedSeq: number): void {
    while (this.entries.length > 1 && this.entries[1]!.seq <= committedSeq + 1) this.entries.shift();
  }

  /** When the oldest click still waiting was answered (ms), or null when the timeline is empty. */
  oldestAt(): number | null {
    return this.entries.length ? this.entries[0]!.at : null;
  }
}
