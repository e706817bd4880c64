import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { TrackerIndex, type MatchableTracker } from "../../../core/tracking/matcher";
import { WORK_BUDGET } from "../../../core/tracking/query-match";

const query = (id: number, keyword: string): MatchableTracker => ({ id, keyword, exactMatch: false, minusWords: null, syntax: "query" });
const near = (keyword: string, text: string) => new TrackerIndex([query(1, keyword)]).match(text).hits.length === 1;

/**
 * The reference, on a text given as its words each with what follows it: whether an occurrence of
 * phrase `a` and one of phrase `b` (lists of words; a phrase's words have only whitespace between
 * them) have at most `n` other words between them, in either order.
 */
function naiveNear(a: string[], b: string[], n: number, parts: [string, string][]): boolean {
  const words = parts.map(([w]) => w);
  const spaced = (i: number) => /^\s+$/.test(parts[i]![1]);
  const at = (p: string[]) =>
    words.flatMap((_, i) =>
      p.every((w, k) => words[i + k] === w && (k === 0 || spaced(i + k - 1))) ? [[i, i + p.length - 1] as const] : [],
    );
  for (const [as, ae] of at(a))
    for (const [bs, be] of at(b)) {
      const between = as <= bs ? bs - ae - 1 : as - be - 1;
      if (between >= 0 && between <= n) return true;
    }
  return false;
}

describe("a NEAR/n b", () => {
  test("at most n other words between, in either order; punctuation is not a word", () => {
    expect(near("bitcoin NEAR/2 etf", "bitcoin spot etf")).toBe(true);
    expect(near("bitcoin NEAR/2 etf", "ETF for bitcoin")).toBe(true);
    expect(near("bitcoin NEAR/2 etf", "bitcoin, the spot etf")).toBe(true);
    expect(near("bitcoin NEAR/2 etf", "bitcoin and the spot etf")).toBe(false);
    expect(near("bitcoin NEAR/0 etf", "etf — bitcoin!")).toBe(true);
    expect(near("bitcoin NEAR/0 etf", "etf x bitcoin")).toBe(false);
    // a word near itself needs two occurrences
    expect(near("a NEAR/1 a", "a b c")).toBe(false);
    expect(near("a NEAR/1 a", "a b a")).toBe(true);
    // phrases count as their words: n words between the phrase's end and the other's start
    expect(near('"новый год" NEAR/2 скидки', "Скидки на новый год")).toBe(true);
    expect(near('"новый год" NEAR/1 скидки', "новый год и большие скидки")).toBe(false);
  });

  test("the post of the finding: a pair over 1,023 occurrences of each word, NEAR/1 holds and NEAR/0 does not", () => {
    const text = `${"a ".repeat(1023)}x ${"b ".repeat(1023)}`;
    const index = new TrackerIndex([query(1, "a NEAR/1 b"), query(2, "a NEAR/0 b")]);
    const { hits } = index.match(text);
    expect(hits.map((h) => h.tracker.id)).toEqual([1]);
  });

  test("property: the same answer as comparing every pair, on small texts (words, phrases, either order)", () => {
    const word = fc.constantFrom("a", "b", "c", "ab");
    const gap = fc.constantFrom(" ", ", ", "\n", " — ");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, gap), { maxLength: 14 }),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom<[string[], string[]]>(
          [["a"], ["b"]],
          [["a"], ["a"]],
          [["a", "c"], ["b"]],
          [["b"], ["c", "a"]],
          [["ab"], ["a", "b"]],
        ),
        (parts, n, [a, b]) => {
          const text = parts.map(([w, g]) => w + g).join("");
          const term = (p: string[]) => (p.length > 1 ? `"${p.join(" ")}"` : p[0]!);
          expect(near(`${term(a)} NEAR/${n} ${term(b)}`, text)).toBe(naiveNear(a, b, n, parts));
        },
      ),
      { numRuns: 500 },
    );
  }, 60_000);
});

describe("the work budget", () => {
  const pairs = (pair: string) => Array.from({ length: 15 }, () => pair).join(" ");
  const hostile = `${"a ".repeat(1023)}x ${"b ".repeat(1023)}`;

  test("a tracker that would cost more than its budget on a post is skipped for that post, reported; others still match", () => {
    const index = new TrackerIndex([
      query(1, pairs("a NEAR/1 b")),
      query(2, pairs("b NEAR/1 a")),
      { id: 3, keyword: "x", exactMatch: true, minusWords: null },
      query(4, "x NEAR/1 b"),
    ]);
    const result = index.match(hostile);
    expect(result.over.map((t) => t.id).sort()).toEqual([1, 2]);
    expect(result.hits.map((h) => h.tracker.id).sort()).toEqual([3, 4]);
    // the work stops at the budget (plus the one step that passed it: a term's occurrences, at most 4,096)
    expect(result.work).toBeGreaterThan(WORK_BUDGET);
    expect(result.work).toBeLessThan(WORK_BUDGET + 8192);
  });

  test("the same trackers on an ordinary post cost a fraction of the budget and match", () => {
    const index = new TrackerIndex([query(1, pairs("a NEAR/1 b"))]);
    const result = index.match("a x b, and then some other words");
    expect(result.over).toEqual([]);
    expect(result.hits.map((h) => h.tracker.id)).toEqual([1]);
    expect(result.work).toBeLessThan(WORK_BUDGET / 100);
  });
});
