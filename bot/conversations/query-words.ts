/**
 * The tracker dialog's reading of a keyword: whether it is written as a query, what a parsed query
 * means in words ("bitcoin or ether, without “scam”"), and where and why a query is refused, with
 * the text around the place shown. All words come from the language files.
 */
import type { ParsedQuery, QueryNode } from "../../core/tracking/query";
import { QueryProblem } from "../../core/tracking/query-tokens";

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** Query syntax in a keyword: OR/NOT/AND or NEAR as words, `|`, `-word`, quotes, `*`, parentheses. */
const QUERY_SIGNS = /(?:^|\s)(?:OR|NOT|AND|NEAR(?:\/\S*)?)(?=\s|$)|\||(?:^|[\s(])-[^\s-]|"|\*|[()]/u;

/** True when `keyword` uses query syntax; a plain word or phrase (`кто-то`, `rust 2.0`, `C++`) is not. */
export const looksLikeQuery = (keyword: string) => QUERY_SIGNS.test(keyword);

/** A query in words, in the reader's language: `биткоин OR эфир -скам` → "биткоин или эфир, без «скам»". */
export function describeQuery(parsed: ParsedQuery, t: Translate): string {
  const term = (i: number) => {
    const { words, prefix } = parsed.terms[i]!;
    if (prefix) return t("query-words-prefix", { word: words[0]! });
    return words.length > 1 ? t("query-words-phrase", { phrase: words.join(" ") }) : words[0]!;
  };
  const say = (node: QueryNode, nested: boolean): string => {
    switch (node.kind) {
      case "term":
        return term(node.term);
      case "near":
        return t("query-words-near", { a: term(node.a), b: term(node.b), distance: node.distance });
      case "not":
        return t("query-words-without", { what: say(node.item, false) });
      case "or": {
        const text = node.items.map((n) => say(n, true)).join(t("query-words-or"));
        return nested ? `(${text})` : text;
      }
      case "and": {
        const yes = node.items.filter((n) => n.kind !== "not");
        const no = node.items.filter((n) => n.kind === "not");
        const head = yes.map((n) => say(n, yes.length > 1)).join(t("query-words-and"));
        const text = [head, ...no.map((n) => say(n, false))].filter(Boolean).join(", ");
        return nested ? `(${text})` : text;
      }
    }
  };
  return say(parsed.root, false);
}

/** Characters shown on each side of a refused query's problem. */
const AROUND = 15;

/**
 * A refused query in the reader's words: the reason, and the text around the position with the
 * place marked (`…OR <b>)</b>…`); HTML. Null when `e` is not a query's problem.
 */
export function queryProblemText(e: unknown, query: string, t: Translate): string | null {
  if (!(e instanceof QueryProblem)) return null;
  const esc = (s: string) => Bun.escapeHTML(s);
  const reason = t(`query-problem-${e.reason}`, e.vars);
  if (e.at === null) return t("query-refused", { reason });
  const chars = [...query];
  const i = e.at - 1;
  const before = chars.slice(Math.max(0, i - AROUND), i).join("");
  const here = chars[i] ?? "";
  const after = chars.slice(i + 1, i + 1 + AROUND).join("");
  const shown = `${i > AROUND ? "…" : ""}${esc(before)}<b>${here ? esc(here) : "⟵"}</b>${esc(after)}${i + 1 + AROUND < chars.length ? "…" : ""}`;
  return t("query-refused-at", { reason, position: e.at, shown });
}
