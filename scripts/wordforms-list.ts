/**
 * Builds the word list of `bun run bench wordforms` (bench/lists/wordforms.json) from the
 * dictionaries, not by hand: the words are those of the bot's own texts (locales/*.ftl), taken in
 * an order fixed by a hash, so the list is neither chosen nor tuned to pass.
 * - Russian: every form of up to 400 nouns, adjectives, verbs and numerals (OpenCorpora, through
 *   az), each form with its part of speech (participles and gerunds apart); two-word phrases of an
 *   adjective and a noun in every case and number, agreeing.
 * - English: forms made by an inflector that is not the matcher's dictionary (en-inflectors:
 *   plurals, -s, -ed, -ing, -er, -est) for up to 200 WordNet nouns, verbs and adjectives, and the
 *   past tense and participle of up to 150 irregular verbs (english-verbs-irregular).
 * - Pairs of different words that share a stem (`банк`/`банка`, `custom`/`customer`): the other
 *   word's forms that are not also forms of the tracked one.
 * Run: bun run scripts/wordforms-list.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Inflectors } from "en-inflectors";
import irregular from "english-verbs-irregular/dist/verbs.json";
import { newStemmer } from "snowball-stemmers";
import { englishKinds, englishLemmas, russianLemmas, russianLexemes, russianParadigm } from "../core/tracking/dictionary";

const ROOT = join(import.meta.dir, "..");
const fold = (w: string) => w.toLowerCase().replaceAll("ё", "е");
/** A fixed pseudo-random order (FNV-1a of the word), so the sample does not depend on the file's order. */
const hash = (w: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};
const byHash = (a: string, b: string) => hash(a) - hash(b) || (a < b ? -1 : 1);
const wordsOf = (file: string, script: RegExp) => [
  ...new Set((readFileSync(join(ROOT, "locales", file), "utf8").match(script) ?? []).map((w) => w.toLowerCase())),
];

// --- Russian ---
const RU_POS: Record<string, string> = { NOUN: "noun", ADJF: "adjective", INFN: "verb", NUMR: "numeral" };
const FORM_POS: Record<string, string> = {
  NOUN: "noun",
  ADJF: "adjective",
  ADJS: "adjective (short)",
  COMP: "adjective (comparative)",
  INFN: "verb",
  VERB: "verb",
  PRTF: "participle",
  PRTS: "participle",
  GRND: "gerund",
  NUMR: "numeral",
};
const ruLexemes = new Map<string, string>();
/** people's names (and their patronymics) are not the words trackers look for */
const NAME = /Name|Surn|Patr/;
for (const w of wordsOf("ru.ftl", /\p{Script=Cyrillic}{3,}/gu))
  for (const { lemma, pos, tag } of russianLexemes(w))
    if (RU_POS[pos] && !NAME.test(tag) && !ruLexemes.has(lemma)) ruLexemes.set(lemma, pos);
// numerals are few in the bot's texts: the dictionary's own, as a counter spells them
for (const n of ["один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять", "двадцать", "сто", "тысяча"])
  for (const { lemma, pos } of russianLexemes(n)) if (pos === "NUMR" || lemma === "тысяча") ruLexemes.set(lemma, pos);
const ruSample = [...ruLexemes.keys()].sort(byHash).slice(0, 400);
const russian = ruSample.map((lemma) => {
  const forms = russianParadigm(lemma, ruLexemes.get(lemma)).map((f) => [f.form, FORM_POS[f.pos] ?? f.pos.toLowerCase()] as const);
  const unique = [...new Map(forms.map((f) => [fold(f[0]), f[1]])).entries()];
  // the tracker on a form that is not a dictionary word itself (`каналов`), fixed by the hash
  const someForm =
    unique
      .map((f) => f[0])
      .filter((f) => !russianLemmas(f, true).includes(f))
      .sort(byHash)[0] ?? lemma;
  return { lemma, pos: RU_POS[ruLexemes.get(lemma)!]!, someForm, forms: unique };
});

