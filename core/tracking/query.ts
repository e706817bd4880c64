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
import { InvalidQuery } from "../errors";
import { normaliseKeyword } from "./normalise";

const QUERY_MAX_CHARS = 500;

/**
 * A query that does not parse: core's English sentence (the API's message), and for the bot the
 * reason as a translation key (`query-problem-<reason>`), the 1-based position and the reason's values.
 */
export class QueryProblem extends InvalidQuery {
  constructor(
    message: string,
    readonly reason: string,
    readonly at: number | null,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(message);
  }
}
const refuse = (message: string, reason: string, at: number | null, vars?: Record<string, string | number>) =>
  new QueryProblem(message, reason, at, vars);
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

type Token =
  | { type: "word"; text: string; at: number }
  | { type: "phrase"; text: string; at: number }
  | { type: "or" | "not" | "neg" | "open" | "close"; at: number }
  | { type: "near"; distance: number; at: number };

const SPACE_RE = /\s/u;
const STOP = new Set(["(", ")", '"', "|"]);

/** Characters are counted as code points; `at` is the 1-based position shown in messages. */
function tokenize(query: string): Token[] {
  const chars = [...query];
  const out: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    const at = i + 1;
    if (SPACE_RE.test(c)) i++;
    else if (c === "(") out.push({ type: "open", at }), i++;
    else if (c === ")") out.push({ type: "close", at }), i++;
    else if (c === "|") out.push({ type: "or", at }), i++;
    else if (c === '"') {
      const end = chars.indexOf('"', i + 1);
      if (end === -1) throw refuse(`the quote at position ${at} is not closed`, "quote", at);
      out.push({ type: "phrase", text: chars.slice(i + 1, end).join(""), at });
      i = end + 1;
    } else if (c === "-" && (i + 1 === chars.length || SPACE_RE.test(chars[i + 1]!))) {
      throw refuse(`the "-" at position ${at} stands alone: write it right before the word it excludes, as in -scam`, "dash", at);
    } else if (
      c === "-" &&
      i + 1 < chars.length &&
      !SPACE_RE.test(chars[i + 1]!) &&
      chars[i + 1] !== "-" &&
      chars[i + 1] !== ")" &&
      chars[i + 1] !== "|"
    ) {
      out.push({ type: "neg", at });
      i++;
    } else {
      let end = i;
      while (end < chars.length && !SPACE_RE.test(chars[end]!) && !STOP.has(chars[end]!)) end++;
      const text = chars.slice(i, end).join("");
      const near = /^NEAR\/(\d{1,3})$/.exec(text);
      if (text === "OR") out.push({ type: "or", at });
      else if (text === "NOT") out.push({ type: "not", at });
      else if (near) out.push({ type: "near", distance: Number(near[1]), at });
      else if (text === "NEAR" || text.startsWith("NEAR/"))
        throw refuse(`"${text}" at position ${at}: write NEAR/n with the number of words allowed between, e.g. NEAR/3`, "near", at, {
          text,
        });
      else if (text !== "AND") out.push({ type: "word", text, at });
      i = end;
    }
  }
  return out;
}

const describe = (t: Token) =>
  t.type === "word" || t.type === "phrase"
    ? `"${t.text}"`
    : t.type === "near"
      ? `NEAR/${t.distance}`
      : { or: "OR", not: "NOT", neg: '"-"', open: '"("', close: '")"' }[t.type];

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
  const terms: QueryTerm[] = [];
  let pos = 0;
  const peek = () => tokens[pos];
  const end = length + 1;
  /** `reason`: what was expected, as a reason key (`query-problem-<reason>`) */
  const unexpected = (t: Token | undefined, what: string, reason = "expected-word"): never => {
    if (!t) throw refuse(`the query ends at position ${end} where ${what} was expected`, "ends", end);
    throw refuse(`unexpected ${describe(t)} at position ${t.at}: ${what} was expected`, reason, t.at, { token: describe(t) });
  };

  const term = (t: Token & { type: "word" | "phrase" }): number => {
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
    if (terms.length === QUERY_MAX_TERMS)
      throw refuse(
        `a query has at most ${QUERY_MAX_TERMS} words and phrases; the ${QUERY_MAX_TERMS + 1}st is at position ${t.at}`,
        "terms",
        t.at,
        { max: QUERY_MAX_TERMS },
      );
    terms.push({ words, prefix });
    return terms.length - 1;
  };

  const primary = (): QueryNode => {
    const t = peek();
    if (t?.type === "open") {
      pos++;
      if (!peek()) throw refuse(`the parenthesis at position ${t.at} is not closed`, "open", t.at);
      if (peek()?.type === "close") throw refuse(`the parentheses at position ${t.at} are empty`, "parens-empty", t.at);
      const inner = and(t);
      if (peek()?.type !== "close") throw refuse(`the parenthesis at position ${t.at} is not closed`, "open", t.at);
      pos++;
      return inner;
    }
    if (t?.type === "word" || t?.type === "phrase") {
      pos++;
      let node: QueryNode = { kind: "term", term: term(t) };
      // a NEAR/n b NEAR/m c: each pair, all together
      const pairs: QueryNode[] = [];
      let left = (node as { term: number }).term;
      while (peek()?.type === "near") {
        const near = peek() as Token & { type: "near" };
        pos++;
        const right = peek();
        if (right?.type !== "word" && right?.type !== "phrase")
          unexpected(right, `a word or phrase after NEAR/${near.distance}`, "after-near");
        pos++;
        const b = term(right as Token & { type: "word" | "phrase" });
        pairs.push({ kind: "near", a: left, b, distance: near.distance });
        left = b;
      }
      if (pairs.length) node = pairs.length === 1 ? pairs[0]! : { kind: "and", items: pairs };
      return node;
    }
    return unexpected(t, "a word, a phrase or a group");
  };

  const unary = (): QueryNode => {
    const t = peek();
    if (t?.type === "neg" || t?.type === "not") {
      pos++;
      return { kind: "not", item: unary() };
    }
    return primary();
  };

  const or = (): QueryNode => {
    const items = [unary()];
    while (peek()?.type === "or") {
      const op = peek()!;
      pos++;
      const next = peek();
      if (!next || next.type === "or" || next.type === "close")
        unexpected(next, `a word or group after ${describe(op)} (at position ${op.at})`, "after-or");
      items.push(unary());
    }
    return items.length === 1 ? items[0]! : { kind: "or", items };
  };

  const and = (open?: Token): QueryNode => {
    const items: QueryNode[] = [];
    for (let t = peek(); t && t.type !== "close"; t = peek()) {
      if (t.type === "or") unexpected(t, "a word or group before OR", "before-or");
      if (t.type === "near") unexpected(t, "a word or phrase before NEAR", "before-near");
      items.push(or());
    }
    if (!items.length) unexpected(peek(), "a word, a phrase or a group");
    if (!open && peek()?.type === "close")
      throw refuse(`the parenthesis at position ${peek()!.at} closes nothing`, "closes-nothing", peek()!.at);
    return items.length === 1 ? items[0]! : { kind: "and", items };
  };

  if (!tokens.length) throw refuse("the query is empty", "empty", null);
  const root = and();
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
  return { root, terms };
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
