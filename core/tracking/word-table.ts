/**
 * The matcher's cache of posts' words: which word-forms key sets of the index each word belongs
 * to, looked up straight from the text (a hash of the word's folded letters, then a letter-by-letter
 * check), so reading a post's words allocates nothing once they are known. The hash is the
 * caller's: FNV-1a over the word's folded letters (invisible characters skipped), with its lowest
 * bit set so it is never 0. Everything is in flat typed arrays (open addressing; the words' letters
 * and their key sets in pools): no object per word, and a table that starts small and doubles, so a
 * post's frequent words stay in the processor's cache. Emptied when full at its largest.
 */
import { FOLD, INVISIBLE } from "./normalise";

const START_BITS = 12;

export class WordTable {
  /** per slot: the word's hash and 1 + its entry (0: empty) */
  private slots: Int32Array;
  private mask: number;
  /** per entry: its letters' offset in `letters`, their count, its groups' offset in `groupList`, their count */
  private entries = new Int32Array(4 << START_BITS);
  private count = 0;
  private letters = new Uint16Array(8 << START_BITS);
  private lettersUsed = 0;
  private groupList = new Int32Array(1 << START_BITS);
  private groupsUsed = 0;

  constructor(private readonly maxBits = 20) {
    this.slots = new Int32Array(2 << START_BITS);
    this.mask = (1 << START_BITS) - 1;
  }

  /** The entry of the folded word at `text[start, end)` with hash `h`, or -1. */
  find(text: string, start: number, end: number, h: number): number {
    const slots = this.slots;
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      const e = slots[2 * s + 1]!;
      if (e === 0) return -1;
      if (slots[2 * s] === h && this.sameWord(e - 1, text, start, end)) return e - 1;
    }
  }

  /** Stores `folded` (the word at hash `h`, folded as the text is read) with its groups; returns its entry. */
  add(folded: string, h: number, groups: readonly number[]): number {
    if (2 * (this.count + 1) > this.mask + 1) this.grow();
    const e = this.count++;
    this.entries = ensure(this.entries, 4 * this.count);
    this.letters = ensure(this.letters, this.lettersUsed + folded.length);
    this.groupList = ensure(this.groupList, this.groupsUsed + groups.length);
    this.entries[4 * e] = this.lettersUsed;
    this.entries[4 * e + 1] = folded.length;
    this.entries[4 * e + 2] = this.groupsUsed;
    this.entries[4 * e + 3] = groups.length;
    for (let i = 0; i < folded.length; i++) this.letters[this.lettersUsed++] = folded.charCodeAt(i);
    for (const g of groups) this.groupList[this.groupsUsed++] = g;
    this.place(h, e);
    return e;
  }

  groupsFrom(entry: number): number {
    return this.entries[4 * entry + 2]!;
  }

  groupCount(entry: number): number {
    return this.entries[4 * entry + 3]!;
  }

  group(k: number): number {
    return this.groupList[k]!;
  }

  private place(h: number, e: number): void {
    let s = h & this.mask;
    while (this.slots[2 * s + 1] !== 0) s = (s + 1) & this.mask;
    this.slots[2 * s] = h;
    this.slots[2 * s + 1] = e + 1;
  }

  /** Doubles the table (rehashing its words), or empties it once it is as large as it may be. */
  private grow(): void {
    const old = this.slots;
    const bits = Math.log2(this.mask + 1);
    if (bits >= this.maxBits) {
      this.slots.fill(0);
      this.count = this.lettersUsed = this.groupsUsed = 0;
      return;
    }
    this.slots = new Int32Array(4 * (this.mask + 1));
    this.mask = 2 * this.mask + 1;
    for (let s = 0; s < old.length; s += 2) if (old[s + 1]) this.place(old[s]!, old[s + 1]! - 1);
  }

  private sameWord(e: number, text: string, start: number, end: number): boolean {
    const letters = this.letters;
    let k = this.entries[4 * e]!;
    const to = k + this.entries[4 * e + 1]!;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (INVISIBLE[c]) continue;
      if (k >= to || letters[k++] !== FOLD[c]) return false;
    }
    return k === to;
  }
}

/** `array`, or a copy at least twice as large when it holds fewer than `size` items. */
export function ensure<A extends Int32Array | Uint16Array>(array: A, size: number): A {
  if (size <= array.length) return array;
  const bigger = new (array.constructor as new (n: number) => A)(Math.max(size, 2 * array.length));
  bigger.set(array);
  return bigger;
}
