import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { AhoCorasick } from "../../../core/tracking/aho-corasick";
import { TrackerIndex, type MatchableTracker } from "../../../core/tracking/matcher";
import { FOLD, INVISIBLE, SPACE, WORD } from "../../../core/tracking/normalise";
import { Occurrences } from "../../../core/tracking/occurrences";
import { PostScan } from "../../../core/tracking/post-scan";
import { HASH_START, hashStep, WordCache } from "../../../core/tracking/word-cache";

describe("the cache of posts' words", () => {
  const hash = (word: string) => {
    let h = HASH_START;
    for (let i = 0; i < word.length; i++) if (!INVISIBLE[word.charCodeAt(i)]) h = hashStep(h, FOLD[word.charCodeAt(i)]!);
    return h;
  };
  const letters = (word: string) => [...word].filter((c) => !INVISIBLE[c.charCodeAt(0)]).length;
  const find = (cache: WordCache, text: string, start: number, end: number) =>
    cache.find(text, start, end, letters(text.slice(start, end)), hash(text.slice(start, end)), FOLD, INVISIBLE);
  const add = (cache: WordCache, word: string) => cache.add(word, 0, word.length, letters(word), hash(word), FOLD, INVISIBLE);
  const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x`);

  test("grows as words come and finds each with its key sets and its exits, written in any case", () => {
    const cache = new WordCache(20);
    words.forEach((w, i) => {
      const entry = add(cache, w);
      cache.setSets(entry, i % 3 ? [] : [i, i + 1]);
      const from = cache.beginHits();
      cache.hit(i, 2);
      cache.setExit(entry, i % 2, 1000 + i, from);
    });
    expect(cache.size).toBe(words.length);
    words.forEach((w, i) => {
      const text = `«${w.toUpperCase()}»`;
      const entry = find(cache, text, 1, 1 + w.length);
      expect(entry).not.toBe(-1);
      expect(cache.setCount(entry)).toBe(i % 3 ? 0 : 2);
      if (i % 3 === 0) expect(cache.sets[cache.setsFrom(entry) + 1]).toBe(i + 1);
      expect(cache.exit(entry, i % 2)).toBe(1000 + i);
      expect(cache.exit(entry, 1 - (i % 2))).toBe(-1);
      expect(cache.hitCount(entry, i % 2)).toBe(1);
      expect(cache.hits[cache.hitsFrom(entry, i % 2)]).toBe(i);
    });
    expect(find(cache, "nope", 0, 4)).toBe(-1);
    // invisible characters are no part of a word's letters
    expect(find(cache, "w1\u200Bx", 0, 4)).toBe(find(cache, "w1x", 0, 3));
  });

  test("at its largest it is emptied and starts again; nothing known survives it", () => {
    const cache = new WordCache(13);
    let sizes = 0;
    for (const w of words) {
      const entry = add(cache, w);
      expect(cache.setsFrom(entry)).toBe(-1);
      expect(cache.exit(entry, 0)).toBe(-1);
      cache.setSets(entry, [1]);
      sizes = Math.max(sizes, cache.size);
    }
    expect(sizes).toBe(1 << 12);
    expect(cache.size).toBeLessThan(words.length);
    const last = words.at(-1)!;
    expect(find(cache, last, 0, last.length)).not.toBe(-1);
    expect(find(cache, words[0]!, 0, words[0]!.length)).toBe(-1);
    // a cache of size 0 keeps nothing
    expect(add(new WordCache(0), "word")).toBe(-1);
  });
});

/** The automaton's hits through a PostScan (the cache of words), in order. */
const throughWords = (scan: PostScan, text: string) => {
  const out: string[] = [];
  scan.scan(
    text,
    (p, end) => out.push(`${p}@${end}`),
    new Occurrences(0),
    0,
    () => {},
  );
  return out;
};
const charByChar = (automaton: AhoCorasick, text: string) => {
  const out: string[] = [];
  automaton.scan(text, (p, end) => out.push(`${p}@${end}`));
  return out;
};

describe("the matcher's pass over a post", () => {
  test("reads words through the cache exactly as the automaton reads a character at a time, in the same order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[abcж1,]{1,3}( [abж]{1,3})?$/), { minLength: 1, maxLength: 30 }),
        fc.array(fc.stringMatching(/^(?:[abcdжA1\u200b,]|\ufe0f){0,5}([ \n]{1,2}(?:[abcdжA1\u200b,]|\ufe0f){0,5}){0,12}$/), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.constantFrom(0, 1, 2, 17),
        (patterns, texts, bits) => {
          const automaton = new AhoCorasick(patterns, 12);
          const scan = new PostScan(automaton, null, bits);
          // twice over: the second time the words come from the cache (while it keeps them)
          for (const text of [...texts, ...texts]) expect(throughWords(scan, text)).toEqual(charByChar(automaton, text));
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);

  test("no character of a word reads as whitespace (the pass reads words without minding whitespace runs)", () => {
    for (let c = 0; c < 0x10000; c++) if (WORD[c] && !INVISIBLE[c]) expect(SPACE[c]).toBe(0);
  });

  test("a word longer than the cache keeps is read a character at a time, and still found", () => {
    const long = `${"ab".repeat(50)}c`;
    const automaton = new AhoCorasick(["abc", "ba", long]);
    const scan = new PostScan(automaton, null);
    for (const text of [long, `x ${long} ${long}`]) {
      expect(throughWords(scan, text)).toEqual(charByChar(automaton, text));
      expect(throughWords(scan, text)).toContain(`2@${text.indexOf(long) + long.length}`);
    }
  });
});

/** Posts' and keywords' words: forms of one another, words sharing letters, and words with no forms. */
const VOCABULARY = [
  "канал",
  "каналов",
  "канала",
  "день",
  "дня",
  "банк",
  "банку",
  "банка",
  "биткоин",
  "биткоина",
  "go",
  "went",
  "child",
  "children",
  "rust",
  "btc",
  "x1",
];
const tracker = fc.record({
  words: fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 3 }),
  shape: fc.constantFrom<Spec["shape"][]>("plain", "phrase", "or", "near", "prefix"),
  exactMatch: fc.boolean(),
  wordForms: fc.boolean(),
  minus: fc.option(fc.constantFrom(...VOCABULARY), { nil: null }),
});
interface Spec {
  words: string[];
  shape: "plain" | "phrase" | "or" | "near" | "prefix";
  exactMatch: boolean;
  wordForms: boolean;
  minus: string | null;
}
const asTracker = (t: Spec, id: number): MatchableTracker => {
  const [a = "", b = a, c = b] = t.words;
  const keyword = {
    plain: t.words.join(" "),
    phrase: `"${a} ${b}"`,
    or: `${a} OR ${b} -${c}`,
    near: `${a} NEAR/2 ${b}`,
    prefix: `${a.slice(0, 3)}* ${b}`,
  }[t.shape];
  return {
    id,
    keyword,
    exactMatch: t.exactMatch,
    minusWords: t.minus ? [t.minus] : null,
    wordForms: t.wordForms,
    syntax: t.shape === "plain" ? "plain" : "query",
  };
};
const post = fc
  .array(fc.tuple(fc.constantFrom(...VOCABULARY), fc.constantFrom(" ", ", ", ". ", "\n", " 🚀 ", "\u200b", " — "), fc.boolean()), {
    maxLength: 25,
  })
  .map((words) => words.map(([w, sep, upper]) => (upper ? w.toUpperCase() : w) + sep).join(""));
const results = (index: TrackerIndex<MatchableTracker>, text: string) => {
  const { hits, over, work } = index.match(text);
  return { hits: hits.map((h) => `${h.tracker.id}:${h.start}-${h.end}`), over: over.map((t) => t.id), work };
};

describe("the matcher with and without its cache of words", () => {
  test("the same matches, in the same order, on generated trackers (queries, word forms) and posts", () => {
    fc.assert(
      fc.property(fc.array(tracker, { minLength: 1, maxLength: 25 }), fc.array(post, { minLength: 1, maxLength: 10 }), (specs, posts) => {
        const trackers = specs.map(asTracker);
        const uncached = new TrackerIndex(trackers, 0);
        const cached = new TrackerIndex(trackers);
        const tiny = new TrackerIndex(trackers, 2);
        for (const text of [...posts, ...posts]) {
          const expected = results(uncached, text);
          expect(results(cached, text)).toEqual(expected);
          expect(results(tiny, text)).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  test("a cache that fills and empties itself many times over keeps every match", () => {
    const trackers: MatchableTracker[] = [
      { id: 1, keyword: "канал", exactMatch: true, minusWords: null, wordForms: true },
      { id: 2, keyword: "went OR banana", exactMatch: false, minusWords: null, syntax: "query", wordForms: true },
      { id: 3, keyword: "w5", exactMatch: false, minusWords: null },
    ];
    // a cache of 8 slots (4 words) against thousands of distinct words, each post read twice
    const index = new TrackerIndex(trackers, 3);
    for (let i = 0; i < 3_000; i++) {
      const noise = `w${i.toString(36)} z${i}`;
      const text = `${noise} Каналов ${noise} go`;
      for (let round = 0; round < 2; round++) {
        const { hits } = index.match(text);
        const ids = hits.map((h) => h.tracker.id).sort();
        expect(ids).toEqual(noise.includes("w5") ? [1, 2, 3] : [1, 2]);
        const canal = hits.find((h) => h.tracker.id === 1)!;
        expect(text.slice(canal.start, canal.end)).toBe("Каналов");
      }
    }
  }, 60_000);
});
