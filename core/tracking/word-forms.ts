/**
 * Word forms for trackers with `word_forms: true`: two words are forms of one another when their
 * Snowball stems agree (Russian for Cyrillic words, English for Latin ones). Snowball cuts some
 * dictionary forms further than their inflections (`канал` → `кана` as a past-tense verb, `каналы` →
 * `канал`), so a word also counts as its own stem: `канал` and `каналы` meet at `канал`, while
 * `канализация` (`канализац`) meets neither. Words in other scripts, or mixing letters and digits,
 * have no forms: they match as whole words.
 */
import { newStemmer } from "snowball-stemmers";

const russian = newStemmer("russian");
const english = newStemmer("english");
const CYRILLIC = /^\p{Script=Cyrillic}+$/u;
const LATIN = /^\p{Script=Latin}+$/u;

/** Stems already computed (the words of posts repeat): bounded, emptied when full. */
const cache = new Map<string, string>();
const CACHE_MAX = 50_000;

/** The Snowball stem of a normalised word, or null when the word has no forms (see the module comment). */
function stem(word: string): string | null {
  let s = cache.get(word);
  if (s !== undefined) return s || null;
  s = CYRILLIC.test(word) ? russian.stem(word) : LATIN.test(word) ? english.stem(word) : "";
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(word, s);
  return s || null;
}

/** A keyword's word as the matcher compares forms with it. */
export interface FormsOf {
  word: string;
  stem: string;
  /**
   * What every form of the word starts with, put into the automaton: the longest common prefix of
   * the word and its stem (English stems may end in `i` for `y`: `happy` → `happi`, and `happ` is
   * what `happy` and `happiness` share).
   */
  prefix: string;
}

/** The forms of a normalised keyword word, or null when it has none. */
export function formsOf(word: string): FormsOf | null {
  const s = stem(word);
  if (!s) return null;
  let n = 0;
  while (n < s.length && n < word.length && s[n] === word[n]) n++;
  return { word, stem: s, prefix: word.slice(0, Math.max(n, 1)) };
}

/** Whether normalised `textWord` is a form of the keyword word. */
export function isFormOf(forms: FormsOf, textWord: string): boolean {
  if (textWord === forms.word || textWord === forms.stem) return true;
  const s = stem(textWord);
  return s !== null && (s === forms.stem || s === forms.word);
}
