/**
 * The query syntax of trackers with `syntax: "query"`, parsed into a small tree the matcher
 * evaluates on the posts its words can match:
 *
 *   a b          both (AND; "AND" may be written, it changes nothing)
 *   a OR b, a|b  either; binds tighter than the spaces: `a b OR c` is a AND (b OR c)
 *   -a, NOT a    must not appear
 *   "a b"        the exact phrase
 *   ab*          a word starting with "ab"
 *   ( … )        grouping
 *   a NEAR/3 b   both, with at most 3 other words between them, in either order
 *
 * Errors are `InvalidQuery` (400 invalid_query) naming the position (1-based, in characters).
 */
import { normaliseKeyword } from "./normalise";
import { describe, refuse, tokenize, type Token } from "./query-tokens";

const QUERY_MAX_CHARS = 500;

const QUERY_MAX_TERMS = 30;

/** A word or phrase of a query (normalised words), or a word prefix (`prefix`, one word). */
interface QueryTerm {
  words: string[];
  prefix: boolean;
}

export type QueryNode =
  | { kind: "term"; term: number }
  | { kind: "and" | "or"; items: QueryNode[] }
  | { kind: "not"; item: QueryNode }
  | { kind: "near"; a: number; b: number; distance: number };

export interface ParsedQuery {
  root: QueryNode;
  terms: QueryTerm[];
}

/** Parses a query (see the module comment); throws InvalidQuery naming the position of the problem. */
export function parseQuery(query: string): ParsedQuery {
  const length = [...query].length;
  if (length > QUERY_MAX_CHARS)
    throw refuse(
      `a query is at most ${QUERY_MAX_CHARS} characters; this one is ${length} (it goes on past position ${QUERY_MAX_CHARS})`,
      "long",
      QUERY_MAX_CHARS + 1,
      { max: QUERY_MAX_CHARS, length },
    );
  const tokens = tokenize(query);
  if (!tokens.length) throw refuse("the query is empty", "empty", null);
  const parser = new QueryParser(tokens, length + 1);
  const root = parser.and();
  if (
    evaluate(
      root,
      () => false,
      () => false,
    )
  )
    throw refuse(
      "the query matches posts that contain none of its words (it only excludes); add a word that must appear",
      "only-not",
      null,
    );
  return { root, terms: parser.terms };
}

/**
 * The recursive descent over a query's tokens, one method per level of the grammar: `and` (terms side
 * by side) over `or` over `unary` (NOT, -) over `primary` (a group, or a term with its NEAR chain).
 * It collects the terms as it meets them; `end` is the position just past the query, for "ends here".
 */
class QueryParser {
  readonly terms: QueryTerm[] = [];
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly end: number,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  /** `reason`: what was expected, as a reason key (`query-problem-<reason>`) */
  private unexpected(t: Token | undefined, what: string, reason = "expected-word"): never {
    if (!t) throw refuse(`the query ends at position ${this.end} where ${what} was expected`, "ends", this.end);
    throw refuse(`unexpected ${describe(t)} at position ${t.at}: ${what} was expected`, reason, t.at, { token: describe(t) });
  }

  /** A word (a trailing `*` makes it a prefix) or a phrase, as a new term; returns its index. */
  private term(t: Token & { type: "word" | "phrase" }): number {
    let words: string[];
    let prefix = false;
    if (t.type === "word") {
      let text = t.text;
      if (text.endsWith("*") && text.length > 1) {
        prefix = true;
        text = text.replace(/\*+$/, "");
      }
      words = [normaliseKeyword(text)];
      if (!words[0]) throw refuse(`"${t.text}" at position ${t.at} has nothing to match`, "nothing", t.at, { text: t.text });
      if (prefix && words[0].includes(" ")) prefix = false;
    } else {
      const normal = normaliseKeyword(t.text);
      if (!normal) throw refuse(`the phrase at position ${t.at} is empty`, "empty-phrase", t.at);
      words = normal.split(" ");
    }
    if (this.terms.length === QUERY_MAX_TERMS)
      throw refuse(
        `a query has at most ${QUERY_MAX_TERMS} words and phrases; the ${QUERY_MAX_TERMS + 1}st is at position ${t.at}`,
        "terms",
        t.at,
        { max: QUERY_MAX_TERMS },
      );
    this.terms.push({ words, prefix });
    return this.terms.length - 1;
  }

