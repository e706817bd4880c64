/**
 * The matcher's cache of posts' words: which word-forms keys of the index each word has, looked up
 * straight from the text (a hash of the word's folded letters, then a letter-by-letter check), so
 * reading a post's words allocates nothing once they are known. The hash is the caller's: FNV-1a
 * over the word's folded letters (invisible characters skipped), with its lowest bit set so it is
 * never 0. Open addressing over typed arrays; emptied when half full.
 */
import { FOLD, INVISIBLE } from "./normalise";

const EMPTY = 0;

export class WordTable<V> {
  private hashes: Int32Array;
  private words: (string | undefined)[];
  private values: (V | undefined)[];
  private count = 0;
  private readonly mask: number;

  constructor(bits = 18) {
    this.hashes = new Int32Array(1 << bits);
    this.words = new Array(1 << bits);
    this.values = new Array(1 << bits);
    this.mask = (1 << bits) - 1;
  }

  /** The value stored for the folded word at `text[start, end)` with hash `h`, or undefined. */
  get(text: string, start: number, end: number, h: number): V | undefined {
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const s = this.hashes[slot]!;
      if (s === EMPTY) return undefined;
      if (s === h && this.sameWord(this.words[slot]!, text, start, end)) return this.values[slot];
    }
  }

  /** Stores `value` for `folded` (the word at hash `h`, folded as the text is read). */
  set(folded: string, h: number, value: V): void {
    if (this.count >= (this.mask + 1) >> 1) {
      this.hashes.fill(EMPTY);
      this.words.fill(undefined);
      this.values.fill(undefined);
      this.count = 0;
    }
    let slot = h & this.mask;
    while (this.hashes[slot] !== EMPTY) slot = (slot + 1) & this.mask;
    this.hashes[slot] = h;
    this.words[slot] = folded;
    this.values[slot] = value;
    this.count++;
  }

  private sameWord(word: string, text: string, start: number, end: number): boolean {
    let k = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (INVISIBLE[c]) continue;
      if (k >= word.length || word.charCodeAt(k++) !== FOLD[c]) return false;
    }
    return k === word.length;
  }
}
