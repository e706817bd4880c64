/**
 * The morphological dictionaries behind word forms: which dictionary words (lemmas) a word form
 * belongs to. Russian: OpenCorpora's dictionary as compiled for pymorphy2 and shipped by `az`
 * (every case, number, tense, participle, gerund, short form and comparative, with stem changes:
 * `дня` → `день`, `дети` → `ребёнок`, `пишу` → `писать`, `лучше` → `хороший`). English: WordNet's
 * word list and its exception lists (`went` → `go`, `children` → `child`, `better` → `good`)
 * shipped by `wink-lexicon`, with WordNet's own suffix rules (Morphy), stricter where they join
 * different words (`runes` is not a form of the verb `run`).
 *
 * Both load on first use (about 0.3 s and 100 MB of memory), so a service without word-forms
 * trackers never pays for them.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Az from "az";

let russianReady = false;

/**
 * Loads az's dictionary synchronously: its loader reads files through callbacks, which we answer
 * once it has asked for every file (it counts them as it asks).
 */
function loadRussian(): void {
  if (russianReady) return;
  const dir = join(dirname(require.resolve("az/package.json")), "dicts");
  const asyncLoad = Az.load;
  const answers: (() => void)[] = [];
  Az.load = (url, type, callback) => {
    const data = readFileSync(url);
    answers.push(() => callback(null, type === "json" ? JSON.parse(data.toString("utf8")) : new Uint8Array(data).slice().buffer));
  };
  let failure: Error | null = null;
  try {
    Az.Morph.init(dir, (e) => (failure = e));
    for (const answer of answers) answer();
  } finally {
    Az.load = asyncLoad;
  }
  if (failure) throw failure;
  russianReady = true;
}

const fold = (w: string) => w.replaceAll("ё", "е");
const RUSSIAN_CONFIG = { parsers: ["Dictionary"], typos: 0, stutter: 0, ignoreCase: true };

/** Parts of speech that decline alike: a pronoun written as `любая` also reads as the adjective `любой`. */
const DECLENSION: Record<string, string> = { NPRO: "ADJF", PRTF: "ADJF" };
const declension = (pos: string | undefined) => (pos ? (DECLENSION[pos] ?? pos) : "");

/**
 * The Russian lemmas of a lower-case word (ё read as е), or an empty list when the dictionary does
 * not know it. `preferOwn`: when the word is itself a lemma, only that lemma and the other
 * nominative readings of the same kind of word: a keyword written as `банка` means the jar, not the
 * genitive of `банк`, and `будущее` the noun, not the adjective `будущий`; but the pronoun `любая`
 * is also the adjective `любой`.
 */
export function russianLemmas(word: string, preferOwn: boolean): string[] {
  loadRussian();
  let readings: { lemma: string; kind: string; nominative: boolean; name: boolean }[] = [];
  for (const parse of Az.Morph(word, RUSSIAN_CONFIG)) {
    if (parse.tag.Abbr) continue; // `гол.` (голландский) is an abbreviation, not a form of `гол`
    const lemma = parse.inflect(0);
    const name = !!(parse.tag.Name || parse.tag.Surn || parse.tag.Patr);
    readings.push({ lemma: fold(lemma.word), kind: declension(lemma.tag.POS), nominative: !!parse.tag.nomn, name });
  }
  // a person's name is a reading only of a word that has no other (`полями` is not `Полевич`'s)
  if (readings.some((r) => !r.name)) readings = readings.filter((r) => !r.name);
  const own = preferOwn ? readings.filter((r) => r.lemma === word) : [];
  const chosen = own.length ? readings.filter((r) => r.lemma === word || (r.nominative && own.some((o) => o.kind === r.kind))) : readings;
  return [...new Set(chosen.map((r) => r.lemma))];
}

/**
 * The readings of a Russian word (for the benchmark's word list): the dictionary word it is a form
 * of, that word's part of speech, and the form's grammemes (OpenCorpora's tag, e.g. `NOUN,inan,masc plur,gent`).
 */
export function russianLexemes(word: string): { lemma: string; pos: string; tag: string }[] {
  loadRussian();
  return Az.Morph(word, RUSSIAN_CONFIG)
    .filter((p) => !p.tag.Abbr)
    .map((p) => {
      const lemma = p.inflect(0);
      return { lemma: lemma.word, pos: lemma.tag.POS ?? "", tag: String(p.tag) };
    });
}

/** Every form of the Russian lemma `word` with its part of speech, from the parse whose lemma it is (for the benchmark). */
export function russianParadigm(word: string, pos?: string): { form: string; pos: string }[] {
  loadRussian();
  const parse = Az.Morph(word, RUSSIAN_CONFIG).find(
    (p) => !p.tag.Abbr && fold(p.inflect(0).word) === fold(word) && (!pos || p.tag.POS === pos),
  );
  if (!parse) return [];
  const out: { form: string; pos: string }[] = [];
  for (let i = 0; i < parse.formCnt; i++) {
    const form = parse.inflect(i);
    // abbreviations listed with a word (`пт` for `пятница`, `тыс`) are not its forms
    if (!form.tag.Abbr) out.push({ form: form.word, pos: form.tag.POS ?? "" });
  }
  return out;
}

