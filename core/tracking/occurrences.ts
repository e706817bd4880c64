/**
 * Where the index's slots occurred in the post being matched: a slot is an automaton pattern or a
 * word-forms key set, shared by every tracker and term that has it, so an occurrence is noted once
 * however many trackers wait for it. Lists are linked backwards through flat arrays and reset by a
 * generation stamp: noting an occurrence allocates nothing.
 */
export class Occurrences {
  private readonly stamp: Int32Array;
  private readonly last: Int32Array;
  private readonly counts: Int32Array;
  private gen = 0;
  /** per occurrence: start, end, the slot's previous occurrence (-1 for its first) */
  private data = new Int32Array(3 * 256);
  private used = 0;

  constructor(slots: number) {
    this.stamp = new Int32Array(slots);
    this.last = new Int32Array(slots);
    this.counts = new Int32Array(slots);
  }

  /** Forgets the previous post's occurrences. */
  reset(): void {
    this.gen++;
    this.used = 0;
  }

  add(slot: number, start: number, end: number): void {
    if (3 * this.used === this.data.length) {
      const data = new Int32Array(this.data.length * 2);
      data.set(this.data);
      this.data = data;
    }
    const k = this.used++;
    const fresh = this.stamp[slot] !== this.gen;
    this.data[3 * k] = start;
    this.data[3 * k + 1] = end;
    this.data[3 * k + 2] = fresh ? -1 : this.last[slot]!;
    this.stamp[slot] = this.gen;
    this.last[slot] = k;
    this.counts[slot] = fresh ? 1 : this.counts[slot]! + 1;
  }

  /** How many times `slot` occurred in this post. */
  count(slot: number): number {
    return slot >= 0 && this.stamp[slot] === this.gen ? this.counts[slot]! : 0;
  }

  /** The occurrences of `slot` as flat [start, end) pairs, in text order. */
  list(slot: number): number[] {
    const n = this.count(slot);
    const out = new Array<number>(2 * n);
    for (let k = this.last[slot]!, i = n - 1; i >= 0; k = this.data[3 * k + 2]!, i--) {
      out[2 * i] = this.data[3 * k]!;
      out[2 * i + 1] = this.data[3 * k + 1]!;
    }
    return out;
  }
}
