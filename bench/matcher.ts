/**
 * Matcher throughput: 10,000 trackers (keywords, phrases, minus words; Latin and Cyrillic; exact and
 * substring) against a stream of channel-like posts, on one core. Prints messages per second.
 * Run: bun run bench/matcher.ts [trackers] [messages] [hot]
 * `hot` is the share of keywords drawn from the posts' own vocabulary (the rest are specific words
 * that rarely occur, as real keywords are); 0.05 gives about one match per post, 1 is a stress case.
 * Post words follow Zipf's law over a 20,000-word vocabulary, as words in real text do. The figure
 * is the best of several rounds (the machine may be shared), with the median beside it.
 */
import { TrackerIndex, type MatchableTracker } from "../core/tracking/matcher";

const TRACKERS = Number(process.argv[2] ?? 10_000);
const MESSAGES = Number(process.argv[3] ?? 300_000);
const HOT = Number(process.argv[4] ?? 0.05);

let seed = 42;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;

const LAT = "abcdefghijklmnopqrstuvwxyz";
const CYR = "абвгдеёжзийклмнопрстуфхцчшщыэюя";
const word = (alphabet: string, min = 3, max = 10) => {
  let w = "";
  const n = min + Math.floor(rnd() * (max - min + 1));
  for (let i = 0; i < n; i++) w += alphabet[Math.floor(rnd() * alphabet.length)];
  return w;
};
const postVocab = Array.from({ length: 20_000 }, (_, i) => word(i % 2 ? CYR : LAT));
// Zipf: the word of rank r has weight 1/r
const zipfCdf: number[] = [];
for (let r = 1, sum = 0; r <= postVocab.length; r++) zipfCdf.push((sum += 1 / r));
const zipfWord = () => {
  const x = rnd() * zipfCdf[zipfCdf.length - 1]!;
  let lo = 0;
  let hi = zipfCdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (zipfCdf[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return postVocab[lo]!;
};
const rareVocab = Array.from({ length: 100_000 }, (_, i) => word(i % 2 ? CYR : LAT, 5, 12));
const keywordWord = () => (rnd() < HOT ? pick(postVocab) : pick(rareVocab));
const ROUNDS = 5;

const trackers: MatchableTracker[] = Array.from({ length: TRACKERS }, (_, id) => ({
  id,
  keyword: rnd() < 0.3 ? `${keywordWord()} ${keywordWord()}` : keywordWord(),
  exactMatch: rnd() < 0.5,
  minusWords: rnd() < 0.3 ? [keywordWord(), keywordWord()] : null,
}));

const PUNCT = [" ", " ", " ", ", ", ". ", "! ", " — ", "\n", " 🚀 "];
const posts = Array.from({ length: 5_000 }, () => {
  let s = "";
  const words = 15 + Math.floor(rnd() * 40);
  for (let i = 0; i < words; i++) s += (rnd() < 0.1 ? zipfWord().toUpperCase() : zipfWord()) + pick(PUNCT);
  return s;
});
const avgLen = posts.reduce((a, p) => a + p.length, 0) / posts.length;

let t0 = performance.now();
const index = new TrackerIndex(trackers);
const buildMs = performance.now() - t0;

for (let i = 0; i < 20_000; i++) index.match(posts[i % posts.length]!);
let hits = 0;
const rates: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  hits = 0;
  t0 = performance.now();
  for (let i = 0; i < MESSAGES; i++) hits += index.match(posts[i % posts.length]!).hits.length;
  rates.push(MESSAGES / ((performance.now() - t0) / 1000));
}
rates.sort((a, b) => b - a);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

console.log(`trackers: ${TRACKERS}, messages per round: ${MESSAGES}, average post: ${avgLen.toFixed(0)} chars, hot keywords: ${HOT}`);
console.log(`index build: ${buildMs.toFixed(0)} ms`);
console.log(`throughput: ${fmt(rates[0]!)} messages/s best, ${fmt(rates[ROUNDS >> 1]!)} median of ${ROUNDS} rounds (${((rates[0]! * avgLen) / 1e6).toFixed(1)} M chars/s), one core`);
console.log(`matches: ${(hits / MESSAGES).toFixed(2)} per message`);
