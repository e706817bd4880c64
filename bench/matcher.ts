/**
 * Matcher throughput: 10,000 trackers (keywords, phrases, minus words; Latin and Cyrillic; exact and
 * substring) against a stream of channel-like posts, on one core. Prints messages per second.
 * Run: bun run bench/matcher.ts [trackers] [messages] [hot] [queries] [forms] [--baseline <checkout>]
 * `hot` is the share of keywords drawn from the posts' own vocabulary (the rest are specific words
 * that rarely occur, as real keywords are); 0.05 gives about one match per post, 1 is a stress case.
 * Post words follow Zipf's law over a 20,000-word vocabulary, as words in real text do. The figure
 * is the best of several rounds (the machine may be shared), with the median beside it.
 * `queries` and `forms` are the shares of trackers that are queries (syntax "query": OR, NOT,
 * phrases, prefixes, groups and NEAR over the same words) and that use word forms (default 0 both:
 * the plain case). `--baseline` also loads the matcher of another checkout of this repository
 * (e.g. a worktree of main) and runs its rounds in turn with this one's, in this process, on the
 * same trackers and posts, so both meet the same load on a shared machine. Rates are also given
 * per second of the main thread's CPU time (from /proc, 10 ms ticks), which other work on the
 * machine does not inflate, and the index's memory: its heap (after a collection) and the process's
 * RSS before and after the build (the trackers themselves are in both).
 * Last, the worst post a free account can make for its own two trackers (15 NEAR pairs each, a post
 * of 1,023 a's, an x and 1,023 b's): the work it costs against the budget, and the time per post.
 */
import { TrackerIndex, type MatchableTracker } from "../core/tracking/matcher";
import { threadCpu } from "./_thread-cpu";
import { WORK_BUDGET } from "../core/tracking/query-match";

const args = process.argv.slice(2);
const flag = args.indexOf("--baseline");
const BASELINE = flag === -1 ? null : args.splice(flag, 2)[1]!;
const TRACKERS = Number(args[0] ?? 10_000);
const MESSAGES = Number(args[1] ?? 300_000);
const HOT = Number(args[2] ?? 0.05);
const QUERIES = Number(args[3] ?? 0);
const FORMS = Number(args[4] ?? 0);

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
const ROUNDS = 7;

const QUERY_SHAPES = [
  () => `${keywordWord()} OR ${keywordWord()} -${keywordWord()}`,
  () => `"${keywordWord()} ${keywordWord()}" ${keywordWord().slice(0, 4)}*`,
  // NEAR takes a word or phrase on each side (a group there does not parse, and such a tracker would match nothing)
  () => `(${keywordWord()} | ${keywordWord()}) ${keywordWord()} NEAR/3 ${keywordWord()}`,
  () => `${keywordWord()} ${keywordWord()} OR ${keywordWord()} NOT (${keywordWord()} ${keywordWord()})`,
];
const trackers: MatchableTracker[] = Array.from({ length: TRACKERS }, (_, id) => {
  // the plain trackers draw exactly what they drew before queries existed, so the plain case is unchanged
  const plain = {
    id,
    keyword: rnd() < 0.3 ? `${keywordWord()} ${keywordWord()}` : keywordWord(),
    exactMatch: rnd() < 0.5,
    minusWords: rnd() < 0.3 ? [keywordWord(), keywordWord()] : null,
  };
  if (!QUERIES && !FORMS) return plain;
  const query = rnd() < QUERIES;
  return {
    ...plain,
    keyword: query ? pick(QUERY_SHAPES)() : plain.keyword,
    syntax: query ? ("query" as const) : ("plain" as const),
    wordForms: rnd() < FORMS,
  };
});

const PUNCT = [" ", " ", " ", ", ", ". ", "! ", " — ", "\n", " 🚀 "];
const posts = Array.from({ length: 5_000 }, () => {
  let s = "";
  const words = 15 + Math.floor(rnd() * 40);
  for (let i = 0; i < words; i++) s += (rnd() < 0.1 ? zipfWord().toUpperCase() : zipfWord()) + pick(PUNCT);
  return s;
});
const avgLen = posts.reduce((a, p) => a + p.length, 0) / posts.length;

interface Index {
  match(text: string): { hits: unknown[] };
}
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

const heapMb = () => {
  Bun.gc(true);
  return process.memoryUsage().heapUsed / 1e6;
};
const rssMb = () => process.memoryUsage().rss / 1e6;
/** CPU seconds of the main thread so far */
const mainCpu = () => {
  const t = threadCpu(process.pid);
  return ((t.get("main user") ?? 0) + (t.get("main sys") ?? 0)) / 1e6;
};

