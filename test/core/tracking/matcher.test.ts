import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { TrackerIndex, excerpt, type MatchableTracker } from "../../../core/tracking/matcher";
import { nfkc, normalise } from "../../../core/tracking/normalise";

const tr = (id: number, keyword: string, exactMatch = false, minusWords: string[] | null = null): MatchableTracker => ({
  id,
  keyword,
  exactMatch,
  minusWords,
});

/** [keyword, exact, minus words, text, expected matched text (as written) or null] */
const CASES: [string, boolean, string[] | null, string, string | null][] = [
  // Latin, case-insensitive substring
  ["bitcoin", false, null, "Buy BITCOIN now!", "BITCOIN"],
  ["coin", false, null, "Buy Bitcoin now", "coin"],
  ["coin", true, null, "Buy Bitcoin now", null],
  ["coin", true, null, "a coin, a token", "coin"],
  // Cyrillic, ё→е both ways, case
  ["ёлка", false, null, "Новогодняя ЕЛКА стоит", "ЕЛКА"],
  ["елка", true, null, "купил Ёлку вчера", null],
  ["ёлку", true, null, "купил Ёлку вчера", "Ёлку"],
  ["продам", true, null, "Продам-гараж недорого", "Продам"],
  ["продам", true, null, "перепродам гараж", null],
  ["продам", false, null, "перепродам гараж", "продам"],
  // Unicode word boundaries: Cyrillic letters are word characters (JS \b would fail here)
  ["кот", true, null, "котёнок и кот.", "кот"],
  ["кот", true, null, "котёнок", null],
  // punctuation and emoji around words
  ["rust", true, null, "🚀Rust🚀 1.80 released", "Rust"],
  ["rust", true, null, "«Rust», (rust) and rusty", "Rust"],
  ["🚀", false, null, "launch 🚀 today", "🚀"],
  ["c++", true, null, "I like C++.", "C++"],
  // phrases, whitespace runs and newlines collapse
  ["new york", true, null, "Flights to New\n  York today", "New\n  York"],
  ["new york", true, null, "Flights to Newark, York", null],
  ["машинное обучение", false, null, "Курс: МАШИННОЕ   обучение с нуля", "МАШИННОЕ   обучение"],
  // invisible characters and compatibility forms
  ["password", false, null, "pass\u200Bword leak", "pass\u200Bword"],
  ["обучение", false, null, "обу\u00ADчение", "обу\u00ADчение"],
  ["ﬁnance", false, null, "FINANCE news", "FINANCE"],
  ["telegram", false, null, "ＴＥＬＥＧＲＡＭ bot", "TELEGRAM"],
  // emoji variation selectors and bidi controls are invisible too
  ["❤", true, null, "I ❤\uFE0F rust", "❤"],
  ["❤\uFE0F", false, null, "I ❤ rust", "❤"],
  ["shalom", true, null, "say \u202Bshalom\u202C now", "shalom"],
  ["ab", false, null, "a\u2067b", "a\u2067b"],
  // minus words veto anywhere; matched like the keyword
  ["iphone", false, ["case"], "iPhone 15 leather CASE", null],
  ["iphone", false, ["case"], "iPhone 15 Pro Max", "iPhone"],
  ["iphone", true, ["case"], "iPhone showcase event", "iPhone"],
  ["iphone", false, ["case"], "iPhone showcase event", null],
  ["работа", false, ["удалённо", "фриланс"], "Работа удаленно в Москве", null],
  // Greek final sigma folds with sigma
  ["λογος", false, null, "ΛΟΓΟΣ και λόγος", "ΛΟΓΟΣ"],
];

describe("matcher: table of cases", () => {
  for (const [keyword, exact, minus, text, expected] of CASES)
    test(`${exact ? "exact" : "substring"} "${keyword}"${minus ? ` −${minus.join(",")}` : ""} in ${JSON.stringify(text)}`, () => {
      const index = new TrackerIndex([tr(1, keyword, exact, minus)]);
      const { text: display, hits } = index.match(text);
      // substring mode without minus words: the one-pass reading agrees with the string normalisation
      if (!exact && !minus) expect(hits.length > 0).toBe(normalise(text).includes(normalise(keyword).trim()));
      if (expected === null) return expect(hits).toEqual([]);
      expect(hits).toHaveLength(1);
      expect(excerpt(display, hits[0]!.start, hits[0]!.end).matchedKeyword).toBe(expected.normalize("NFKC"));
    });
});

