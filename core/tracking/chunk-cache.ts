/**
 * The automaton's cache of words: what a run of letters (a word of a post, as the automaton's
 * alphabet reads it) does when the scan enters it from the root or from the root's space state —
 * the state it leaves the automaton in, and the patterns that end inside it (with their offsets
 * from the run's start). The automaton is deterministic, so (entry state, letters) decides both,
 * and a post's frequent words are read from here: one hash over the letters (arithmetic only) and
 * one probe, instead of a move per character through tables of tens of megabytes (a cache and TLB
 * miss each, at a million trackers). Flat typed arrays, no object per word; emptied when full.
 */
import { ensure } from "./word-table";

const START_BITS = 12;
const MAX_BITS = 17;

export class ChunkCache {
  /** per slot: the run's hash and 1 + its entry (0: empty) */
  private slots = new Int32Array(2 << START_BITS);
  private mask = (1 << START_BITS) - 1;
  /** per entry: letters' offset, their count, entry context, exit cell, hits' offset, their count */
  private entries = new Int32Array(6 << START_BITS);
  private count = 0;
  private letters = new Uint16Array(8 << START_BITS);
  private lettersUsed = 0;
  /** (pattern, offset of its end from the run's start) pairs */
  hits = new Int32Array(2 << START_BITS);
  private hitsUsed = 0;

  /** The entry of the run of `letterOf` letters `text[start, end)` entered in `context` with hash `h`, or -1. */
  find(text: string, start: number, end: number, context: number, h: number, letterOf: Int32Array): number {
    const slots = this.slots;
    const entries = this.entries;
    const letters = this.letters;
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      const e = slots[2 * s + 1]!;
      if (e === 0) return -1;
      if (slots[2 * s] !== h) continue;
      const base = 6 * (e - 1);
      if (entries[base + 1] !== end - start || entries[base + 2] !== context) continue;
      let k = entries[base]!;
      let i = start;
      while (i < end && letters[k] === letterOf[text.charCodeAt(i)]) {
        i++;
        k++;
      }
      if (i === end) return e - 1;
    }
  }

  exitCell(entry: number): number {
    return this.entries[6 * entry + 3]!;
  }

  hitsFrom(entry: number): number {
    return this.entries[6 * entry + 4]!;
  }

  hitCount(entry: number): number {
    return this.entries[6 * entry + 5]!;
  }

  /** Starts a new entry's hits (then `hit` for each, then `add`). */
  beginHits(): number {
    return this.hitsUsed;
  }

  hit(pattern: number, offset: number): void {
    if (this.hitsUsed + 2 > this.hits.length) this.hits = ensure(this.hits, this.hitsUsed + 2);
    this.hits[this.hitsUsed++] = pattern;
    this.hits[this.hitsUsed++] = offset;
  }

  /** Stores the run `text[start, end)` (hash `h`, entered in `context`) with its exit cell and the hits since `hitsFrom`. */
  add(text: string, start: number, end: number, context: number, h: number, letterOf: Int32Array, exit: number, hitsFrom: number): void {
    if (2 * (this.count + 1) > this.mask + 1 && !this.grow()) return;
    const e = this.count++;
    this.entries = ensure(this.entries, 6 * this.count);
    this.letters = ensure(this.letters, this.lettersUsed + end - start);
    const base = 6 * e;
    this.entries[base] = this.lettersUsed;
    this.entries[base + 1] = end - start;
    this.entries[base + 2] = context;
    this.entries[base + 3] = exit;
    this.entries[base + 4] = hitsFrom;
    this.entries[base + 5] = (this.hitsUsed - hitsFrom) >> 1;
    for (let i = start; i < end; i++) this.letters[this.lettersUsed++] = letterOf[text.charCodeAt(i)]!;
    this.place(h, e);
  }

  private place(h: number, e: number): void {
    let s = h & this.mask;
    while (this.slots[2 * s + 1] !== 0) s = (s + 1) & this.mask;
    this.slots[2 * s] = h;
    this.slots[2 * s + 1] = e + 1;
  }

  /** Doubles the table (rehashing), or, at its largest, empties it and says the entry is not kept. */
  private grow(): boolean {
    const old = this.slots;
    if (this.mask + 1 >= 1 << MAX_BITS) {
      this.slots.fill(0);
      this.count = this.lettersUsed = this.hitsUsed = 0;
      return false;
    }
    this.slots = new Int32Array(4 * (this.mask + 1));
    this.mask = 2 * this.mask + 1;
    for (let s = 0; s < old.length; s += 2) if (old[s + 1]) this.place(old[s]!, old[s + 1]! - 1);
    return true;
  }
}