// phrases: an adjective and a noun of the sample, agreeing in every case and number of the noun
const adjectives = russian.filter((r) => r.pos === "adjective").slice(0, 20);
const nouns = russian.filter((r) => r.pos === "noun").slice(0, 20);
const phrases = adjectives.map((adj, i) => {
  const noun = nouns[i % nouns.length]!;
  const agreeing = russianAgreement(adj.lemma, noun.lemma);
  // the tracker: the phrase in the nominative singular, the dictionary form of both words
  return { phrase: agreeing[0] ?? `${adj.lemma} ${noun.lemma}`, forms: agreeing };
});

/** The adjective in the noun's every case and number (and gender in the singular), from the dictionary. */
function russianAgreement(adjective: string, noun: string): string[] {
  const out: string[] = [];
  const adjForms = russianParadigm(adjective, "ADJF");
  const nounForms = russianParadigm(noun, "NOUN");
  for (const n of nounForms) {
    // the adjective forms that are forms of the same case and number: by the dictionary's own reading
    const wanted = russianTags(n.form, noun);
    const adj = adjForms.find((a) => russianTags(a.form, adjective).some((t) => wanted.some((w) => agrees(t, w))));
    if (adj) out.push(`${adj.form} ${n.form}`);
  }
  return [...new Set(out.map(fold))];
}
function russianTags(word: string, lemma: string): string[] {
  return russianLexemes(word)
    .filter((t) => t.lemma === lemma)
    .map((t) => t.tag);
}
/** Same case and number (and gender in the singular; animacy in the accusative is left to the dictionary's first reading). */
function agrees(adjTag: string, nounTag: string): boolean {
  const g = (tag: string, set: string[]) => set.find((x) => tag.includes(x));
  const CASES = ["nomn", "gent", "datv", "accs", "ablt", "loct"];
  const NUMBERS = ["sing", "plur"];
  const GENDERS = ["masc", "femn", "neut"];
  if (g(adjTag, CASES) !== g(nounTag, CASES) || g(adjTag, NUMBERS) !== g(nounTag, NUMBERS)) return false;
  return g(nounTag, NUMBERS) === "plur" || g(adjTag, GENDERS) === g(nounTag, GENDERS);
}

// --- English ---
const enWords = wordsOf("en.ftl", /\b[A-Za-z]{3,}\b/g);
/** The word's parts of speech when it is a base form (`hours` and `opened` are not, though WordNet lists them) */
const enKinds = (w: string) => {
  const lemmas = englishLemmas(w);
  return lemmas.length === 1 && lemmas[0] === w ? englishKinds(w) : [];
};
const SYLLABLES = (w: string) => (w.match(/[aeiouy]+/g) ?? []).length;
const english = enWords
  .filter((w) => enKinds(w).length)
  .sort(byHash)
  .slice(0, 200)
  .map((lemma) => {
    const kinds = enKinds(lemma);
    const inf = new Inflectors(lemma);
    const forms: [string, string][] = [];
    if (kinds.includes("noun")) forms.push([inf.toPlural(), "noun"]);
    if (kinds.includes("verb"))
      for (const f of [inf.toPresentS(), inf.toPast(), inf.toPastParticiple(), inf.toGerund()]) forms.push([f, "verb"]);
    // -er/-est only where English makes them: one syllable, or two ending in -y
    if (kinds.includes("adjective") && (SYLLABLES(lemma) === 1 || (SYLLABLES(lemma) === 2 && lemma.endsWith("y"))))
      forms.push([inf.comparative(), "adjective"], [inf.superlative(), "adjective"]);
    return { lemma, forms: uniqueForms(lemma, forms) };
  });
