/**
 * The matcher's one pass over a post: the Aho-Corasick automaton (aho-corasick.ts) and the
 * word-forms index (forms-index.ts) read it together, a word at a time, through the cache of words
 * (word-cache.ts). A word (a run of letters, digits and marks; invisible characters inside it are
 * part of it) is hashed once over its folded letters and looked up once: its word-forms key sets
 * and, when the automaton enters it at the root or in the root's space state, the state it leaves
 * and the patterns ending inside it come from there. Anything else (the characters between words,
 * a word entered deeper in the automaton, a word with invisible characters or longer than 64 code
 * units) is read a character at a time, as `AhoCorasick.scan` reads it. The hits and the
 * occurrences are the same, in the same order, as reading the post a character at a time and then
 * its words for their forms.
 */
import { type AhoCorasick, IGNORED } from "./aho-corasick";
import type { FormsIndex } from "./forms-index";
import { FOLD, INVISIBLE, WORD } from "./normalise";
import type { Occurrences } from "./occurrences";
import { HASH_START, hashStep, WordCache } from "./word-cache";

/** Longer words are read a character at a time and not kept. */
const LONGEST_CACHED = 64;

type OnHit = (pattern: number, end: number) => void;

export class PostScan {
  private readonly words: WordCache;
  /** the hits' handler of the scan under way */
  private onHit: OnHit = () => {};
  /** the start of the word whose hits are being noted in the cache */
  private wordStart = 0;
  private readonly noteHit: OnHit = (p, end) => {
    this.words.hit(p, end - this.wordStart);
    this.onHit(p, end);
  };
  /** the key sets the post's words had, in text order (their trackers become candidates after the scan) */
  private found: number[] = [];

  /** `maxBits`: the cache of words' largest size (word-cache.ts; tests make it small or 0). */
  constructor(
    private readonly automaton: AhoCorasick,
    private readonly forms: FormsIndex | null,
    maxBits?: number,
  ) {
    this.words = new WordCache(maxBits);
  }

  /**
   * Reads `text` (NFKC): `onHit(pattern, end)` for every occurrence of an automaton pattern, as
   * `AhoCorasick.scan` gives them; then, when there are word-forms terms, notes every word's key
   * sets as occurrences of slot `base + set` and calls `candidate` with the trackers anchored there.
   */
  scan(text: string, onHit: OnHit, occurrences: Occurrences, base: number, candidate: (t: number) => void): void {
    const words = this.words;
    const forms = this.forms;
    const automaton = this.automaton;
    const letters = automaton.letters;
    const { spaceLetter, spaceState } = automaton;
    let state = 0;
    let inSpace = false;
    this.found.length = 0;
    const n = text.length;
    for (let i = 0; i < n; ) {
      const c = text.charCodeAt(i++);
      if (!WORD[c]) {
        // a character between words: one move, as AhoCorasick.scan makes it
        let a = letters[c]!;
        if (a < 0) {
          if (a === IGNORED || inSpace) continue;
          inSpace = true;
          a = spaceLetter;
        } else inSpace = false;
        state = automaton.step(state, a, i, onHit);
        continue;
      }
      // a word: its end, its letters' count and hash, whether it holds invisible characters
      const start = i - 1;
      let h = HASH_START;
      let length = 0;
      for (i = start; i < n; i++) {
        const d = text.charCodeAt(i);
        if (INVISIBLE[d]) continue;
        if (!WORD[d]) break;
        h = hashStep(h, FOLD[d]!);
        length++;
      }
      let entry = -1;
      if (i - start <= LONGEST_CACHED) {
        entry = words.find(text, start, i, length, h, FOLD, INVISIBLE);
        if (entry === -1) entry = words.add(text, start, i, length, h, FOLD, INVISIBLE);
      }
      if (entry !== -1 && length === i - start && (state === 0 || state === spaceState)) {
        const context = state === 0 ? 0 : 1;
        const exit = words.exit(entry, context);
        if (exit !== -1) {
          const hits = words.hits;
          for (let k = words.hitsFrom(entry, context), to = k + 2 * words.hitCount(entry, context); k < to; k += 2)
            onHit(hits[k]!, start + hits[k + 1]!);
          state = exit;
        } else {
          this.wordStart = start;
          const from = words.beginHits();
          this.onHit = onHit;
          state = this.read(text, start, i, state, this.noteHit);
          words.setExit(entry, context, state, from);
        }
      } else state = this.read(text, start, i, state, onHit);
      // inside a word only zero-width characters are no letters: a word with a letter ends any whitespace
      if (length) inSpace = false;
      if (forms) this.formsOf(text, start, i, entry, occurrences, base);
    }
    if (forms) for (const set of this.found) forms.candidates(set, candidate);
  }

  /** Notes the key sets of the word `text[start, end)` (its cache entry, or -1). */
  private formsOf(text: string, start: number, end: number, entry: number, occurrences: Occurrences, base: number): void {
    const words = this.words;
    if (entry === -1) {
      for (const set of this.forms!.setsOf(text.slice(start, end))) {
        occurrences.add(base + set, start, end);
        this.found.push(set);
      }
      return;
    }
    if (words.setsFrom(entry) === -1) words.setSets(entry, this.forms!.setsOf(text.slice(start, end)));
    const sets = words.sets;
    for (let k = words.setsFrom(entry), to = k + words.setCount(entry); k < to; k++) {
      occurrences.add(base + sets[k]!, start, end);
      this.found.push(sets[k]!);
    }
  }

  /**
   * The automaton's state after reading the word `text[from, to)` from `state` a character at a
   * time, as `AhoCorasick.scan` does (in a word no character is whitespace: only zero-width ones
   * are skipped).
   */
  private read(text: string, from: number, to: number, state: number, onHit: OnHit): number {
    const automaton = this.automaton;
    const letters = automaton.letters;
    for (let i = from; i < to; i++) {
      const a = letters[text.charCodeAt(i)]!;
      if (a !== IGNORED) state = automaton.step(state, a, i + 1, onHit);
    }
    return state;
  }
}
