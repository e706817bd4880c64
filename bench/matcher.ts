/**
 * Matcher throughput: 10,000 trackers (keywords, phrases, minus words; Latin and Cyrillic; exact and
 * substring) against a stream of channel-like posts, on one core. Prints messages per second.
 * Run: bun run bench/matcher.ts [trackers] [messages] [hot]
 * `hot` is the share of keywords drawn from the posts' own vocabulary (the rest are specific words
 * that rarely occur, as real keywords are); 0.05 gives about one match per post, 1 is a stress case.
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
const rareVocab = Array.from({ length: 100_000 }, (_, i) => word(i % 2 ? CYR : LAT, 5, 12));
const keywordWord = () => (rnd() < HOT ? pick(postVocab) : pick(rareVocab));

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
  for (let i = 0; i < words; i++) s += (rnd() < 0.1 ? pick(postVocab).toUpperCase() : pick(postVocab)) + pick(PUNCT);
  return s;
});
const avgLen = posts.reduce((a, p) => a + p.length, 0) / posts.length;

let t0 = performance.now();
const index = new TrackerIndex(trackers);
const buildMs = performance.now() - t0;

for (let i = 0; i < 20_000; i++) index.match(posts[i % posts.length]!);
let hits = 0;
t0 = performance.now();
for (let i = 0; i < MESSAGES; i++) hits += index.match(posts[i % posts.length]!).hits.length;
const secs = (performance.now() - t0) / 1000;

console.log(`trackers: ${TRACKERS}, messages: ${MESSAGES}, average post: ${avgLen.toFixed(0)} chars, hot keywords: ${HOT}`);
console.log(`index build: ${buildMs.toFixed(0)} ms`);
console.log(`throughput: ${Math.round(MESSAGES / secs).toLocaleString("en-US")} messages/s (${((MESSAGES * avgLen) / secs / 1e6).toFixed(1)} M chars/s), one core`);
console.log(`matches: ${(hits / MESSAGES).toFixed(2)} per message`);
