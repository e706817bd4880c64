import { describe, expect, test } from "bun:test";
import { TrackerIndex } from "../../../core/tracking/matcher";
import { FORMS_DIFFER, FORMS_MATCH } from "../../helpers/word-forms-cases";

/** What a post shows as matched for a plain tracker with word forms, or null. */
const shown = (keyword: string, text: string) => {
  const { text: display, hits } = new TrackerIndex([{ id: 1, keyword, exactMatch: false, minusWords: null, wordForms: true }]).match(text);
  return hits[0] ? display.slice(hits[0].start, hits[0].end) : null;
};

describe("word forms from the dictionaries", () => {
  test.each(FORMS_MATCH)("%s matches %s", (keyword, form) => {
    expect(shown(keyword, `Сегодня — ${form}, а что ещё?`)).toBe(form);
    expect(shown(keyword, `${form[0]!.toUpperCase()}${form.slice(1)}!`)).toBe(`${form[0]!.toUpperCase()}${form.slice(1)}`);
  });

  test.each(FORMS_DIFFER)("%s does not match %s", (keyword, other) => {
    expect(shown(keyword, `Сегодня — ${other}, а что ещё?`)).toBeNull();
  });

  test("a form of two words matches a tracker on either (банку: of банк and of банка)", () => {
    expect(shown("банк", "отнёс в банку")).toBe("банку");
    expect(shown("банка", "отнёс в банку")).toBe("банку");
  });

  test("words the dictionary does not know fall back to a stemmer, never under 4 letters", () => {
    expect(shown("биткоин", "курс биткоина")).toBe("биткоина");
    expect(shown("биткоины", "курс биткоина")).toBe("биткоина");
    expect(shown("btc", "btcs")).toBeNull();
    expect(shown("btc", "BTC now")).toBe("BTC");
  });

  test("word forms in queries, minus words and several trackers of one index", () => {
    const index = new TrackerIndex([
      { id: 1, keyword: "(скидка OR купон) -ребёнок", exactMatch: false, minusWords: null, syntax: "query", wordForms: true },
      { id: 2, keyword: "день", exactMatch: false, minusWords: ["год"], wordForms: true },
      { id: 3, keyword: "день", exactMatch: false, minusWords: null },
    ]);
    const ids = (text: string) =>
      index
        .match(text)
        .hits.map((h) => h.tracker.id)
        .sort();
    expect(ids("Скидок больше нет, три дня осталось")).toEqual([1, 2]);
    expect(ids("Скидок для детей нет")).toEqual([]);
    expect(ids("Два дня и пять лет")).toEqual([]);
    expect(ids("Один день")).toEqual([2, 3]);
  });
});

describe("hyphenated words decline in their last part", () => {
  test("интернет-магазин, бизнес-план, Санкт-Петербург in their forms; the parts apart or another word are no match", () => {
    expect(shown("интернет-магазин", "Скидки в нашем интернет-магазине")).toBe("интернет-магазине");
    expect(shown("бизнес-план", "Шаблон бизнес-плана бесплатно")).toBe("бизнес-плана");
    expect(shown("Санкт-Петербург", "Открылись в Санкт-Петербурге!")).toBe("Санкт-Петербурге");
    expect(shown("интернет-магазин", "Интернет-магазин открыт")).toBe("Интернет-магазин");
    expect(shown("интернет-магазин", "интернет магазине")).toBeNull();
    expect(shown("интернет-магазин", "интернет-магазинище")).toBeNull();
    expect(shown("интернет-магазин", "суперинтернет-магазин")).toBeNull();
  });
});

describe("a phrase with word forms across any whitespace", () => {
  test("two spaces, a blank line or a tab between the words: matched, never a hang", () => {
    // in a process of its own with a deadline: the defect this guards against was a loop that never ended
    const matchedIn = (keyword: string, syntax: "plain" | "query", text: string) => {
      const run = Bun.spawnSync(
        [
          "bun",
          "-e",
          `import { TrackerIndex } from ${JSON.stringify(`${import.meta.dir}/../../../core/tracking/matcher`)};
           const index = new TrackerIndex([{ id: 1, keyword: ${JSON.stringify(keyword)}, exactMatch: false, minusWords: null, syntax: ${JSON.stringify(syntax)}, wordForms: true }]);
           const { text, hits } = index.match(${JSON.stringify(text)});
           console.log(JSON.stringify(hits.map((h) => text.slice(h.start, h.end))));`,
        ],
        { timeout: 10_000 },
      );
      return run.exitedDueToTimeout ? "timed out" : JSON.parse(run.stdout.toString());
    };
    expect(matchedIn("новый канал", "plain", "Новый\n\nканал о маркетинге")).toEqual(["Новый\n\nканал"]);
    expect(matchedIn("новый год", "plain", "С  Новым   годом!")).toEqual(["Новым   годом"]);
    expect(matchedIn("новый год", "plain", "Новый  день")).toEqual([]);
    expect(matchedIn('"новый канал" OR скидка', "query", "Новый\t\tканал")).toEqual(["Новый\t\tканал"]);
  }, 60_000);
});
