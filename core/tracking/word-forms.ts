/**
 * Word forms for trackers with `word_forms: true`. Each word is reduced to keys: the dictionary
 * words (lemmas) it is a form of (dictionary.ts: OpenCorpora for Cyrillic words, WordNet for
 * Latin ones), and two words are forms of one another when their keys meet. So `каналов` and
 * `канала` meet at `канал`, `дня` at `день`, `went` at `go`, while `банк` and `левый` never meet
 * `банка` and `лев` unless a form really is shared (`банку` is a form of both).
 *
 * A word the dictionary does not know falls back to its Snowball stem (`биткоина` and `биткоины`
 * meet at `~биткоин`), a word also counting as its own stem; stems only meet stems, never a
 * dictionary word. A word under 4 letters is never stemmed: unknown, it meets only itself. Words in
 * other scripts, or mixing letters and digits, have no forms: they match as whole words.
 *
 * A keyword's word that is itself a dictionary word means that word (`банка` the jar, not the
 * genitive of `банк`); a post's word means every word it may be a form of.
 */
import { newStemmer } from "snowball-stemmers";
import { englishLemmas, russianLemmas } from "./dictionary";

const russian = newStemmer("russian");
const english = newStemmer("english");
const CYRILLIC = /^\p{Script=Cyrillic}+$/u;
const LATIN = /^\p{Script=Latin}+$/u;
const MIN_STEMMED = 4;
/** entries of each cache below, at most */
const CACHE_MAX = 500_000;

/** The keys of a word; words with the same keys share one array (compared by identity first). */
export type FormKeys = readonly string[];

const interned = new Map<string, FormKeys>();
function intern(keys: string[]): FormKeys {
  const id = keys.join("\n");
  let k = interned.get(id);
  if (!k) {
    if (interned.size >= CACHE_MAX) interned.clear();
    interned.set(id, (k = keys));
  }
  return k;
}

function keysOf(word: string, keyword: boolean): FormKeys | null {
  const cyrillic = CYRILLIC.test(word);
  if (!cyrillic && !LATIN.test(word)) return null;
  const lemmas = cyrillic ? russianLemmas(word, keyword) : englishLemmas(word);
  if (lemmas.length) return intern(lemmas.sort());
  if (word.length < MIN_STEMMED) return intern([`=${word}`]);
  const stem = (cyrillic ? russian : english).stem(word);
  return intern(stem === word ? [`~${word}`] : [`~${stem}`, `~${word}`].sort());
}

/**
 * Keys of keywords' words and of posts' words (by the word as written, before folding): words
 * repeat across trackers and posts, so each is looked up in the dictionary once. Bounded: emptied
 * when full.
 */
const keywordCache = new Map<string, FormKeys | null>();
const textCache = new Map<string, FormKeys | null>();

/** The keys of a normalised keyword word, or null when it has no forms (it matches as written). */
export function keywordForms(word: string): FormKeys | null {
  let keys = keywordCache.get(word);
  if (keys !== undefined) return keys;
  keys = keysOf(word, true);
  if (keywordCache.size >= CACHE_MAX) keywordCache.clear();
  keywordCache.set(word, keys);
  return keys;
}

/** The keys of a post's word (`raw`: as written, one word; `fold` gives its normalised form), or null. */
export function textForms(raw: string, fold: (raw: string) => string): FormKeys | null {
  let keys = textCache.get(raw);
  if (keys !== undefined) return keys;
  keys = keysOf(fold(raw), false);
  if (textCache.size >= CACHE_MAX) textCache.clear();
  textCache.set(raw, keys);
  return keys;
}

/** Whether two words' keys meet (each list is sorted and short). */
export function sharesForm(a: FormKeys, b: FormKeys): boolean {
  if (a === b) return true;
  for (const x of a) if (b.includes(x)) return true;
  return false;
}
