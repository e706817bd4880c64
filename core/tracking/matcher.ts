import { AhoCorasick } from "./aho-corasick";
import { Postings } from "./postings";
import { FOLD, INVISIBLE, WORD, isWholeWord, isWordAt, matchStart, normalise, normaliseKeyword } from "./normalise";
import {
  compileTracker,
  evaluateQuery,
  OVER_BUDGET,
  termKeys,
  WORK_BUDGET,
  WordPositions,
  type CompiledQuery,
  type MatchSettings,
} from "./query-match";
import { textForms } from "./word-forms";
import { WordTable } from "./word-table";

/** What the matcher needs of a tracker (`syntax` and `wordForms` default to plain and off). */
export interface MatchableTracker extends MatchSettings {
  id: number;
}

/**
 * What matching a text found: its NFKC form (in which positions are given), the trackers that match,
 * the query trackers skipped because they would have cost more than WORK_BUDGET on it, and the most
 * work one tracker spent on it (units of query-match.ts's budget; 0 without queries).
 */
export interface MatchResult<T> {
  text: string;
  hits: KeywordHit<T>[];
  over: T[];
  work: number;
}

/** A tracker whose keyword occurs in a text (and no minus word does). Positions are in the NFKC text. */
export interface KeywordHit<T> {
  tracker: T;
  start: number;
  end: number;
}

const NONE = new Int32Array(0);
/** `over` of a text no query tracker was a candidate for (most texts): shared, never changed */
const NO_OVER: readonly never[] = Object.freeze([]);
const KEYWORD = 0;
const MINUS = 1;
/** roles from TERM up: term (role - TERM) of a query tracker */
const TERM = 2;

/**
 * All enabled trackers indexed once: keywords and minus words (normalised) go into one
 * Aho-Corasick automaton, so a message is scanned once whatever the number of trackers.
 * Rules: non-exact keywords match as substrings of the normalised text; exact ones as whole
 * words/phrases (Unicode letters, digits and marks are word characters); a minus word anywhere in
 * the text vetoes, matched the same way (substring or whole word) as the tracker's keyword.
 * Queries (query-match.ts) put their terms into the same automaton; an occurrence is only noted
 * during the scan, and the trackers it concerns are checked after it. A term whose first word has
 * word forms is indexed by that word's keys (its dictionary words, word-forms.ts) instead: when
 * such terms exist, the post's words are looked up by their keys (once per distinct word, cached)
 * and an occurrence is noted for the terms indexed under them.
 */
export class TrackerIndex<T extends MatchableTracker> {
  private automaton: AhoCorasick;
  /** per pattern: (trackerIndex, role) pairs */
  private owners: Postings;
  private exact: Uint8Array;
  private hitGen: Int32Array;
  private minusGen: Int32Array;
  private hitStart: Int32Array;
  private hitEnd: Int32Array;
  private gen = 0;
  private hitList: number[] = [];
  /** per tracker: its query, or null for a plain tracker */
  private queries: (CompiledQuery | null)[];
  /** occurrences of query terms in this scan: flat (tracker, term, start, end), and the query trackers concerned */
  private termHits: number[] = [];
  private candidateGen: Int32Array;
  private candidates: number[] = [];
  /** word-forms terms by key: the key's group in keyOwners, which holds (trackerIndex, role) pairs */
  private keyIds = new Map<string, number>();
  private keyOwners: Postings;
  /** per word of posts as written: the groups of keyOwners its keys have (NONE mostly); bounded */
  private wordGroups: WordTable<Int32Array> | null = null;
  private text = "";
  private readonly onHit = (p: number, end: number) => this.record(p, end);