  /** A group in parentheses, or a term with its NEAR chain. */
  private primary(): QueryNode {
    const t = this.peek();
    if (t?.type === "open") {
      this.pos++;
      if (!this.peek()) throw refuse(`the parenthesis at position ${t.at} is not closed`, "open", t.at);
      if (this.peek()?.type === "close") throw refuse(`the parentheses at position ${t.at} are empty`, "parens-empty", t.at);
      const inner = this.and(t);
      if (this.peek()?.type !== "close") throw refuse(`the parenthesis at position ${t.at} is not closed`, "open", t.at);
      this.pos++;
      return inner;
    }
    if (t?.type === "word" || t?.type === "phrase") {
      this.pos++;
      return this.nearChain(this.term(t));
    }
    return this.unexpected(t, "a word, a phrase or a group");
  }

  /** a NEAR/n b NEAR/m c after term `first`: each pair, all together (the term alone without NEAR) */
  private nearChain(first: number): QueryNode {
    const pairs: QueryNode[] = [];
    let left = first;
    while (this.peek()?.type === "near") {
      const near = this.peek() as Token & { type: "near" };
      this.pos++;
      const right = this.peek();
      if (right?.type !== "word" && right?.type !== "phrase")
        this.unexpected(right, `a word or phrase after NEAR/${near.distance}`, "after-near");
      this.pos++;
      const b = this.term(right as Token & { type: "word" | "phrase" });
      pairs.push({ kind: "near", a: left, b, distance: near.distance });
      left = b;
    }
    if (!pairs.length) return { kind: "term", term: first };
    return pairs.length === 1 ? pairs[0]! : { kind: "and", items: pairs };
  }

  private unary(): QueryNode {
    const t = this.peek();
    if (t?.type === "neg" || t?.type === "not") {
      this.pos++;
      return { kind: "not", item: this.unary() };
    }
    return this.primary();
  }

  private or(): QueryNode {
    const items = [this.unary()];
    while (this.peek()?.type === "or") {
      const op = this.peek()!;
      this.pos++;
      const next = this.peek();
      if (!next || next.type === "or" || next.type === "close")
        this.unexpected(next, `a word or group after ${describe(op)} (at position ${op.at})`, "after-or");
      items.push(this.unary());
    }
    return items.length === 1 ? items[0]! : { kind: "or", items };
  }

  /** Items side by side up to the end or the `)` of the group opened by `open`. */
  and(open?: Token): QueryNode {
    const items: QueryNode[] = [];
    for (let t = this.peek(); t && t.type !== "close"; t = this.peek()) {
      if (t.type === "or") this.unexpected(t, "a word or group before OR", "before-or");
      if (t.type === "near") this.unexpected(t, "a word or phrase before NEAR", "before-near");
      items.push(this.or());
    }
    if (!items.length) this.unexpected(this.peek(), "a word, a phrase or a group");
    if (!open && this.peek()?.type === "close")
      throw refuse(`the parenthesis at position ${this.peek()!.at} closes nothing`, "closes-nothing", this.peek()!.at);
    return items.length === 1 ? items[0]! : { kind: "and", items };
  }
}

/**
 * Evaluates a query tree given whether each term occurs (`has`) and whether two terms occur near
 * each other (`near`); both are only asked about the terms the answer depends on.
 */
export function evaluate(
  node: QueryNode,
  has: (term: number) => boolean,
  near: (a: number, b: number, distance: number) => boolean,
): boolean {
  switch (node.kind) {
    case "term":
      return has(node.term);
    case "and":
      return node.items.every((n) => evaluate(n, has, near));
    case "or":
      return node.items.some((n) => evaluate(n, has, near));
    case "not":
      return !evaluate(node.item, has, near);
    case "near":
      return has(node.a) && has(node.b) && near(node.a, node.b, node.distance);
  }
}

/** The terms that occur outside any NOT (the ones a match can be shown by). */
export function positiveTerms(node: QueryNode, out = new Set<number>()): Set<number> {
  if (node.kind === "term") out.add(node.term);
  else if (node.kind === "near") out.add(node.a).add(node.b);
  else if (node.kind !== "not") for (const n of node.items) positiveTerms(n, out);
  return out;
}