function build(make: (t: MatchableTracker[]) => Index) {
  const heapBefore = heapMb();
  const rssBefore = rssMb();
  const t0 = performance.now();
  const c0 = mainCpu();
  const index = make(trackers);
  const buildMs = performance.now() - t0;
  const buildCpu = mainCpu() - c0;
  const heap = heapMb() - heapBefore;
  console.log(
    `index build ${buildMs.toFixed(0)} ms (${buildCpu.toFixed(1)} s CPU), index heap ${heap.toFixed(0)} MB, process RSS ${rssBefore.toFixed(0)} → ${rssMb().toFixed(0)} MB (peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB)`,
  );
  for (let i = 0; i < 20_000; i++) index.match(posts[i % posts.length]!);
  return { index, buildMs, buildCpu, rates: [] as number[], cpuRates: [] as number[], hits: 0 };
}

/** One round: every message once; records the rate (per second of wall time and of CPU time). */
function round(run: ReturnType<typeof build>) {
  let hits = 0;
  const t0 = performance.now();
  const c0 = mainCpu();
  for (let i = 0; i < MESSAGES; i++) hits += run.index.match(posts[i % posts.length]!).hits.length;
  run.rates.push(MESSAGES / ((performance.now() - t0) / 1000));
  run.cpuRates.push(MESSAGES / Math.max(mainCpu() - c0, 0.01));
  run.hits = hits;
}

const runs: [string, ReturnType<typeof build>][] = [["this checkout", build((t) => new TrackerIndex(t))]];
if (BASELINE) {
  const baseline = (await import(`${BASELINE.replace(/\/$/, "")}/core/tracking/matcher.ts`)) as {
    TrackerIndex: new (t: MatchableTracker[]) => Index;
  };
  runs.push([`baseline ${BASELINE}`, build((t) => new baseline.TrackerIndex(t))]);
}
// the two matchers must find the same: every post's hits (tracker, start, end) compared
if (runs.length === 2) {
  const key = (index: Index, post: string) =>
    (index.match(post).hits as { tracker: MatchableTracker; start: number; end: number }[])
      .map((h) => `${h.tracker.id}:${h.start}-${h.end}`)
      .sort()
      .join(" ");
  const differing = posts.filter((post) => key(runs[0]![1].index, post) !== key(runs[1]![1].index, post)).length;
  console.log(
    `same matches as the baseline: ${differing ? `NO, ${differing} of ${posts.length} posts differ` : `yes, on all ${posts.length} posts`}`,
  );
}
for (let r = 0; r < ROUNDS; r++) for (const [, run] of r % 2 ? [...runs].reverse() : runs) round(run);

console.log(
  `trackers: ${TRACKERS} (${fmt(QUERIES * 100)}% queries, ${fmt(FORMS * 100)}% word forms), messages per round: ${MESSAGES}, average post: ${avgLen.toFixed(0)} chars, hot keywords: ${HOT}`,
);
for (const [name, run] of runs) {
  const rates = run.rates.sort((a, b) => b - a);
  const cpuRates = run.cpuRates.sort((a, b) => b - a);
  console.log(`${name}: index build ${run.buildMs.toFixed(0)} ms (${run.buildCpu.toFixed(1)} s CPU)`);
  console.log(
    `  throughput: ${fmt(rates[0]!)} messages/s best, ${fmt(rates[ROUNDS >> 1]!)} median of ${ROUNDS} rounds (${((rates[0]! * avgLen) / 1e6).toFixed(1)} M chars/s), one core`,
  );
  console.log(`  per CPU second: ${fmt(cpuRates[0]!)} messages best, ${fmt(cpuRates[ROUNDS >> 1]!)} median`);
  console.log(`  matches: ${(run.hits / MESSAGES).toFixed(2)} per message`);
}
if (runs.length === 2) {
  const [mine, base] = runs.map(([, r]) => r);
  console.log(
    `this checkout / baseline: ${(mine!.rates[0]! / base!.rates[0]!).toFixed(3)} best, ${(mine!.rates[ROUNDS >> 1]! / base!.rates[ROUNDS >> 1]!).toFixed(3)} median`,
  );
}

// the worst case: two query trackers of 15 NEAR pairs each (30 terms, the most a query may have) on a 4,094-character post
const pairsOf = (pair: string) => Array.from({ length: 15 }, () => pair).join(" ");
const worst = new TrackerIndex([
  { id: 1, keyword: pairsOf("a NEAR/1 b"), exactMatch: false, minusWords: null, syntax: "query" },
  { id: 2, keyword: pairsOf("b NEAR/1 a"), exactMatch: false, minusWords: null, syntax: "query" },
]);
const hostile = `${"a ".repeat(1023)}x ${"b ".repeat(1023)}`;
const worstResult = worst.match(hostile);
const WORST_ROUNDS = 200;
const w0 = performance.now();
for (let i = 0; i < WORST_ROUNDS; i++) worst.match(hostile);
const worstUs = ((performance.now() - w0) * 1000) / WORST_ROUNDS;
console.log(
  `worst-case post (2 trackers × 15 NEAR pairs, ${hostile.length} chars): work ${fmt(worstResult.work)} of a budget of ${fmt(WORK_BUDGET)} per tracker; ${worstResult.over.length} of 2 trackers skipped over budget; ${worstUs.toFixed(0)} µs per post`,
);
