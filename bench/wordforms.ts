/**
 * Word forms' quality: recall per part of speech and false matches between different words, on
 * the list scripts/wordforms-list.ts builds from the dictionaries (bench/lists/wordforms.json).
 * Every form is posted in a short sentence and matched by the real matcher against a tracker with
 * word forms on the dictionary word (and, for Russian, on another form of it); a pair's tracker
 * must not match the other word's forms. Also: what loading the dictionaries costs the process.
 * Run: bun run bench wordforms [--baseline <checkout>] [--misses] (another checkout's matcher on the same
 * list; print every miss and false match)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MatchableTracker } from "../core/tracking/matcher";

interface WordList {
  russian: { lemma: string; pos: string; someForm: string; forms: [string, string][] }[];
  phrases: { phrase: string; forms: string[] }[];
  english: { lemma: string; forms: [string, string, boolean][] }[];
  pairs: { tracker: string; other: string; forms: string[] }[];
}
interface Index {
  match(text: string): { hits: { tracker: MatchableTracker }[] };
}

const args = process.argv.slice(2);
const flag = args.indexOf("--baseline");
const checkout = flag === -1 ? join(import.meta.dir, "..") : args[flag + 1]!.replace(/\/$/, "");
const SHOW = args.includes("--misses");
const list = JSON.parse(readFileSync(join(import.meta.dir, "lists", "wordforms.json"), "utf8")) as WordList;
const { TrackerIndex } = (await import(`${checkout}/core/tracking/matcher.ts`)) as { TrackerIndex: new (t: MatchableTracker[]) => Index };

/** One case: a tracker's keyword, the posts' words it must (or must not) match, and how the results are counted. */
interface Case {
  keyword: string;
  words: string[];
  group: (k: number) => string;
  expected: boolean;
}
const cases: Case[] = [];
for (const r of list.russian) {
  cases.push({ keyword: r.lemma, words: r.forms.map((f) => f[0]), group: (k) => `ru ${r.forms[k]![1]}`, expected: true });
  cases.push({ keyword: r.someForm, words: r.forms.map((f) => f[0]), group: () => "ru tracker on a form", expected: true });
}
for (const p of list.phrases) cases.push({ keyword: p.phrase, words: p.forms, group: () => "ru phrase in agreement", expected: true });
for (const e of list.english)
  cases.push({
    keyword: e.lemma,
    words: e.forms.map((f) => f[0]),
    group: (k) => `en ${e.forms[k]![1]}${e.forms[k]![2] ? " (irregular)" : ""}`,
    expected: true,
  });
for (const p of list.pairs)
  cases.push({
    keyword: p.tracker,
    words: p.forms,
    group: () => `false: ${/\p{Script=Cyrillic}/u.test(p.tracker) ? "ru" : "en"} pairs`,
    expected: false,
  });

const rss0 = process.memoryUsage().rss;
const cpu = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;
let c0 = cpu();
const trackers: MatchableTracker[] = cases.map((c, id) => ({
  id,
  keyword: c.keyword,
  exactMatch: false,
  minusWords: null,
  wordForms: true,
}));
const index = new TrackerIndex(trackers);
const buildCpu = cpu() - c0;
const rss = process.memoryUsage().rss - rss0;

const fold = (w: string) => w.toLowerCase().replaceAll("ё", "е");
/** per tracker of a single word whose forms the list gives: those forms (a hit on another word is a false one) */
const formsOf = cases.map((c) => (c.expected && !c.keyword.includes(" ") ? new Set([c.keyword, ...c.words].map(fold)) : null));
const tally = new Map<string, [number, number]>();
let hitsAll = 0;
let hitsRight = 0;
c0 = cpu();
let posts = 0;
cases.forEach((c, id) => {
  c.words.forEach((word, k) => {
    posts++;
    const found = index.match(`» ${word}! «`).hits;
    const hit = found.some((h) => h.tracker.id === id);
    if (!word.includes(" "))
      for (const h of found) {
        const forms = formsOf[h.tracker.id];
        if (!forms) continue;
        hitsAll++;
        if (forms.has(fold(word))) hitsRight++;
        else if (SHOW) console.log(`other word: ${cases[h.tracker.id]!.keyword} → ${word}`);
      }
    if (SHOW && hit !== c.expected) console.log(`${c.expected ? "miss" : "false match"}: ${c.keyword} → ${word}`);
    const t = tally.get(c.group(k)) ?? [0, 0];
    t[0] += hit ? 1 : 0;
    t[1]++;
    tally.set(c.group(k), t);
  });
});
const matchCpu = cpu() - c0;

const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
const sum = (prefix: string) =>
  [...tally]
    .filter(([g]) => g.startsWith(prefix))
    .reduce((a, [, [h, n]]) => [a[0] + h, a[1] + n] as [number, number], [0, 0] as [number, number]);
console.log(`matcher: ${checkout}`);
console.log(`trackers: ${trackers.length}, posts: ${posts}`);
for (const [g, [h, n]] of [...tally].sort()) console.log(`  ${g.padEnd(34)} ${pct(h, n).padStart(8)}  (${h} of ${n})`);
const [ruH, ruN] = sum("ru ");
const [enH, enN] = sum("en ");
const [irH, irN] = [...tally].filter(([g]) => g.includes("irregular")).reduce((a, [, [h, n]]) => [a[0] + h, a[1] + n], [0, 0]);
const [fH, fN] = sum("false:");
console.log(`Russian forms (all cases above):  ${pct(ruH, ruN)}   target ≥ 97 %`);
console.log(`English forms:                    ${pct(enH, enN)}   target ≥ 95 % (irregular: ${pct(irH!, irN!)})`);
console.log(`false matches between words:      ${pct(fH, fN)}   target ≤ 1 %`);
console.log(
  `precision over the whole list:    ${pct(hitsRight, hitsAll)}   (matches of a tracker by a form of its own word, of all its matches)`,
);
console.log(
  `index build with the dictionaries loaded: ${buildCpu.toFixed(0)} ms CPU, +${(rss / 1e6).toFixed(0)} MB RSS; matching: ${((1000 * matchCpu) / posts).toFixed(1)} µs CPU per post (most words seen once)`,
);
