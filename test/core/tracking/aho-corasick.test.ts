import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { AhoCorasick } from "../../../core/tracking/aho-corasick";

/** Every (pattern, end) the automaton reports, sorted, against a plain search of every pattern. */
const found = (patterns: string[], text: string, denseCells?: number, wordsFrom?: number) => {
  const out: string[] = [];
  new AhoCorasick(patterns, denseCells, wordsFrom).scan(text, (p, end) => out.push(`${p}@${end}`));
  return out.sort();
};
/** The same, every text through one automaton (so its cache of words carries from text to text), in scan order. */
const scanned = (automaton: AhoCorasick, text: string) => {
  const out: string[] = [];
  automaton.scan(text, (p, end) => out.push(`${p}@${end}`));
  return out;
};
const naive = (patterns: string[], text: string) => {
  const out: string[] = [];
  patterns.forEach((p, i) => {
    if (!p) return;
    for (let at = text.indexOf(p); at !== -1; at = text.indexOf(p, at + 1)) out.push(`${i}@${at + p.length}`);
  });
  return out.sort();
};

describe("Aho-Corasick automaton", () => {
  test("finds every occurrence of every pattern, overlapping and nested, duplicates included", () => {
    const patterns = ["he", "she", "his", "hers", "e", "she", "", "шишка", "ши"];
    const text = "ushers and his shishka шишка шишишка";
    expect(found(patterns, text)).toEqual(naive(patterns, text));
  });

  test("agrees with a plain search on random patterns and texts (small alphabet, deep tries)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[abcж]{0,6}$/), { minLength: 1, maxLength: 40 }),
        fc.stringMatching(/^[abcdж]{0,80}$/),
        (patterns, text) => {
          const expected = naive(patterns, text);
          expect(found(patterns, text)).toEqual(expected);
          // no dense table, and a dense table for the root and a few shallow nodes only
          expect(found(patterns, text, 0)).toEqual(expected);
          expect(found(patterns, text, 12)).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  }, 30_000);

  test("reads words through its cache of words exactly as a character at a time, in the same order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[abcж]{1,3}( [abж]{1,3})?$/), { minLength: 1, maxLength: 30 }),
        fc.array(fc.stringMatching(/^[abcdжA\u200b,]{0,5}([ \n]{1,2}[abcdжA\u200b,]{0,5}){0,12}$/), { minLength: 1, maxLength: 12 }),
        (patterns, texts) => {
          const plain = new AhoCorasick(patterns, 12, Number.POSITIVE_INFINITY);
          const cached = new AhoCorasick(patterns, 12, 0);
          // twice over: the second time every word comes from the cache
          for (const text of [...texts, ...texts]) {
            expect(scanned(cached, text)).toEqual(scanned(plain, text));
          }
          expect(found(patterns, texts.join(" "), 0, 0)).toEqual(found(patterns, texts.join(" ")));
        },
      ),
      { numRuns: 200 },
    );
  }, 30_000);
});
