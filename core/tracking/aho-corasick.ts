/**
 * Aho-Corasick automaton over UTF-16 code units: finds every occurrence of every pattern in one pass
 * over a text. The patterns' alphabet is compacted and ordered by frequency; the most frequent letters get a
 * dense DFA table (one array read per character), the rest use trie edges in an open-addressing hash
 * table plus failure links, with moves memoised on first use. A scan allocates nothing.
 */
import { FOLD, INVISIBLE, SPACE } from "./normalise";

/** Cells of the dense transition table (4 bytes each): 32 MB at most. */
const DENSE_CELLS = 8_000_000;
const IGNORED = -1;
const HAS_OUTPUT = 0x40000000;
const STATE = HAS_OUTPUT - 1;
const WHITESPACE = -2;

export class AhoCorasick {
  /** code unit → 1 + its index in the patterns' alphabet; 0 = in no pattern (the scan resets) */
  private alpha = new Int32Array(65536);
  private alphabetSize = 0;
  /** what `scan` reads: code unit of a text → letter, IGNORED or WHITESPACE */
  private letters: Int32Array;
  private rootNext: Int32Array;
  /** open-addressing table: key = node * alphabetSize + letter → next state; trie edges plus memoised DFA moves */
  private keys: Int32Array;
  private values: Int32Array;
  private mask: number;
  private shift: number;
  private used = 0;
  private maxUsed: number;
  private fail: Int32Array;
  /** outputs of node n (own and inherited through failure links): outList[outStart[n] .. outStart[n+1]) */
  private outStart: Int32Array;
  private outList: Int32Array;
  private hasOutput: Uint8Array;
  /** dense DFA rows for letters 1..dense: delta[node * dense + letter - 1] = next state | HAS_OUTPUT if it has outputs */
  private dense: number;
  private delta: Int32Array;
  readonly patternLength: Int32Array;
  readonly nodeCount: number;

  constructor(patterns: readonly string[]) {
    // 1. alphabet (most frequent letters first) and trie with plain maps while building
    const frequency = new Map<number, number>();
    for (const p of patterns) for (let i = 0; i < p.length; i++) frequency.set(p.charCodeAt(i), (frequency.get(p.charCodeAt(i)) ?? 0) + 1);
    for (const [c] of [...frequency].sort((x, y) => y[1] - x[1])) this.alpha[c] = ++this.alphabetSize;
    let children: Map<number, number>[] = [new Map()];
    let own: number[][] = [[]];
    this.patternLength = new Int32Array(patterns.length);
    patterns.forEach((p, index) => {
      this.patternLength[index] = p.length;
      if (!p.length) return;
      let node = 0;
      for (let i = 0; i < p.length; i++) {
        const a = this.alpha[p.charCodeAt(i)]!;
        let next = children[node]!.get(a);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          own.push([]);
          children[node]!.set(a, next);
        }
        node = next;
      }
      own[node]!.push(index);
    });
    const n = children.length;
    this.nodeCount = n;
    // renumber nodes breadth first: shallow nodes, visited by almost every character, share cache lines
    const order = [0];
    for (let q = 0; q < order.length; q++) for (const child of children[order[q]!]!.values()) order.push(child);
    const renumber = new Int32Array(n);
    order.forEach((old, i) => (renumber[old] = i));
    children = order.map((old) => new Map([...children[old]!].map(([a, c]) => [a, renumber[c]!] as [number, number])));
    own = order.map((old) => own[old]!);

    // 2. compile transitions; room for 4 memoised moves per node on top of the trie edges
    let size = 1024;
    while (size < n * 10 && size < 1 << 26) size <<= 1;
    this.mask = size - 1;
    this.shift = 32 - Math.log2(size);
    this.maxUsed = size >> 1;
    this.keys = new Int32Array(size).fill(-1);
    this.values = new Int32Array(size);
    this.rootNext = new Int32Array(this.alphabetSize + 1);
    for (const [a, child] of children[0]!) this.rootNext[a] = child;
    for (let node = 1; node < n; node++) for (const [a, child] of children[node]!) this.put(node, a, child);