describe("matcher: many trackers, one scan", () => {
  test("each matching tracker is reported once, vetoes apply per tracker", () => {
    const index = new TrackerIndex([
      tr(1, "apple"),
      tr(2, "apple", true),
      tr(3, "apple pie", true),
      tr(4, "pie", false, ["apple"]),
      tr(5, "banana"),
      tr(6, "APPLE", false, ["cake"]),
    ]);
    const ids = index
      .match("Apple pie and pineapple, apple again")
      .hits.map((h) => h.tracker.id)
      .sort();
    expect(ids).toEqual([1, 2, 3, 6]);
    expect(index.match("nothing here").hits).toEqual([]);
    // the first qualifying occurrence is reported: for the exact tracker it skips "pineapple"
    const [hit] = new TrackerIndex([tr(2, "apple", true)]).match("pineapple apple").hits;
    expect([hit!.start, hit!.end]).toEqual([10, 15]);
  });

  test("overlapping patterns (suffix of another) are all found", () => {
    const index = new TrackerIndex([tr(1, "he"), tr(2, "she"), tr(3, "hers"), tr(4, "his")]);
    expect(
      index
        .match("ushers")
        .hits.map((h) => h.tracker.id)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  test("empty keyword after normalisation never matches", () => {
    expect(new TrackerIndex([tr(1, "\u200B ")]).match("anything \u200B").hits).toEqual([]);
  });
});

describe("excerpt", () => {
  test("snippet keeps ~80 chars of context on word boundaries with ellipses", () => {
    const before = "слово ".repeat(30);
    const after = " word".repeat(30);
    const text = `${before}Биткоин${after}`;
    const {
      text: display,
      hits: [hit],
    } = new TrackerIndex([tr(1, "биткоин")]).match(text);
    const { snippet, matchedKeyword } = excerpt(display, hit!.start, hit!.end);
    expect(matchedKeyword).toBe("Биткоин");
    expect(snippet.startsWith("…слово")).toBe(true);
    expect(snippet.endsWith("word…")).toBe(true);
    expect(snippet).toContain("слово Биткоин word");
    expect(snippet.length).toBeLessThan(200);
  });

  test("a cut never splits an emoji (no lone surrogate halves at either end)", () => {
    const text = `${"😀".repeat(41)}xbitcoiny${"😀".repeat(41)}`;
    const {
      text: display,
      hits: [hit],
    } = new TrackerIndex([tr(1, "bitcoin")]).match(text);
    const { snippet } = excerpt(display, hit!.start, hit!.end);
    expect(snippet.isWellFormed()).toBe(true);
    expect(snippet).toBe(`…${"😀".repeat(40)}xbitcoiny${"😀".repeat(40)}…`);
  });

  test("normalise: NFKC, folding, invisibles, whitespace runs", () => {
    expect(normalise("  ＡБВ Ёж\u200B\u00AD\t\n ΣΟΦΟΣ ﬁ ")).toBe(" aбв еж σοφοσ fi ");
  });

  test("nfkc gives what String.normalize gives, on texts mixing what NFKC keeps, changes and joins", () => {
    // kept (Latin, Cyrillic, punctuation, emoji), changed alone (ﬁ, full width, nbsp, ½, 𝐀, 🄰), joined to the one before
    // (a combining breve after и, a combining acute after e, Hangul jamo, a half-width voiced mark), lone surrogates
    const pieces = [
      "a",
      "Z",
      "и",
      "й",
      " ",
      "—",
      "«",
      "🚀",
      "😀",
      "❤",
      "\uFE0F",
      "ﬁ",
      "Ａ",
      "\u00A0",
      "½",
      "𝐀",
      "🄰",
      "\u0306",
      "\u0301",
      "\u1100",
      "\u1161",
      "\u11A8",
      "ｶ",
      "\uFF9E",
      "\uD83D",
      "\uDE00",
      "x\u0307\u0323",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(nfkc(text)).toBe(text.normalize("NFKC"));
      }),
      { numRuns: 2_000 },
    );
    for (let c = 0; c < 0x10000; c++) expect(nfkc(`a${String.fromCharCode(c)}`)).toBe(`a${String.fromCharCode(c)}`.normalize("NFKC"));
  });
});
