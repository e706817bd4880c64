import { AhoCorasick } from "./aho-corasick";
import { FormsIndex } from "./forms-index";
import { isWholeWord, isWordAt, matchStart, nfkc, normaliseKeyword } from "./normalise";
import { Occurrences } from "./occurrences";
import { PostScan } from "./post-scan";
import { Postings } from "./postings";
import { anchorTerms, compileTracker, OVER_BUDGET, termKeys, type CompiledQuery, type MatchSettings } from "./query-match";
import { QueryRunner } from "./query-run";

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
interface KeywordHit<T> {
  tracker: T;
  start: number;
  end: number;
}

/** `over` of a text no query tracker was a candidate for (most texts): shared, never changed */
const NO_OVER: readonly never[] = Object.freeze([]);
const KEYWORD = 0;
const MINUS = 1;
/** the pattern is in the tracker's anchor: an occurrence makes the tracker's query a candidate */
const ANCHOR = 2;

/**
 * All enabled trackers indexed once: keywords and minus words (normalised) go into one
 * Aho-Corasick automaton, so a message is scanned once whatever the number of trackers.
 * Rules: non-exact keywords match as substrings of the normalised text; exact ones as whole
 * words/phrases (Unicode letters, digits and marks are word characters); a minus word anywhere in
 * the text vetoes, matched the same way (substring or whole word) as the tracker's keyword.
 *
 * Queries (query-match.ts) put their terms into the same automaton, or, for a term whose first word
 * has word forms, into the FormsIndex by that word's keys. An occurrence of a term is noted once
 * per post, whichever trackers have the term (Occurrences). A query tracker is filed under its
 * anchor only (the rarest group of terms one of which any post it matches contains): it is
 * evaluated (QueryRunner) only on the posts where its anchor occurs, on the occurrences noted.
 */
export class TrackerIndex<T extends MatchableTracker> {
  private automaton: AhoCorasick;
  /** the one pass over a post: the automaton and the word forms, through the cache of words */
  private scanner: PostScan;
  /** per pattern: (trackerIndex, role) pairs */
  private owners: Postings;
  /** per pattern: 1 when it is a query term's (its occurrences at a word's start are noted) */
  private termPattern: Uint8Array;
  private exact: Uint8Array;
  private hitGen: Int32Array;
  private minusGen: Int32Array;
  private hitStart: Int32Array;
  private hitEnd: Int32Array;
  private gen = 0;
  private hitList: number[] = [];
  /** per tracker: its query, or null for a plain tracker */
  private queries: (CompiledQuery | null)[];
  private runner = new QueryRunner();
  private occurrences: Occurrences;
  private candidateGen: Int32Array;
  private candidates: number[] = [];
  private text = "";
  private readonly onHit = (p: number, end: number) => this.record(p, end);
  private readonly onCandidate = (t: number) => this.candidate(t);

  /** `wordCacheBits`: the cache of words' largest size (post-scan.ts; tests make it small or 0). */
  constructor(
    readonly trackers: readonly T[],
    wordCacheBits?: number,
  ) {
    const patternIds = new Map<string, number>();
    const owners = new Postings();
    const termPatterns: number[] = [];
    const patternOf = (p: string) => {
      let id = patternIds.get(p);
      if (id === undefined) patternIds.set(p, (id = patternIds.size));
      return id;
    };
    const add = (raw: string, trackerIndex: number, role: number) => {
      const p = normaliseKeyword(raw);
      if (p) owners.add(patternOf(p), trackerIndex, role);
    };
    const forms = new FormsIndex();
    // a term's ref while building: its pattern (>= 0), its key set (-2 - set), or -1 (it never occurs)
    const refOf = (term: { pattern: string }) => {
      const keys = termKeys(term as Parameters<typeof termKeys>[0]);
      if (keys) return -2 - forms.setOf(keys);
      const p = normaliseKeyword(term.pattern);
      if (!p) return -1;
      const id = patternOf(p);
      termPatterns.push(id);
      return id;
    };
    this.queries = trackers.map((t, i) => {
      const query = compileTracker(t);
      const ids = this.runner.add(query, refOf);
      if (query)
        for (const ref of new Set(anchorTerms(query).map((k) => this.runner.refOf(ids[k]!)))) {
          if (ref >= 0) owners.add(ref, i, ANCHOR);
          else if (ref <= -2) forms.anchor(-2 - ref, i);
        }
      else {
        add(t.keyword, i, KEYWORD);
        for (const w of t.minusWords ?? []) add(w, i, MINUS);
      }
      return query;
    });
    const patterns = patternIds.size;
    this.automaton = new AhoCorasick([...patternIds.keys()]);
    this.owners = owners.freeze(patterns);
    this.termPattern = new Uint8Array(patterns);
    for (const p of termPatterns) this.termPattern[p] = 1;
    forms.freeze();
    this.scanner = new PostScan(this.automaton, forms.size ? forms : null, wordCacheBits);
    this.occurrences = new Occurrences(patterns + forms.size);
    this.runner.freeze((ref) => (ref >= 0 ? ref : ref <= -2 ? patterns - 2 - ref : -1));
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

  private candidate(t: number): void {
    if (this.candidateGen[t] !== this.gen) {
      this.candidateGen[t] = this.gen;
      this.candidates.push(t);
    }
  }

  private record(pattern: number, end: number): void {
    const start = matchStart(this.text, end, this.automaton.patternLength[pattern]!);
    // every query term starts a word (a whole word, a prefix, a phrase): inside a word it is no occurrence
    let wordStart = -1;
    if (this.termPattern[pattern]) {
      wordStart = isWordAt(this.text, start - 1, -1) ? 0 : 1;
      if (wordStart) this.occurrences.add(pattern, start, end);
    }
    const owners = this.owners.list;
    let whole = -1;
    for (let k = 2 * this.owners.start[pattern]!, to = 2 * this.owners.start[pattern + 1]!; k < to; k += 2) {
      const t = owners[k]!;
      const role = owners[k + 1]!;
      if (role === ANCHOR) {
        if (wordStart) this.candidate(t);
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
    const text = nfkc(raw);
    this.gen++;
    this.text = text;
    this.hitList.length = 0;
    this.occurrences.reset();
    this.scanner.scan(text, this.onHit, this.occurrences, this.termPattern.length, this.onCandidate);
    const hits: KeywordHit<T>[] = [];
    for (const t of this.hitList)
      if (this.minusGen[t] !== this.gen) hits.push({ tracker: this.trackers[t]!, start: this.hitStart[t]!, end: this.hitEnd[t]! });
    if (!this.candidates.length) return { text, hits, over: NO_OVER as unknown as T[], work: 0 };
    const over: T[] = [];
    let work = 0;
    this.runner.begin(text, this.occurrences);
    for (const t of this.candidates) {
      const hit = this.runner.evaluate(t, this.queries[t]!);
      work = Math.max(work, this.runner.spent);
      if (hit === OVER_BUDGET) over.push(this.trackers[t]!);
      else if (hit) hits.push({ tracker: this.trackers[t]!, ...hit });
    }
    this.candidates.length = 0;
    return { text, hits, over, work };
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