    // 3. failure links and inherited outputs, breadth first
    this.fail = new Int32Array(n);
    const outputs: number[][] = own;
    const queue: number[] = [];
    for (const child of children[0]!.values()) queue.push(child);
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q]!;
      for (const [a, child] of children[node]!) {
        let f = this.fail[node]!;
        let target = this.get(f, a);
        while (target === -1) {
          f = this.fail[f]!;
          target = this.get(f, a);
        }
        this.fail[child] = target;
        if (outputs[target]!.length) outputs[child] = outputs[child]!.concat(outputs[target]!);
        queue.push(child);
      }
    }
    // 4. the full DFA for the most frequent letters, as far as DENSE_CELLS allows
    this.dense = Math.min(this.alphabetSize, Math.floor(DENSE_CELLS / n));
    const d = this.dense;
    const table = (this.delta = new Int32Array(n * d));
    for (let a = 1; a <= d; a++) table[a - 1] = this.rootNext[a]!;
    for (const node of queue) {
      const f = this.fail[node]!;
      table.copyWithin(node * d, f * d, f * d + d);
      for (const [a, child] of children[node]!) if (a <= d) table[node * d + a - 1] = child;
    }
    // a cell also says whether its target state has outputs, so a scan reads nothing else per character
    this.hasOutput = Uint8Array.from(outputs, (o) => (o.length ? 1 : 0));
    const delta = this.delta;
    const hasOutput = this.hasOutput;
    for (let i = 0; i < delta.length; i++) if (hasOutput[delta[i]!]) delta[i] = delta[i]! | HAS_OUTPUT;

    // 5. one table from a text's code unit to its letter (after folding), or IGNORED / WHITESPACE
    this.letters = new Int32Array(65536);
    for (let c = 0; c < 65536; c++) this.letters[c] = INVISIBLE[c] ? IGNORED : SPACE[c] ? WHITESPACE : this.alpha[FOLD[c]!]!;

    this.outStart = new Int32Array(n + 1);
    let total = 0;
    for (let i = 0; i < n; i++) {
      this.outStart[i] = total;
      total += outputs[i]!.length;
    }
    this.outStart[n] = total;
    this.outList = new Int32Array(total);
    for (let i = 0; i < n; i++) this.outList.set(outputs[i]!, this.outStart[i]!);
  }

  private slot(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  private put(node: number, a: number, next: number): void {
    const key = node * (this.alphabetSize + 1) + a;
    let h = this.slot(key);
    while (this.keys[h] !== -1) h = (h + 1) & this.mask;
    this.keys[h] = key;
    this.values[h] = next;
    this.used++;
  }

  /** The trie edge (or memoised move) of `node` on letter `a`, or -1; the root loops to itself. */
  private get(node: number, a: number): number {
    if (node === 0) return this.rootNext[a]!;
    const key = node * (this.alphabetSize + 1) + a;
    for (let h = this.slot(key); ; h = (h + 1) & this.mask) {
      const k = this.keys[h]!;
      if (k === key) return this.values[h]!;
      if (k === -1) return -1;
    }
  }

  /** The automaton's move (the DFA transition), memoised while the table has room. */
  private move(state: number, a: number): number {
    let next = this.get(state, a);
    if (next !== -1) return next;
    let s = state;
    do {
      s = this.fail[s]!;
      next = this.get(s, a);
    } while (next === -1);
    if (this.used < this.maxUsed) this.put(state, a, next);
    return next;
  }

  /**
   * Calls `onHit(pattern, end)` for every occurrence of a (normalised) pattern in the normalised
   * reading of `text` (see normalise.ts); `end` is exclusive, in UTF-16 units of `text` itself.
   * `text` must already be NFKC.
   */
  scan(text: string, onHit: (pattern: number, end: number) => void): void {
    let state = 0;
    let inSpace = false;
    const letters = this.letters;
    const spaceLetter = this.alpha[32]!;
    const dense = this.dense;
    const delta = this.delta;
    const outStart = this.outStart;
    const outList = this.outList;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      let a = letters[text.charCodeAt(i)]!;
      if (a < 0) {
        if (a === IGNORED || inSpace) continue;
        inSpace = true;
        a = spaceLetter;
      } else inSpace = false;
      if (a === 0) {
        state = 0;
        continue;
      }
      let cell: number;
      if (a <= dense) cell = delta[state * dense + a - 1]!;
      else {
        const next = state === 0 ? this.rootNext[a]! : this.move(state, a);
        cell = this.hasOutput[next] ? next | HAS_OUTPUT : next;
      }
      state = cell & STATE;
      if (cell & HAS_OUTPUT) {
        const to = outStart[state + 1]!;
        for (let k = outStart[state]!; k < to; k++) onHit(outList[k]!, i + 1);
      }
    }
  }
}
