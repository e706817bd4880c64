import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { TrackerIndex, type MatchableTracker } from "../../../core/tracking/matcher";
import { evaluate, parseQuery } from "../../../core/tracking/query";
import { anchorTerms, compileTracker } from "../../../core/tracking/query-match";

const query = (id: number, keyword: string): MatchableTracker => ({ id, keyword, exactMatch: false, minusWords: null, syntax: "query" });
/** The words of a query's anchor: the terms one of which a post must hold before the query is evaluated on it. */
const anchor = (keyword: string) => {
  const q = compileTracker(query(1, keyword))!;
  return anchorTerms(q).map((k) => (q.terms[k]!.kind === 1 ? `${q.terms[k]!.pattern}*` : q.terms[k]!.pattern));
};

describe("a query is evaluated only where its anchor occurs", () => {
  test("the anchor is the rarest group of terms one of which every matching post holds", () => {
    // a phrase over a prefix (a prefix matches many words)
    expect(anchor('"spot etf" crypt*')).toEqual(["spot etf"]);
    // either word of an OR; a NOT term is never required
    expect(anchor("bitcoin OR ethereum -scam")).toEqual(["bitcoin", "ethereum"]);
    // one word beats a group of two
    expect(anchor("(btc | eth) etf")).toEqual(["etf"]);
    expect(anchor("bitcoin NEAR/3 etf")).toEqual(["bitcoin"]);
    // a longer word is taken for a rarer one
    expect(anchor("a cryptocurrency")).toEqual(["cryptocurrency"]);
    // a double negation requires no group: every term stands guard
    expect(anchor("x NOT (NOT bitcoin)")).toEqual(["x"]);
  });

  // a small vocabulary, so that words, prefixes and groups meet often
  const WORDS = ["apple", "apricot", "pie", "pine", "cake", "tea", "ap"];
  const term = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom("ap*", "pi*", "ca*"), fc.constantFrom('"apple pie"', '"tea cake"'));
  const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
    e: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      term,
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => `${a} ${b}`),
      fc.tuple(tie("e"), tie("e")).map(([a, b]) => `(${a} OR ${b})`),
      fc.tuple(tie("e"), term).map(([a, b]) => `${a} -${b}`),
    ),
  })).e;

  /** The reference: the query evaluated term by term on the post's words, no index. */
  function reference(keyword: string, text: string): boolean {
    const words = text
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter(Boolean);
    const { root, terms } = parseQuery(keyword);
    const has = (k: number) => {
      const t = terms[k]!;
      if (t.prefix) return words.some((w) => w.startsWith(t.words[0]!));
      return words.some((_, i) => t.words.every((w, j) => words[i + j] === w));
    };
    return evaluate(root, has, () => false);
  }

  test("property: many query trackers in one index match exactly where each query holds", () => {
    fc.assert(
      fc.property(
        fc.array(expr, { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom(...WORDS, "x"), { maxLength: 10 }),
        (keywords, post) => {
          const valid = keywords.filter((k) => {
            try {
              parseQuery(k);
              return true;
            } catch {
              return false;
            }
          });
          const text = post.join(" ");
          const index = new TrackerIndex(valid.map((k, i) => query(i, k)));
          const got = index
            .match(text)
            .hits.map((h) => h.tracker.id)
            .sort((a, b) => a - b);
          const want = valid.flatMap((k, i) => (reference(k, text) ? [i] : []));
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 400 },
    );
  }, 60_000);
});