const irregularVerbs = Object.entries(irregular as unknown as Record<string, [string, string][]>)
  .filter(([verb]) => !verb.includes(" ") && englishKinds(verb).includes("verb"))
  .map(([verb]) => verb)
  .sort(byHash)
  .slice(0, 150)
  .map((verb) => {
    const forms: [string, string][] = [];
    for (const [past, participle] of (irregular as unknown as Record<string, [string, string][]>)[verb]!)
      forms.push([past, "verb"], [participle, "verb"]);
    return { lemma: verb, forms: uniqueForms(verb, forms) };
  })
  .filter((v) => v.forms.length);
/** Distinct forms other than the word itself, marked irregular when they do not start with its stem. */
function uniqueForms(lemma: string, forms: [string, string][]): [string, string, boolean][] {
  const base = lemma.replace(/(e|y)$/, "");
  const seen = new Map<string, [string, string, boolean]>();
  for (const [form, pos] of forms)
    if (form && form !== lemma && /^[a-z]+$/.test(form) && !seen.has(form)) seen.set(form, [form, pos, !form.startsWith(base)]);
  return [...seen.values()];
}

// --- pairs of different words sharing a stem ---
const ruStem = newStemmer("russian");
const enStem = newStemmer("english");
function pairs(
  lemmas: string[],
  stem: (w: string) => string,
  formsOf: (w: string) => string[],
  lemmasOf: (w: string) => string[],
  max: number,
) {
  const out: { tracker: string; other: string; forms: string[] }[] = [];
  const sorted = [...new Set(lemmas)].sort();
  for (const a of sorted) {
    const s = stem(a);
    if (s.length < 3) continue;
    for (const b of sorted) {
      if (b === a || !b.startsWith(s) || b.length < a.length) continue;
      const own = new Set(formsOf(a).map(fold));
      // forms of the other word that are not (also) forms of the tracked one
      const forms = formsOf(b)
        .map(fold)
        .filter((f) => !own.has(f) && !lemmasOf(f).includes(fold(a)));
      if (forms.length) out.push({ tracker: a, other: b, forms: [...new Set(forms)] });
    }
  }
  return out.sort((x, y) => byHash(`${x.tracker} ${x.other}`, `${y.tracker} ${y.other}`)).slice(0, max);
}
const ruPairs = pairs(
  [...ruLexemes.keys()].map(fold),
  (w) => ruStem.stem(w),
  (w) => russianParadigm(w).map((f) => f.form),
  (f) => russianLemmas(f, false),
  200,
);
const enBase = enWords.filter((w) => enKinds(w).length);
const enForms = new Map([...english, ...irregularVerbs].map((e) => [e.lemma, [e.lemma, ...e.forms.map((f) => f[0])]]));
const enPairs = pairs(
  enBase,
  (w) => enStem.stem(w),
  (w) => enForms.get(w) ?? [w, ...englishFormsOf(w)],
  (f) => englishLemmas(f),
  150,
);
function englishFormsOf(w: string): string[] {
  const inf = new Inflectors(w);
  const kinds = englishKinds(w);
  const forms = [
    ...(kinds.includes("noun") ? [inf.toPlural()] : []),
    ...(kinds.includes("verb") ? [inf.toPresentS(), inf.toPast(), inf.toGerund()] : []),
    ...(kinds.includes("adjective") ? [inf.comparative(), inf.superlative()] : []),
  ];
  return forms.filter((f) => /^[a-z]+$/.test(f));
}

const out = { russian, phrases, english: [...english, ...irregularVerbs], pairs: [...ruPairs, ...enPairs] };
writeFileSync(join(ROOT, "bench", "lists", "wordforms.json"), `${JSON.stringify(out)}\n`);
const count = (list: { forms: unknown[] }[]) => list.reduce((a, x) => a + x.forms.length, 0);
console.log(
  `russian: ${russian.length} words, ${count(russian)} forms; phrases: ${phrases.length}, ${count(phrases)} forms; english: ${out.english.length} words, ${count(out.english)} forms; pairs: ${ruPairs.length} + ${enPairs.length}, ${count(out.pairs)} forms`,
);
