/**
 * The matcher's cache of posts' words (post-scan.ts): per distinct word (its folded letters,
 * invisible characters left out), what reading it does, kept from the first time it was read —
 * the word-forms key sets it belongs to, and, for each of the two states a word is usually entered
 * in (the automaton's root, and the state after a space read at the root), the state the automaton
 * leaves it in and the patterns ending inside it (with their ends' offsets from the word's start).
 * The automaton is deterministic, so the entry state and the letters decide both. A post's
 * frequent words then cost one hash over their letters (arithmetic only) and one probe, instead of
 * a move per character through tables of tens of megabytes (a cache miss each at a million
 * trackers) and a second hash and probe for their forms.
 *
 * Flat typed arrays (open addressing; letters, hits and key sets in pools), no object per word; the
 * table starts small and doubles, so the frequent words stay in the processor's caches, and at its
 * largest it is emptied and starts again.
 */

const START_BITS = 12;
/** Largest table: 2^17 slots, 65,536 words. */
const MAX_BITS = 17;
/** An entry's fields (stride): letters' offset, letter count, key sets' offset, their count, then per context: exit state, hits' offset, hit count. */
const STRIDE = 10;
const LETTERS = 0;
const LENGTH = 1;
const SETS = 2;
const SET_COUNT = 3;
const CONTEXT = 4;
const EXIT = 0;
const HITS = 1;
const HIT_COUNT = 2;
/** FNV-1a, the hash the caller computes over a word's folded letters (see `hashStep`) */
export const HASH_START = 0x811c9dc5;
export const hashStep = (h: number, letter: number) => Math.imul(h ^ letter, 0x01000193);

export class WordCache {
  /** per slot: the word's hash and 1 + its entry (0: empty) */
  private slots: Int32Array;
  private mask: number;
  private entries = new Int32Array(STRIDE << START_BITS);
  private count = 0;
  private letters = new Uint16Array(8 << START_BITS);
  private lettersUsed = 0;
  /** (pattern, offset of its end from the word's start) pairs */
  hits = new Int32Array(2 << START_BITS);
  private hitsUsed = 0;
  /** key sets, an entry's consecutive */
  sets = new Int32Array(1 << START_BITS);
  private setsUsed = 0;

  /** `maxBits`: the largest table is 2^maxBits slots (tests make it small; 0 keeps no word at all). */
  constructor(private readonly maxBits = MAX_BITS) {
    const bits = Math.min(START_BITS, maxBits);
    this.slots = new Int32Array(2 << bits);
    this.mask = (1 << bits) - 1;
  }

  /** How many words it holds. */
  get size(): number {
    return this.count;
  }

  /**
   * The entry of the word `text[start, end)` (`length` letters once invisible characters are left
   * out, hash `h` over their folded letters), or -1.
   */
  find(text: string, start: number, end: number, length: number, h: number, fold: Uint16Array, invisible: Uint8Array): number {
    const slots = this.slots;
    const entries = this.entries;
    const letters = this.letters;
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      const e = slots[2 * s + 1]!;
      if (e === 0) return -1;
      if (slots[2 * s] !== h) continue;
      const base = STRIDE * (e - 1);
      if (entries[base + LENGTH] !== length) continue;
      let k = entries[base + LETTERS]!;
      let i = start;
      for (; i < end; i++) {
        const c = text.charCodeAt(i);
        if (invisible[c]) continue;
        if (letters[k++] !== fold[c]) break;
      }
      if (i === end) return e - 1;
    }
  }

  /**
   * Keeps the word `text[start, end)` (as `find` reads it) with nothing known of it yet; returns its
   * entry, or -1 when the cache keeps nothing. When full at its largest, it is emptied first: the
   * entries handed out before are gone.
   */
  add(text: string, start: number, end: number, length: number, h: number, fold: Uint16Array, invisible: Uint8Array): number {
    if (this.maxBits === 0) return -1;
    if (2 * (this.count + 1) > this.mask + 1) this.grow();
    const e = this.count++;
    this.entries = ensure(this.entries, STRIDE * this.count);
    this.letters = ensure(this.letters, this.lettersUsed + length);
    const base = STRIDE * e;
    this.entries.fill(-1, base, base + STRIDE);
    this.entries[base + LETTERS] = this.lettersUsed;
    this.entries[base + LENGTH] = length;
    for (let i = start; i < end; i++) if (!invisible[text.charCodeAt(i)]) this.letters[this.lettersUsed++] = fold[text.charCodeAt(i)]!;
    this.place(h, e);
    return e;
  }

  /** The first of `entry`'s key sets in `sets`, or -1 while they are not known. */
  setsFrom(entry: number): number {
    return this.entries[STRIDE * entry + SETS]!;
  }

  setCount(entry: number): number {
    return this.entries[STRIDE * entry + SET_COUNT]!;
  }

  /** Notes `entry`'s key sets. */
  setSets(entry: number, sets: readonly number[]): void {
    this.sets = ensure(this.sets, this.setsUsed + sets.length);
    this.entries[STRIDE * entry + SETS] = this.setsUsed;
    this.entries[STRIDE * entry + SET_COUNT] = sets.length;
    for (const set of sets) this.sets[this.setsUsed++] = set;
  }

  /** The state the automaton leaves `entry` in, entered in `context` (0: the root, 1: its space state), or -1 while not known. */
  exit(entry: number, context: number): number {
    return this.entries[STRIDE * entry + CONTEXT + 3 * context + EXIT]!;
  }

  hitsFrom(entry: number, context: number): number {
    return this.entries[STRIDE * entry + CONTEXT + 3 * context + HITS]!;
  }

  hitCount(entry: number, context: number): number {
    return this.entries[STRIDE * entry + CONTEXT + 3 * context + HIT_COUNT]!;
  }

  /** Starts noting a word's hits (then `hit` for each, then `setExit`). */
  beginHits(): number {
    return this.hitsUsed;
  }

  hit(pattern: number, offset: number): void {
    if (this.hitsUsed + 2 > this.hits.length) this.hits = ensure(this.hits, this.hitsUsed + 2);
    this.hits[this.hitsUsed++] = pattern;
    this.hits[this.hitsUsed++] = offset;
  }

  /** Notes what reading `entry` in `context` does: its exit state and the hits noted since `from`. */
  setExit(entry: number, context: number, exit: number, from: number): void {
    const base = STRIDE * entry + CONTEXT + 3 * context;
    this.entries[base + EXIT] = exit;
    this.entries[base + HITS] = from;
    this.entries[base + HIT_COUNT] = (this.hitsUsed - from) >> 1;
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
    if (this.mask + 1 >= 1 << this.maxBits) {
      this.slots.fill(0);
      this.count = this.lettersUsed = this.hitsUsed = this.setsUsed = 0;
      return;
    }
    this.slots = new Int32Array(4 * (this.mask + 1));
    this.mask = 2 * this.mask + 1;
    for (let s = 0; s < old.length; s += 2) if (old[s + 1]) this.place(old[s]!, old[s + 1]! - 1);
  }
}

/** `array`, or a copy at least twice as large when it holds fewer than `size` items. */
function ensure<A extends Int32Array | Uint16Array>(array: A, size: number): A {
  if (size <= array.length) return array;
  const bigger = new (array.constructor as new (n: number) => A)(Math.max(size, 2 * array.length));
  bigger.set(array);
  return bigger;
}