  constructor(readonly trackers: readonly T[]) {
    const patternIds = new Map<string, number>();
    const owners = new Postings();
    const add = (raw: string, trackerIndex: number, role: number) => {
      const p = normaliseKeyword(raw);
      if (!p) return;
      let id = patternIds.get(p);
      if (id === undefined) patternIds.set(p, (id = patternIds.size));
      owners.add(id, trackerIndex, role);
    };
    const keyIds = this.keyIds;
    const keyOwners = new Postings();
    this.queries = trackers.map((t, i) => {
      const query = compileTracker(t);
      if (query)
        query.terms.forEach((term, k) => {
          const keys = termKeys(term);
          if (!keys) return add(term.pattern, i, TERM + k);
          for (const key of keys) {
            let id = keyIds.get(key);
            if (id === undefined) keyIds.set(key, (id = keyIds.size));
            keyOwners.add(id, i, TERM + k);
          }
        });
      else {
        add(t.keyword, i, KEYWORD);
        for (const w of t.minusWords ?? []) add(w, i, MINUS);
      }
      return query;
    });
    this.automaton = new AhoCorasick([...patternIds.keys()]);
    this.owners = owners.freeze(patternIds.size);
    this.keyOwners = keyOwners.freeze(keyIds.size);
    if (keyIds.size) this.wordGroups = new WordTable();
    const n = trackers.length;
    this.exact = Uint8Array.from(trackers, (t) => (t.exactMatch ? 1 : 0));
    this.hitGen = new Int32Array(n);
    this.minusGen = new Int32Array(n);
    this.hitStart = new Int32Array(n);
    this.hitEnd = new Int32Array(n);
    this.candidateGen = new Int32Array(n);
  }

  get size(): number {
    return this.trackers.length;
  }

  private noteTerm(t: number, term: number, start: number, end: number): void {
    this.termHits.push(t, term, start, end);
    if (this.candidateGen[t] !== this.gen) {
      this.candidateGen[t] = this.gen;
      this.candidates.push(t);
    }
  }

  private record(pattern: number, end: number): void {
    const start = matchStart(this.text, end, this.automaton.patternLength[pattern]!);
    const owners = this.owners.list;
    let whole = -1;
    let wordStart = -1;
    for (let k = 2 * this.owners.start[pattern]!, to = 2 * this.owners.start[pattern + 1]!; k < to; k += 2) {
      const t = owners[k]!;
      const role = owners[k + 1]!;
      if (role >= TERM) {
        // every query term starts a word (a whole word, a prefix, a phrase): inside a word it is no occurrence
        if (wordStart === -1) wordStart = isWordAt(this.text, start - 1, -1) ? 0 : 1;
        if (wordStart) this.noteTerm(t, role - TERM, start, end);
        continue;
      }
      if (this.exact[t]) {
        if (whole === -1) whole = isWholeWord(this.text, start, end) ? 1 : 0;
        if (!whole) continue;
      }
      if (role === MINUS) this.minusGen[t] = this.gen;
      else if (this.hitGen[t] !== this.gen) {
        this.hitGen[t] = this.gen;
        this.hitStart[t] = start;
        this.hitEnd[t] = end;
        this.hitList.push(t);
      }
    }
  }

  /**
   * The trackers matching `text` (a message text or caption), scanned once. `text` in the result is
   * its NFKC form, in which the hits' positions are given.
   */
  match(raw: string): MatchResult<T> {
    const text = raw.normalize("NFKC");
    this.gen++;
    this.text = text;
    this.hitList.length = 0;
    this.automaton.scan(text, this.onHit);
    if (this.keyIds.size) this.scanWords(text);
    const hits: KeywordHit<T>[] = [];
    for (const t of this.hitList)
      if (this.minusGen[t] !== this.gen) hits.push({ tracker: this.trackers[t]!, start: this.hitStart[t]!, end: this.hitEnd[t]! });
    if (!this.candidates.length) return { text, hits, over: NO_OVER as unknown as T[], work: 0 };
    const over: T[] = [];
    return { text, hits, over, work: this.checkQueries(text, hits, over) };
  }

