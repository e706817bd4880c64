import { describe, expect, test } from "bun:test";
import { TrackerIndex } from "../../../core/tracking/matcher";
import { parseQuery } from "../../../core/tracking/query";
import { InvalidQuery } from "../../../core/errors";

/** What a query tracker shows as matched in `text` (the words as written), or null when it does not match. */
const shown = (keyword: string, text: string, wordForms = false, minusWords: string[] | null = null) => {
  const { text: display, hits } = new TrackerIndex([{ id: 1, keyword, exactMatch: false, minusWords, syntax: "query", wordForms }]).match(
    text,
  );
  expect(hits.length).toBeLessThanOrEqual(1);
  return hits[0] ? display.slice(hits[0].start, hits[0].end) : null;
};
const matches = (keyword: string, text: string, wordForms = false) => shown(keyword, text, wordForms) !== null;

describe("query operators", () => {
  test("spaces: every term must appear, as whole words", () => {
    expect(matches("bitcoin etf", "Bitcoin ETF approved")).toBe(true);
    expect(matches("bitcoin etf", "Bitcoin approved")).toBe(false);
    expect(matches("coin", "Bitcoin")).toBe(false); // whole words, unlike a plain non-exact tracker
    expect(matches("AND", "x")).toBe(false);
    expect(matches("bitcoin AND etf", "etf, bitcoin")).toBe(true); // AND may be written
  });

  test("OR and | mean either; OR binds tighter than the spaces", () => {
    expect(matches("bitcoin OR ethereum", "ETHEREUM rally")).toBe(true);
    expect(matches("bitcoin|ethereum", "bitcoin rally")).toBe(true);
    expect(matches("bitcoin | ethereum", "solana rally")).toBe(false);
    // a b OR c is a AND (b OR c)
    expect(matches("buy bitcoin OR ethereum", "buy ethereum")).toBe(true);
    expect(matches("buy bitcoin OR ethereum", "ethereum")).toBe(false);
    expect(matches("buy bitcoin OR ethereum", "buy solana")).toBe(false);
    // "or" in lower case is a word to find, not the operator
    expect(matches("bitcoin or ethereum", "bitcoin or ethereum")).toBe(true);
    expect(matches("bitcoin or ethereum", "bitcoin ethereum")).toBe(false);
  });

  test("-term and NOT term must not appear; they bind tighter than OR", () => {
    expect(shown("bitcoin OR ethereum -scam", "Ethereum is up")).toBe("Ethereum");
    expect(matches("bitcoin OR ethereum -scam", "Ethereum scam warning")).toBe(false);
    expect(matches("bitcoin NOT scam", "bitcoin scammers")).toBe(true); // whole words: "scammers" is not "scam"
    expect(matches("bitcoin NOT scam", "bitcoin SCAM")).toBe(false);
    expect(matches("covid-19", "COVID-19 news")).toBe(true); // a hyphen inside a word is the word's
  });

  test('"phrases" are exact, word for word', () => {
    // the match shown is the earliest of the query's words in the post
    expect(shown('flights "new york"', "New\n York flights")).toBe("New\n York");
    expect(shown('"new york" flights', "Flights to New\n York")).toBe("Flights");
    expect(matches('"new york" flights', "York flights to new")).toBe(false);
    expect(matches('"машинное обучение"', "Курс: машинное, обучение")).toBe(false);
    expect(shown('"машинное обучение" -реклама', "МАШИННОЕ ОБУЧЕНИЕ с нуля")).toBe("МАШИННОЕ ОБУЧЕНИЕ");
  });

  test("prefix* matches words starting with the prefix", () => {
    expect(shown("bitco*", "Bitcoins rise")).toBe("Bitcoins");
    expect(matches("bitco*", "xbitcoin")).toBe(false);
    expect(shown("крипт* биржа", "Криптовалютная биржа открылась")).toBe("Криптовалютная");
  });

  test("parentheses group", () => {
    expect(matches("(bitcoin OR ethereum) (etf OR fund) -scam", "Ethereum fund launched")).toBe(true);
    expect(matches("(bitcoin OR ethereum) (etf OR fund) -scam", "Ethereum launched")).toBe(false);
    expect(matches("bitcoin -(scam OR fraud)", "bitcoin fraud")).toBe(false);
    expect(matches("bitcoin -(scam OR fraud)", "bitcoin news")).toBe(true);
    expect(matches("bitcoin -(scam fraud)", "bitcoin scam")).toBe(true); // only both together veto
  });

  test("a NEAR/n b: at most n words between, either order", () => {
    expect(matches("bitcoin NEAR/2 etf", "Bitcoin spot ETF")).toBe(true);
    expect(matches("bitcoin NEAR/2 etf", "ETF for spot bitcoin")).toBe(true);
    expect(matches("bitcoin NEAR/2 etf", "ETF is for spot bitcoin")).toBe(false);
    expect(matches("bitcoin NEAR/0 etf", "bitcoin, etf")).toBe(true); // punctuation is not a word
    expect(matches('"new york" NEAR/2 flights', "Flights to the new York")).toBe(true);
    expect(matches('"new york" NEAR/1 flights', "Flights to the new York")).toBe(false);
    expect(matches("buy NEAR/1 bitcoin NEAR/1 now", "buy cheap bitcoin right now")).toBe(true);
    expect(matches("buy NEAR/1 bitcoin NEAR/1 now", "buy cheap bitcoin right here and now")).toBe(false);
  });

  test("minus words still veto, as whole words", () => {
    expect(shown("bitcoin OR ethereum", "bitcoin giveaway", false, ["giveaway"])).toBe(null);
    expect(shown("bitcoin OR ethereum", "bitcoin giveaways", false, ["giveaway"])).toBe("bitcoin");
  });

  test("today's normalisation: case, ё, invisible characters, full-width letters", () => {
    expect(matches("ёлка OR sale", "ЕЛКА")).toBe(true);
    expect(matches("password leak", "pass\u200Bword LEAK")).toBe(true);
    expect(matches("telegram", "ＴＥＬＥＧＲＡＭ")).toBe(true);
  });

  test("several query and plain trackers in one index, one scan", () => {
    const index = new TrackerIndex([
      { id: 1, keyword: "apple", exactMatch: false, minusWords: null },
      { id: 2, keyword: "apple pie OR cake", exactMatch: false, minusWords: null, syntax: "query" as const },
      { id: 3, keyword: "apple -pie", exactMatch: false, minusWords: null, syntax: "query" as const },
      { id: 4, keyword: "pine*", exactMatch: false, minusWords: null, syntax: "query" as const },
    ]);
    expect(
      index
        .match("Apple pie and pineapple")
        .hits.map((h) => h.tracker.id)
        .sort(),
    ).toEqual([1, 2, 4]);
    expect(
      index
        .match("apple cake")
        .hits.map((h) => h.tracker.id)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(index.match("nothing").hits).toEqual([]);
  });
});

describe("word forms", () => {
  test("Russian: канал matches its forms, not канализация", () => {
    for (const form of ["канал", "канала", "каналу", "каналы", "каналов", "каналах", "Каналом"])
      expect(matches("канал", `Новый ${form} открыт`, true)).toBe(true);
    expect(matches("канал", "Прорвало канализацию", true)).toBe(false);
    expect(matches("канал", "канальный", true)).toBe(false);
    expect(matches("каналы", "в нашем канале", true)).toBe(true); // the keyword may be any form too
  });

  test("English: run matches runs, running, ran, not rune", () => {
    for (const form of ["run", "runs", "running", "RUN"]) expect(matches("run", `I ${form} daily`, true)).toBe(true);
    expect(matches("run", "a rune stone", true)).toBe(false);
    expect(matches("run", "brunch", true)).toBe(false);
    expect(matches("run", "he ran", true)).toBe(true);
    // happiness is another word (a noun made from happy), as customer is not custom; happier is a form
    expect(matches("happy", "happier", true)).toBe(true);
    expect(matches("happy", "happiness", true)).toBe(false);
  });

  test("phrases with forms: each word in any form, in order, separated by spaces only", () => {
    expect(shown('"машинное обучение"', "Курсы машинного обучения", true)).toBe("машинного обучения");
    expect(matches('"машинное обучение"', "обучения машинного", true)).toBe(false);
    expect(matches('"машинное обучение"', "машинного, обучения", true)).toBe(false);
    expect(matches('"new york"', "new yorks", true)).toBe(true);
  });

  test("operators with forms; words without forms (digits, other scripts) match whole", () => {
    expect(matches("(биткоин OR эфир) -скам", "Курс биткоина вырос", true)).toBe(true);
    expect(matches("(биткоин OR эфир) -скам", "Курс биткоина и скама", true)).toBe(false);
    expect(matches("web3 канал", "web3 каналы", true)).toBe(true);
    expect(matches("web3 канал", "web30 каналы", true)).toBe(false);
  });

  test("plain trackers with word forms: the keyword as a phrase of forms, minus words too", () => {
    const index = new TrackerIndex([{ id: 1, keyword: "машинное обучение", exactMatch: false, minusWords: ["курс"], wordForms: true }]);
    expect(index.match("Про машинного обучения").hits).toHaveLength(1);
    expect(index.match("Курсы машинного обучения").hits).toHaveLength(0);
    expect(index.match("машинноеобучение").hits).toHaveLength(0);
  });
});

describe("invalid queries name the position", () => {
  const error = (query: string) => {
    try {
      parseQuery(query);
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidQuery);
      expect((e as InvalidQuery).status).toBe(400);
      expect((e as InvalidQuery).code).toBe("invalid_query");
      return (e as Error).message;
    }
    throw new Error(`"${query}" parsed`);
  };

  test("unbalanced quotes and parentheses", () => {
    expect(error('bitcoin "new york')).toBe("the quote at position 9 is not closed");
    expect(error("(bitcoin OR eth")).toBe("the parenthesis at position 1 is not closed");
    expect(error("bitcoin) eth")).toBe("the parenthesis at position 8 closes nothing");
    expect(error("bitcoin ()")).toBe("the parentheses at position 9 are empty");
  });

  test("a lone operator", () => {
    expect(error("bitcoin OR")).toBe("the query ends at position 11 where a word or group after OR (at position 9) was expected");
    expect(error("OR bitcoin")).toBe("unexpected OR at position 1: a word or group before OR was expected");
    expect(error("bitcoin | | eth")).toBe("unexpected OR at position 11: a word or group after OR (at position 9) was expected");
    expect(error("bitcoin NOT")).toBe("the query ends at position 12 where a word, a phrase or a group was expected");
    expect(error("bitcoin - scam")).toBe('the "-" at position 9 stands alone: write it right before the word it excludes, as in -scam');
    expect(error("bitcoin NEAR/2")).toBe("the query ends at position 15 where a word or phrase after NEAR/2 was expected");
    expect(error("bitcoin NEAR etf")).toContain("position 9");
    expect(error("-scam")).toContain("add a word that must appear");
    expect(error("-scam OR bitcoin")).toContain("add a word that must appear"); // (not scam) or bitcoin: any post without scam
    expect(error("   ")).toBe("the query is empty");
  });

  test("more than 30 terms, more than 500 characters", () => {
    const words = Array.from({ length: 31 }, (_, i) => `w${i}`);
    expect(error(words.join(" "))).toBe(
      `a query has at most 30 words and phrases; the 31st is at position ${words.slice(0, 30).join(" ").length + 2}`,
    );
    expect(() => parseQuery(words.slice(0, 30).join(" OR "))).not.toThrow();
    expect(error("a".repeat(501))).toContain("at most 500 characters");
    expect(() => parseQuery("ё".repeat(500))).not.toThrow();
  });
});
