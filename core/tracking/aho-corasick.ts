/**
 * Aho-Corasick automaton over UTF-16 code units: finds every occurrence of every pattern in one pass
 * over a text. Compact, so that a million trackers fit: the trie is built from the sorted patterns
 * (no per-node objects), numbered breadth first, and kept in flat typed arrays — each node's
 * children are consecutive nodes (found by binary search on their letters), with its failure link
 * and its nearest suffix that ends a pattern. The patterns' alphabet is ordered by frequency, and
 * the shallowest nodes (where a scan spends nearly all its time) get a dense DFA table for the most
 * frequent letters: one array read per character. Elsewhere a move follows trie edges and failure
 * links. The matcher steps it from outside (post-scan.ts), through its cache of words.
 */
import { FOLD, INVISIBLE, SPACE } from "./normalise";

/** Cells of the dense transition table (4 bytes each): 64 MB at most. */
const DENSE_CELLS = 16_000_000;
/** Letters in the dense table, at most (the most frequent ones). */
const DENSE_LETTERS = 128;
/** `letters` of a code unit the scan skips (zero-width characters) */
export const IGNORED = -1;
/** `letters` of whitespace (a run of it is one space) */
const WHITESPACE = -2;
/** in a cell: its state has patterns ending there */
const HAS_OUTPUT = 0x40000000;
/** in a cell: its state */
const STATE = HAS_OUTPUT - 1;

export class AhoCorasick {
  /** code unit → 1 + its index in the patterns' alphabet; 0 = in no pattern (the scan resets) */
  private alpha = new Int32Array(65536);
  private alphabetSize = 0;
  /** what a scan reads: code unit of a text → letter (0: in no pattern, the scan resets), IGNORED or WHITESPACE */
  readonly letters: Int32Array;
  /** the letter a run of whitespace reads as (0 when no pattern holds a space) */
  readonly spaceLetter: number;
  /** the state after a space read at the root */
  readonly spaceState: number;
  private rootNext: Int32Array;
  /** per node: the letter of the edge into it; its children are nodes childStart .. childStart + childCount */
  private edge: Int32Array;
  private childStart: Int32Array;
  private childCount: Int32Array;
  private fail: Int32Array;
  /** per node: a pattern ending there (then nextSame chains the others), or -1 */
  private ownFirst: Int32Array;
  private nextSame: Int32Array;
  /** per node: the nearest node on its failure chain where a pattern ends, or -1 */
  private outLink: Int32Array;
  private hasOutput: Uint8Array;
  /** dense DFA rows for nodes below denseNodes and letters 1..dense: delta[node * dense + letter - 1] = next | HAS_OUTPUT */
  private dense: number;
  private denseNodes: number;
  private delta: Int32Array;
  readonly patternLength: Int32Array;
  readonly nodeCount: number;