  /** Notes the word-forms terms whose keys the words of `text` have (words as Unicode letters, digits and marks; checked again in place). */
  private scanWords(text: string): void {
    const n = text.length;
    for (let i = 0; i < n; ) {
      if (!WORD[text.charCodeAt(i)]) {
        i++;
        continue;
      }
      const start = i;
      // the word's end and its hash (FNV-1a of its folded letters, as WordTable keys words) in one pass
      let h = 0x811c9dc5;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (WORD[c]) h = Math.imul(h ^ FOLD[c]!, 0x01000193);
        else if (!INVISIBLE[c]) break;
      }
      h |= 1;
      const groups = this.wordGroups!.get(text, start, i, h) ?? this.groupsOf(text.slice(start, i), h);
      if (!groups.length) continue;
      const { start: from, list } = this.keyOwners;
      for (const id of groups)
        for (let k = 2 * from[id]!; k < 2 * from[id + 1]!; k += 2) this.noteTerm(list[k]!, list[k + 1]! - TERM, start, i);
    }
  }

  /** The groups of keyOwners a post's word (as written) belongs to, by its keys; cached per folded word. */
  private groupsOf(word: string, h: number): Int32Array {
    const ids: number[] = [];
    for (const key of textForms(word, normalise) ?? []) {
      const id = this.keyIds.get(key);
      if (id !== undefined) ids.push(id);
    }
    const groups = ids.length ? Int32Array.from(ids) : NONE;
    this.wordGroups!.set(normalise(word), h, groups);
    return groups;
  }

  /** Evaluates the queries of the trackers whose terms occurred in this scan, on those occurrences only. */
  private checkQueries(text: string, hits: KeywordHit<T>[], over: T[]): number {
    const byTracker = new Map<number, Map<number, number[]>>();
    const found = this.termHits;
    for (let k = 0; k < found.length; k += 4) {
      let terms = byTracker.get(found[k]!);
      if (!terms) byTracker.set(found[k]!, (terms = new Map()));
      const list = terms.get(found[k + 1]!);
      if (list) list.push(found[k + 2]!, found[k + 3]!);
      else terms.set(found[k + 1]!, [found[k + 2]!, found[k + 3]!]);
    }
    let words: WordPositions | null = null;
    const wordsOnce = () => (words ??= new WordPositions(text));
    let work = 0;
    for (const t of this.candidates) {
      const terms = byTracker.get(t)!;
      const budget = { left: WORK_BUDGET };
      const hit = evaluateQuery(this.queries[t]!, text, (term) => terms.get(term), wordsOnce, budget);
      work = Math.max(work, WORK_BUDGET - budget.left);
      if (hit === OVER_BUDGET) over.push(this.trackers[t]!);
      else if (hit) hits.push({ tracker: this.trackers[t]!, ...hit });
    }
    this.termHits.length = 0;
    this.candidates.length = 0;
    return work;
  }
}

/** The text a match shows: the matched words as written, and a snippet around them. */
export interface MatchExcerpt {
  matchedKeyword: string;
  snippet: string;
}

const CONTEXT = 80;

/**
 * Cuts the matched words (as the author wrote them) and up to ~80 characters of context on each side,
 * on word boundaries. `display` and the positions are those of `TrackerIndex.match`.
 */
export function excerpt(display: string, from: number, to: number): MatchExcerpt {
  let left = Math.max(0, from - CONTEXT);
  let right = Math.min(display.length, to + CONTEXT);
  if (left > 0) {
    const space = display.indexOf(" ", left);
    if (space !== -1 && space < from) left = space + 1;
  }
  if (right < display.length) {
    const space = display.lastIndexOf(" ", right);
    if (space >= to) right = space;
  }
  // a cut between the two halves of a surrogate pair (an emoji) keeps the whole character
  const isLow = (i: number) => (display.charCodeAt(i) & 0xfc00) === 0xdc00;
  if (left > 0 && isLow(left)) left--;
  if (right < display.length && isLow(right)) right++;
  const body = display.slice(left, right).replace(/\s+/g, " ").trim();
  return {
    matchedKeyword: display.slice(from, to),
    snippet: `${left > 0 ? "…" : ""}${body}${right < display.length ? "…" : ""}`,
  };
}
