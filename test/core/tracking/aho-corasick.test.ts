import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { AhoCorasick } from "../../../core/tracking/aho-corasick";

/** Every (pattern, end) the automaton reports, sorted, against a plain search of every pattern. */
const found = (patterns: string[], text: string, denseCells?: number) => {
  const out: string[] = [];
  new AhoCorasick(patterns, denseCells).scan(text, (p, end) => out.push(`${p}@${end}`));
  return out.sort();
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
});