  /** `denseCells`: the dense table's size (tests make it small to exercise the sparse moves). */
  constructor(patterns: readonly string[], denseCells = DENSE_CELLS) {
    // 1. alphabet, most frequent letters first
    const frequency = new Map<number, number>();
    for (const p of patterns) for (let i = 0; i < p.length; i++) frequency.set(p.charCodeAt(i), (frequency.get(p.charCodeAt(i)) ?? 0) + 1);
    for (const [c] of [...frequency].sort((x, y) => y[1] - x[1])) this.alpha[c] = ++this.alphabetSize;
    this.patternLength = Int32Array.from(patterns, (p) => p.length);

    // 2. the trie in depth-first order, from the patterns sorted by their letters
    const mapped = patterns.map((p) => {
      let m = "";
      for (let i = 0; i < p.length; i++) m += String.fromCharCode(this.alpha[p.charCodeAt(i)]!);
      return m;
    });
    // sorted natively (twice as fast as a comparator): each pattern's letters, a NUL (below every letter), its index
    const keys = mapped.map((m, i) => `${m}\u0000${i}`).sort();
    const order = Int32Array.from(keys, (k) => Number(k.slice(k.lastIndexOf("\u0000") + 1)));
    let n = 1;
    for (let k = 0; k < order.length; k++) {
      const p = mapped[order[k]!]!;
      const prev = k ? mapped[order[k - 1]!]! : "";
      let common = 0;
      while (common < p.length && common < prev.length && p.charCodeAt(common) === prev.charCodeAt(common)) common++;
      n += p.length - common;
    }
    this.nodeCount = n;
    const parent = new Int32Array(n);
    const edge = new Int32Array(n);
    const depth = new Int32Array(n);
    const end = new Int32Array(patterns.length);
    {
      const path = [0];
      let next = 1;
      let prev = "";
      for (const index of order) {
        const p = mapped[index]!;
        let common = 0;
        while (common < p.length && common < prev.length && p.charCodeAt(common) === prev.charCodeAt(common)) common++;
        path.length = common + 1;
        for (let i = common; i < p.length; i++) {
          parent[next] = path[i]!;
          edge[next] = p.charCodeAt(i);
          depth[next] = i + 1;
          path.push(next++);
        }
        end[index] = path[p.length]!;
        prev = p;
      }
    }
    // 3. renumber breadth first (depth by depth, keeping the depth-first order within one): shallow
    // nodes, visited by almost every character, come first, and a node's children are consecutive
    const maxDepth = depth.reduce((a, b) => Math.max(a, b), 0);
    const atDepth = new Int32Array(maxDepth + 2);
    for (let v = 0; v < n; v++) atDepth[depth[v]! + 1]!++;
    for (let d = 1; d < atDepth.length; d++) atDepth[d]! += atDepth[d - 1]!;
    const renumber = new Int32Array(n);
    for (let v = 0; v < n; v++) renumber[v] = atDepth[depth[v]!]!++;
    this.edge = new Int32Array(n);
    this.childStart = new Int32Array(n);
    this.childCount = new Int32Array(n);
    const up = new Int32Array(n);
    for (let v = 1; v < n; v++) {
      const id = renumber[v]!;
      const p = renumber[parent[v]!]!;
      this.edge[id] = edge[v]!;
      up[id] = p;
      if (!this.childCount[p]) this.childStart[p] = id;
      this.childCount[p]!++;
    }
    this.rootNext = new Int32Array(this.alphabetSize + 1);
    for (let k = 0; k < this.childCount[0]!; k++) this.rootNext[this.edge[this.childStart[0]! + k]!] = this.childStart[0]! + k;
    this.ownFirst = new Int32Array(n).fill(-1);
    this.nextSame = new Int32Array(patterns.length).fill(-1);
    for (let index = patterns.length - 1; index >= 0; index--) {
      if (!patterns[index]!.length) continue;
      const node = renumber[end[index]!]!;
      this.nextSame[index] = this.ownFirst[node]!;
      this.ownFirst[node] = index;
    }

    // 4. failure links and output links, breadth first (a node's failure is shallower: already done)
    this.fail = new Int32Array(n);
    this.outLink = new Int32Array(n).fill(-1);
    this.hasOutput = new Uint8Array(n);
    for (let v = 1; v < n; v++) {
      const p = up[v]!;
      let f = 0;
      if (p !== 0) {
        const a = this.edge[v]!;
        let s = this.fail[p]!;
        while (s !== 0 && this.child(s, a) === -1) s = this.fail[s]!;
        f = s === 0 ? this.rootNext[a]! : this.child(s, a);
      }
      this.fail[v] = f;
      this.outLink[v] = this.ownFirst[f] !== -1 ? f : this.outLink[f]!;
      this.hasOutput[v] = this.ownFirst[v] !== -1 || this.outLink[v] !== -1 ? 1 : 0;
    }

    // 5. the DFA of the shallowest nodes for the most frequent letters, as far as DENSE_CELLS allows
    const d = (this.dense = Math.min(this.alphabetSize, DENSE_LETTERS));
    this.denseNodes = d ? Math.min(n, Math.floor(denseCells / d)) : 0;
    const table = (this.delta = new Int32Array(this.denseNodes * d));
    for (let a = 1; a <= d; a++) table[a - 1] = this.rootNext[a]!;
    for (let v = 1; v < this.denseNodes; v++) {
      const f = this.fail[v]! * d;
      const row = v * d;
      for (let a = 0; a < d; a++) table[row + a] = table[f + a]!;
      const from = this.childStart[v]!;
      for (let c = from; c < from + this.childCount[v]!; c++) if (this.edge[c]! <= d) table[v * d + this.edge[c]! - 1] = c;
    }
    // a cell also says whether its target state has outputs, so a scan reads nothing else per character
    for (let i = 0; i < table.length; i++) if (this.hasOutput[table[i]!]) table[i] = table[i]! | HAS_OUTPUT;

    // 6. one table from a text's code unit to its letter (after folding), or IGNORED / WHITESPACE
    this.letters = new Int32Array(65536);
    for (let c = 0; c < 65536; c++) this.letters[c] = INVISIBLE[c] ? IGNORED : SPACE[c] ? WHITESPACE : this.alpha[FOLD[c]!]!;
    this.spaceLetter = this.alpha[32]!;
    this.spaceState = this.spaceLetter ? this.rootNext[this.spaceLetter]! : 0;
  }

