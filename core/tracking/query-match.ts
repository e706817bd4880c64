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
import { parseQuery, positiveTerms, type QueryNode } from "./query";
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

/**
 * A word with forms: as the keyword wrote it (normalised) and its keys; `glued` when it follows the
 * word before without a space (the last part of a hyphenated word: `интернет-` + `магазин`).
 */
interface FormsWord {
  word: string;
  keys: FormKeys;
  glued?: boolean;
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

/**
 * A keyword's word as the terms check it with forms. A hyphenated word (`интернет-магазин`,
 * `бизнес-план`, `Санкт-Петербург`) declines in its last part: it is its first parts as written,
 * then the forms of the last glued to them (`интернет-магазине`, `бизнес-плана`).
 */
function wordsWithForms(word: string): (FormsWord | string)[] {
  const cut = word.lastIndexOf("-");
  if (cut > 0 && cut < word.length - 1) {
    const last = formsWord(word.slice(cut + 1));
    if (typeof last !== "string") return [word.slice(0, cut + 1), { ...last, glued: true }];
  }
  return [word.length ? formsWord(word) : word];
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
    const forms = wordForms ? words.flatMap(wordsWithForms) : words;
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
export function checkTerm(term: TermCheck, s: string, start: number, end: number): number {
  if (term.kind === EXACT) return isWholeWord(s, start, end) ? end : -1;
  if (isWordAt(s, start - 1, -1)) return -1;
  if (term.kind === PREFIX) return wordEnd(s, end);
  let pos = start;
  for (let w = 0; w < term.words.length; w++) {
    const word = term.words[w]!;
    if (w > 0 && (typeof word === "string" || word.glued !== true)) {
      // words of a phrase are separated by whitespace only, as in a plain phrase
      let spaced = false;
      // (the position moves on every character: `spaced ||= …(pos++)` would stop moving once spaced)
      for (; pos < s.length && (SPACE[s.charCodeAt(pos)] || INVISIBLE[s.charCodeAt(pos)]); pos++)
        if (SPACE[s.charCodeAt(pos)] === 1) spaced = true;
      if (!spaced) return -1;
    }
    if (typeof word === "string") {
      pos = literalAt(s, pos, word);
      // a literal ends its word, unless the next word is glued to it (`интернет-` + a form of `магазин`)
      const next = term.words[w + 1];
      const glued = next !== undefined && typeof next !== "string" && next.glued === true;
      if (pos === -1 || (!glued && isWordAt(s, pos, 1))) return -1;
    } else {
      const e = wordEnd(s, pos);
      const keys = e === pos ? null : textForms(s.slice(pos, e), normalise);
      if (!keys || !sharesForm(keys, word.keys)) return -1;
      pos = e;
    }
  }
  return pos;
}

/** Word numbers of positions in one text, for NEAR: computed once per text (not per tracker or pair), when first asked. */
export class WordPositions {
  private numbers: Int32Array | null = null;
  constructor(private readonly s: string) {}

  /** The number of the word holding (or last before) position `i`; -1 before the first word. */
  at(i: number): number {
    const numbers = (this.numbers ??= this.find());
    if (i < 0 || !numbers.length) return -1;
    return numbers[Math.min(i, numbers.length - 1)]!;
  }

  private find(): Int32Array {
    const s = this.s;
    const out = new Int32Array(s.length);
    let word = -1;
    for (let i = 0; i < s.length; i++) {
      if (!INVISIBLE[s.charCodeAt(i)] && isWordAt(s, i, 1) && !isWordAt(s, i - 1, -1)) word++;
      out[i] = word;
    }
    return out;
  }
}

/**
 * How much work one tracker may cost on one post: units are term occurrences checked (times the
 * words of the term) and steps of NEAR merges. A tracker that would pass it is skipped for that post
 * (the matcher reports it) instead of holding the post up. The costliest post a query can meet
 * (30 terms of one-letter words over 4,096 characters) needs about 180,000.
 */
export const WORK_BUDGET = 50_000;

/** A query's answer when the tracker's budget ran out before the answer was known. */
export const OVER_BUDGET = "over_budget";

/**
 * Whether an occurrence of `a` (word numbers `aStart`, `aEnd`, pairs in text order) and one of `b`
 * are at most `distance` other words apart, in either order: a merge of the sorted lists, linear in
 * their lengths. Ends are non-decreasing with starts (occurrences of one term all have its length).
 */
export function nearInOrder(aEnd: Int32Array, bStart: Int32Array, distance: number): boolean {
  let i = 0;
  for (let j = 0; j < bStart.length; j++) {
    const sb = bStart[j]!;
    // a must end within [sb - distance - 1, sb - 1]
    while (i < aEnd.length && aEnd[i]! < sb - distance - 1) i++;
    if (i === aEnd.length) return false;
    if (aEnd[i]! <= sb - 1) return true;
  }
  return false;
}

/**
 * What a term costs as an anchor (lower: rarer in posts): a prefix matches many words, a short word
 * is a common one, a phrase needs its other words too.
 */
function anchorCost(term: TermCheck): number {
  const first =
    term.kind === FORMS ? (typeof term.words[0] === "string" ? term.words[0] : term.words[0]!.word) : term.pattern.split(" ")[0]!;
  const phrase = term.kind === FORMS ? term.words.length > 1 : term.pattern.includes(" ");
  return ((term.kind === PREFIX ? 16 : 1) * (phrase ? 0.5 : 1) * 8) / Math.max(1, first.length);
}

/** Groups of terms of which one at least occurs in every post `node` matches (AND: each child's; OR: one group, a group from each item). */
function requiredGroups(node: QueryNode, cost: (group: number[]) => number): number[][] {
  switch (node.kind) {
    case "term":
      return [[node.term]];
    case "near":
      return [[node.a], [node.b]];
    case "not":
      return [];
    case "and":
      return node.items.flatMap((n) => requiredGroups(n, cost));
    case "or": {
      const union: number[] = [];
      for (const item of node.items) {
        const groups = requiredGroups(item, cost);
        if (!groups.length) return [];
        union.push(...groups.reduce((a, b) => (cost(b) < cost(a) ? b : a)));
      }
      return [[...new Set(union)]];
    }
  }
}

/**
 * The terms of a query one of which must occur in a post for it to match, the rarest such group
 * by anchorCost: the matcher evaluates the query only on posts where one of them occurs. Without a
 * smaller group, every term (a query that matches needs one of its terms: parseQuery refuses the rest).
 */
export function anchorTerms(q: CompiledQuery): number[] {
  const costs = q.terms.map(anchorCost);
  const cost = (group: number[]) => group.reduce((sum, t) => sum + costs[t]!, 0);
  const groups = requiredGroups(q.root, cost);
  if (!groups.length) return q.terms.map((_, k) => k);
  return groups.reduce((a, b) => (cost(b) < cost(a) ? b : a));
}
