/** A tracker query cut into tokens (words, phrases, operators, parentheses), each with its position; query.ts parses them. */
import { InvalidQuery } from "../errors";

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
export const refuse = (message: string, reason: string, at: number | null, vars?: Record<string, string | number>) =>
  new QueryProblem(message, reason, at, vars);

export type Token =
  | { type: "word"; text: string; at: number }
  | { type: "phrase"; text: string; at: number }
  | { type: "or" | "not" | "neg" | "open" | "close"; at: number }
  | { type: "near"; distance: number; at: number };

const SPACE_RE = /\s/u;
const STOP = new Set(["(", ")", '"', "|"]);

/** Characters are counted as code points; `at` is the 1-based position shown in messages. */
export function tokenize(query: string): Token[] {
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

export const describe = (t: Token) =>
  t.type === "word" || t.type === "phrase"
    ? `"${t.text}"`
    : t.type === "near"
      ? `NEAR/${t.distance}`
      : { or: "OR", not: "NOT", neg: '"-"', open: '"("', close: '")"' }[t.type];