  /** The child of `node` (not the root) on letter `a`, or -1: children are sorted by letter. */
  private child(node: number, a: number): number {
    let lo = this.childStart[node]!;
    let hi = lo + this.childCount[node]! - 1;
    const edge = this.edge;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = edge[mid]!;
      if (e === a) return mid;
      if (e < a) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The automaton's move from `state` on letter `a` (a DFA cell where there is one). */
  private move(state: number, a: number): number {
    for (;;) {
      if (state < this.denseNodes && a <= this.dense) return this.delta[state * this.dense + a - 1]! & STATE;
      if (state === 0) return this.rootNext[a]!;
      const c = this.child(state, a);
      if (c !== -1) return c;
      state = this.fail[state]!;
    }
  }

  /**
   * Calls `onHit(pattern, end)` for every occurrence of a (normalised) pattern in the normalised
   * reading of `text` (see normalise.ts); `end` is exclusive, in UTF-16 units of `text` itself.
   * `text` must already be NFKC. A character at a time: the matcher reads posts through its cache of
   * words instead (post-scan.ts), and this is what that must agree with.
   */
  scan(text: string, onHit: (pattern: number, end: number) => void): void {
    let state = 0;
    let inSpace = false;
    for (let i = 0; i < text.length; i++) {
      let a = this.letters[text.charCodeAt(i)]!;
      if (a < 0) {
        if (a === IGNORED || inSpace) continue;
        inSpace = true;
        a = this.spaceLetter;
      } else inSpace = false;
      state = this.step(state, a, i + 1, onHit);
    }
  }

  /**
   * The state after reading letter `a` (0: a letter in no pattern, back to the root) in `state`;
   * calls `onHit(pattern, end)` for the patterns ending there.
   */
  step(state: number, a: number, end: number, onHit: (pattern: number, end: number) => void): number {
    if (a === 0) return 0;
    const cell = this.cell(state, a);
    const next = cell & STATE;
    if (cell & HAS_OUTPUT) this.report(next, end, onHit);
    return next;
  }

  /** The cell (next state | HAS_OUTPUT) of the move from `state` on letter `a` (> 0). */
  private cell(state: number, a: number): number {
    if (a <= this.dense && state < this.denseNodes) return this.delta[state * this.dense + a - 1]!;
    const next = this.move(state, a);
    return this.hasOutput[next] ? next | HAS_OUTPUT : next;
  }

  /** Calls `onHit(pattern, end)` for each pattern ending at `state` (a state whose cell has HAS_OUTPUT). */
  private report(state: number, end: number, onHit: (pattern: number, end: number) => void): void {
    for (let s = this.ownFirst[state] !== -1 ? state : this.outLink[state]!; s !== -1; s = this.outLink[s]!)
      for (let p = this.ownFirst[s]!; p !== -1; p = this.nextSame[p]!) onHit(p, end);
  }
}
