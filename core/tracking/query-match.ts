/**
 * Queries and word forms as the matcher checks them. A tracker that is a query or uses word forms
 * is compiled into terms; each term puts one pattern into the shared automaton (a word, a phrase or a
 * prefix) or, when its first word has forms, that word's dictionary keys into the matcher's index
 * of keys (word-forms.ts). The scan reports where a pattern or a form of a key occurs; only there,
 * and only for the trackers that own it, is the term checked (word boundaries, forms, the rest of
 * a phrase), and only for those trackers is the query evaluated. No tracker reads the whole text on
 * its own.
 */
import { FOLD, INVISIBLE, SPACE, WORD, isWholeWord, isWordAt, normalise, normaliseKeyword } from "./normalise";
import { evaluate, parseQuery, positiveTerms, type QueryNode } from "./query";
import { keywordForms, sharesForm, textForms, type FormKeys } from "./word-forms";

/** The matcher's view of a tracker's matching settings. */
export interface MatchSettings {
  keyword: string;
  exactMatch: boolean;
  minusWords: string[] | null;
  syntax?: "plain" | "query";
  wordForms?: boolean;
}

const EXACT = 0;
const PREFIX = 1;
const FORMS = 2;

/** A word with forms: as the keyword wrote it (normalised) and its keys. */
interface FormsWord {
  word: string;
  keys: FormKeys;
}

/** A term: the pattern it puts into the automaton (or, FORMS, the keys of its first word) and how an occurrence of it is checked. */
export interface TermCheck {
  /** the automaton's pattern; "" when the first word's keys stand for it */
  pattern: string;
  kind: typeof EXACT | typeof PREFIX | typeof FORMS;
  /** FORMS: the phrase's words, each with its forms or (no forms) as a literal */
  words: (FormsWord | string)[];
}

export interface CompiledQuery {
  root: QueryNode;
  terms: TermCheck[];
  /** terms outside any NOT, in order: the first one found shows the match */
  positive: number[];
}

function formsWord(word: string): FormsWord | string {
  const keys = keywordForms(word);
  return keys ? { word, keys } : word;
}

/** The keys standing for a FORMS term in the matcher's index (its first word's), or null when its pattern does. */
export function termKeys(term: TermCheck): FormKeys | null {
  const first = term.words[0];
  return term.kind === FORMS && first !== undefined && typeof first !== "string" ? first.keys : null;
}

/**
 * Terms are shared by every tracker that has them (a million trackers repeat the same words):
 * bounded, emptied when full (a term is immutable, so trackers keep theirs).
 */
const sharedTerms = new Map<string, TermCheck>();
const TERMS_MAX = 500_000;
const NO_WORDS: string[] = [];

function termCheck(words: string[], prefix: boolean, wordForms: boolean): TermCheck {
  const id = `${prefix ? "*" : wordForms ? "~" : "="}${words.join(" ")}`;
  let term = sharedTerms.get(id);
  if (term) return term;
  if (prefix) term = { pattern: words[0]!, kind: PREFIX, words: NO_WORDS };
  else {
    const forms = wordForms ? words.map((w): FormsWord | string => (w.length ? formsWord(w) : w)) : words;
    const first = forms[0]!;
    if (!forms.some((w) => typeof w !== "string")) term = { pattern: words.join(" "), kind: EXACT, words: NO_WORDS };
    else term = { pattern: typeof first === "string" ? first : "", kind: FORMS, words: forms };
  }
  if (sharedTerms.size >= TERMS_MAX) sharedTerms.clear();
  sharedTerms.set(id, term);
  return term;
}

/**
 * The query a tracker matches by, or null for a plain tracker without word forms (the matcher's
 * own fast path, unchanged). Minus words join the query as NOT terms, matched as whole words (with
 * forms when the tracker uses them). A stored query that no longer parses matches nothing (null root).
 */
export function compileTracker(t: MatchSettings): CompiledQuery | null {
  const query = t.syntax === "query";
  const forms = t.wordForms === true;
  if (!query && !forms) return null;
  const terms: TermCheck[] = [];
  const items: QueryNode[] = [];
  if (query) {
    let parsed: ReturnType<typeof parseQuery>;
    try {
      parsed = parseQuery(t.keyword);
    } catch {
      return { root: { kind: "or", items: [] }, terms: [], positive: [] };
    }
    for (const term of parsed.terms) terms.push(termCheck(term.words, term.prefix, forms));
    items.push(parsed.root);
  } else {
    const keyword = normaliseKeyword(t.keyword);
    if (!keyword) return { root: { kind: "or", items: [] }, terms: [], positive: [] };
    terms.push(termCheck(keyword.split(" "), false, true));
    items.push({ kind: "term", term: 0 });
  }
  for (const w of t.minusWords ?? []) {
    const minus = normaliseKeyword(w);
    if (!minus) continue;
    terms.push(termCheck(minus.split(" "), false, forms));
    items.push({ kind: "not", item: { kind: "term", term: terms.length - 1 } });
  }
  const root: QueryNode = items.length === 1 ? items[0]! : { kind: "and", items };
  return { root, terms, positive: [...positiveTerms(root)].sort((a, b) => a - b) };
}

