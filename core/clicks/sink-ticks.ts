import type { WriterSupervisor } from "./supervisor";

/**
 * When the click sink hands its clicks to the writer: on a timer, at once when a batch fills, and,
 * while spilling, as soon as a commit makes room for the next part from disk. One tick at a time: a
 * tick that finds the previous one still writing leaves the clicks packed, up to the memory cap
 * (past it they wait on disk). Once stopped, no tick runs (the sink's close writes what is left).
 */
export class SinkTicks {
  private timer: ReturnType<typeof setInterval> | null = null;
  private soon: ReturnType<typeof setTimeout> | null = null;
  private ticking = false;
  private partDue = false;
  private stopped = false;

  constructor(
    private readonly writer: Pick<WriterSupervisor, "pump" | "spillIfDue">,
    private readonly spilling: () => boolean,
  ) {}

  get started(): boolean {
    return this.timer !== null;
  }

  start(intervalMs: number): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.timer = this.soon = null;
  }

  /** A tick at once (a batch filled), unless one is already asked for. */
  now(): void {
    if (!this.soon) this.soon = setTimeout(this.soonTick, 0);
  }

  /**
   * While spilling, a commit made room: the next part from disk goes at once (after the tick under
   * way, if one is), not at the timer's next turn. At most half the cap is handed over at a time,
   * so waiting for the writer thread's timer (100 ms) held the catch-up to five caps a second
   * (10,000 clicks/s with a cap of 2,000), below what the writer writes and what the node may be
   * answering meanwhile.
   */
  nextPart(): void {
    if (this.stopped) return; // what close writes commits too: no tick after it
    if (this.ticking) this.partDue = true;
    else this.now();
  }

  /** A tick asked for at once; `soon` is cleared by its own timer only, so stop can always cancel a pending one. */
  private readonly soonTick = () => {
    this.soon = null;
    void this.tick();
  };

  private async tick(): Promise<void> {
    // a timer that fired as the sink stopped: close writes what is left, and a tick beside it would too
    if (this.stopped) return;
    if (this.ticking) return this.writer.spillIfDue();
    this.ticking = true;
    try {
      await this.writer.pump();
    } finally {
      this.ticking = false;
      if (this.partDue && this.spilling()) this.nextPart();
      this.partDue = false;
    }
  }
}