interface English {
  words: Record<string, number>;
  senses: number[][];
  nouns: Record<string, string>;
  verbs: Record<string, string>;
  adjectives: Record<string, string>;
  /** the base forms of irregular forms: also words (WordNet's list lacks two-letter ones: `go`, `be`, `do`) */
  bases: Set<string>;
}
let english: English | null = null;

function loadEnglish(): English {
  if (english) return english;
  const nouns: Record<string, string> = require("wink-lexicon/src/wn-noun-exceptions.js");
  const verbs: Record<string, string> = require("wink-lexicon/src/wn-verb-exceptions.js");
  const adjectives: Record<string, string> = require("wink-lexicon/src/wn-adjective-exceptions.js");
  english = {
    words: require("wink-lexicon/src/wn-words.js"),
    senses: require("wink-lexicon/src/wn-word-senses.js"),
    nouns,
    verbs,
    adjectives,
    bases: new Set([...Object.values(nouns), ...Object.values(verbs), ...Object.values(adjectives)]),
  };
  return english;
}

// WordNet's lexicographer files: 0–2 adjectives (and adverbs at 2), 3–28 nouns, 29–43 verbs
const ADJECTIVE = (s: number) => s < 2;
const NOUN = (s: number) => s > 2 && s < 29;
const VERB = (s: number) => s > 28 && s < 44;

const VOWEL = /[aeiou]/;
const VERB_PREFIXES = ["re", "over", "under", "out", "mis", "up", "un", "fore", "with", "pre", "co", "be", "de", "dis", "in"];
/** `stopp` → `stop`: the consonant doubled before -ed, -ing, -er, -est */
const undouble = (stem: string) =>
  stem.length > 2 && stem.at(-1) === stem.at(-2) && !VOWEL.test(stem.at(-1)!) && stem.at(-1) !== "s" ? stem.slice(0, -1) : null;

/** Base forms a regular ending may hide (Morphy's rules, with -es only where English writes it). */
function nounBases(w: string): string[] {
  const out: string[] = [];
  if (w.endsWith("s") && !w.endsWith("ss")) out.push(w.slice(0, -1));
  if (/(s|x|z|ch|sh)es$/.test(w)) out.push(w.slice(0, -2));
  if (w.endsWith("ies")) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith("ves")) out.push(`${w.slice(0, -3)}f`, `${w.slice(0, -3)}fe`);
  if (w.endsWith("men")) out.push(`${w.slice(0, -3)}man`);
  return out;
}

function verbBases(w: string): string[] {
  const out: string[] = [];
  if (w.endsWith("s") && !w.endsWith("ss")) out.push(w.slice(0, -1));
  if (/(s|x|z|ch|sh|o)es$/.test(w)) out.push(w.slice(0, -2));
  if (w.endsWith("ies")) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith("ied")) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith("ying")) out.push(`${w.slice(0, -4)}ie`);
  for (const end of ["ed", "ing"])
    if (w.endsWith(end) && w.length > end.length + 1) {
      const stem = w.slice(0, -end.length);
      out.push(stem, `${stem}e`);
      const single = undouble(stem);
      if (single) out.push(single);
    }
  return out;
}

function adjectiveBases(w: string): string[] {
  const out: string[] = [];
  for (const end of ["er", "est"])
    if (w.endsWith(end) && w.length > end.length + 1) {
      const stem = w.slice(0, -end.length);
      out.push(stem, `${stem}e`);
      if (stem.endsWith("i")) out.push(`${stem.slice(0, -1)}y`);
      const single = undouble(stem);
      if (single) out.push(single);
    }
  return out;
}

/** The parts of speech WordNet knows an English base word as (for the benchmark's word list). */
export function englishKinds(w: string): ("noun" | "verb" | "adjective")[] {
  const en = loadEnglish();
  const i = en.words[w];
  const senses = i === undefined ? [] : (en.senses[i] ?? []);
  const kinds: ("noun" | "verb" | "adjective")[] = [];
  if (senses.some(NOUN)) kinds.push("noun");
  if (senses.some(VERB)) kinds.push("verb");
  if (senses.some(ADJECTIVE)) kinds.push("adjective");
  return kinds;
}

/** The English lemmas of a lower-case word, or an empty list when WordNet does not know it. */
export function englishLemmas(w: string): string[] {
  const en = loadEnglish();
  const is = (word: string, kind: (s: number) => boolean) => {
    const i = en.words[word];
    return i !== undefined && (en.senses[i] ?? []).some(kind);
  };
  const out = new Set<string>();
  if (en.words[w] !== undefined || en.bases.has(w)) out.add(w);
  for (const lemma of [en.nouns[w], en.verbs[w], en.adjectives[w]]) if (lemma) out.add(lemma);
  for (const b of nounBases(w)) if (is(b, NOUN)) out.add(b);
  for (const b of verbBases(w)) if (is(b, VERB)) out.add(b);
  // irregular verbs with a prefix WordNet does not list: `overate`, `rebound`, `underspent`
  for (const prefix of VERB_PREFIXES)
    if (w.startsWith(prefix) && w.length > prefix.length + 2) {
      const base = en.verbs[w.slice(prefix.length)];
      if (base && is(prefix + base, VERB)) out.add(prefix + base);
    }
  // `customer` is a noun of its own, not a comparative of the noun and adjective `custom`
  for (const b of adjectiveBases(w)) if (is(b, ADJECTIVE) && !(is(w, NOUN) && is(b, NOUN))) out.add(b);
  return [...out];
}