/** The end of the word starting at `i` (letters, digits, marks, `_`; invisible characters inside skipped). */
function wordEnd(s: string, i: number): number {
  let end = i;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (INVISIBLE[c]) i++;
    else if (c >= 0xd800 && c <= 0xdfff) {
      if (!isWordAt(s, i, 1)) break;
      end = i += 2;
    } else if (WORD[c]) end = ++i;
    else break;
  }
  return end;
}

/** Where the normalised `word` (no spaces) ends when it is written at `i` of `s`, or -1. */
function literalAt(s: string, i: number, word: string): number {
  for (let k = 0; k < word.length; k++, i++) {
    while (i < s.length && INVISIBLE[s.charCodeAt(i)]) i++;
    if (i >= s.length || FOLD[s.charCodeAt(i)] !== word.charCodeAt(k)) return -1;
  }
  return i;
}

/**
 * Checks an occurrence of a term's pattern at [start, end) of the NFKC text: returns where the
 * term's match ends (a prefix or a form runs to the end of its word), or -1 when it is no match there.
 */
function checkTerm(term: TermCheck, s: string, start: number, end: number): number {
  if (term.kind === EXACT) return isWholeWord(s, start, end) ? end : -1;
  if (isWordAt(s, start - 1, -1)) return -1;
  if (term.kind === PREFIX) return wordEnd(s, end);
  let pos = start;
  for (let w = 0; w < term.words.length; w++) {
    if (w > 0) {
      // words of a phrase are separated by whitespace only, as in a plain phrase
      let spaced = false;
      while (pos < s.length && (SPACE[s.charCodeAt(pos)] || INVISIBLE[s.charCodeAt(pos)])) spaced ||= SPACE[s.charCodeAt(pos++)] === 1;
      if (!spaced) return -1;
    }
    const word = term.words[w]!;
    if (typeof word === "string") {
      pos = literalAt(s, pos, word);
      if (pos === -1 || isWordAt(s, pos, 1)) return -1;
    } else {
      const e = wordEnd(s, pos);
      const keys = e === pos ? null : textForms(s.slice(pos, e), normalise);
      if (!keys || !sharesForm(keys, word.keys)) return -1;
      pos = e;
    }
  }
  return pos;
}

/** Word numbers of positions in one text, for NEAR: computed once per text, when first asked. */
export class WordPositions {
  private starts: number[] | null = null;
  constructor(private readonly s: string) {}

  /** The number of the word holding (or last before) position `i`. */
  at(i: number): number {
    const starts = (this.starts ??= this.find());
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= i) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  private find(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.s.length; i++)
      if (!INVISIBLE[this.s.charCodeAt(i)] && isWordAt(this.s, i, 1) && !isWordAt(this.s, i - 1, -1)) out.push(i);
    return out;
  }
}

/**
 * Evaluates a compiled query on the occurrences its patterns had in `s` (`found(term)`: the raw
 * [start, end) pairs of the term's pattern). Returns the match to show, or null.
 */
export function evaluateQuery(
  q: CompiledQuery,
  s: string,
  found: (term: number) => number[] | undefined,
  words: () => WordPositions,
): { start: number; end: number } | null {
  const checked = new Map<number, number[]>();
  const hits = (term: number): number[] => {
    let list = checked.get(term);
    if (list) return list;
    list = [];
    const raw = found(term);
    if (raw)
      for (let k = 0; k < raw.length; k += 2) {
        const e = checkTerm(q.terms[term]!, s, raw[k]!, raw[k + 1]!);
        if (e !== -1) list.push(raw[k]!, e);
      }
    checked.set(term, list);
    return list;
  };
  const near = (a: number, b: number, distance: number) => {
    const w = words();
    const ha = hits(a);
    const hb = hits(b);
    for (let i = 0; i < ha.length; i += 2)
      for (let j = 0; j < hb.length; j += 2) {
        const [first, second] = ha[i]! <= hb[j]! ? [i, j] : [j, i];
        const [l, r] = ha[i]! <= hb[j]! ? [ha, hb] : [hb, ha];
        const between = w.at(r[second]!) - w.at(l[first + 1]! - 1) - 1;
        if (between >= 0 && between <= distance) return true;
      }
    return false;
  };
  if (!evaluate(q.root, (term) => hits(term).length > 0, near)) return null;
  let best: { start: number; end: number } | null = null;
  for (const term of q.positive) {
    const list = hits(term);
    if (list.length && (!best || list[0]! < best.start)) best = { start: list[0]!, end: list[1]! };
  }
  if (best) return best;
  for (const list of checked.values()) if (list.length) return { start: list[0]!, end: list[1]! };
  return null;
}
