/**
 * What a Russian reader should not meet: the English file's sentences, and runs of English words
 * outside links, code and @names, in any text, caption, toast, button or inline result of a call.
 */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiCall } from "../bot/unit";

/** The English file's sentences: each value cut at its variables and selectors, pieces of three words or more. */
function englishSentences(): string[] {
  const src = readFileSync(join(import.meta.dir, "..", "..", "locales", "en.ftl"), "utf8");
  const pieces = new Set<string>();
  for (const part of src.replace(/^#.*$/gm, "").split(/\{[^{}]*\}|^[\w-]+\s*=|\n/m))
    for (const piece of part.split(/<[^>]*>/)) {
      const p = piece.trim();
      if (p.split(/\s+/).filter((w) => /^[A-Za-z’']{2,}[,.;:!?]?$/.test(w)).length >= 3) pieces.add(p);
    }
  return [...pieces];
}

/** Everything a call shows a person: text, caption, toast, button labels, inline results. */
function shown(c: ApiCall): string[] {
  const p = c.params;
  const out = [p.text, p.caption].filter((x): x is string => typeof x === "string");
  for (const row of p.reply_markup?.inline_keyboard ?? []) for (const button of row) out.push(button.text);
  for (const r of p.results ?? []) out.push(r.title, r.description, r.input_message_content?.message_text);
  return out.filter(Boolean);
}

/**
 * The first characters of a conversion key as its button shows them (`🚫 pbk_aB-cd…`): random
 * base64url, which can read as two Latin "words" joined by a hyphen; it is an identifier, not English.
 */
const KEY_HINT = /\bpbk_[\w-]+…?/g;

/** Runs of two or more English words outside links, code and @names: what a Russian reader should not meet. */
function englishRuns(text: string): string[] {
  const plain = text
    .replace(KEY_HINT, " ")
    .replace(/<code>[\s\S]*?<\/code>|<[^>]*>/g, " ")
    .replace(/[\w.+-]+@[\w.-]+\.\w+|https?:\/\/\S+|\b[\w.-]+\.(com|org|net|example)\S*|@\w+|\/\w+/g, " ");
  return [...plain.matchAll(/[A-Za-z]{2,}(?:[ ,.'’-]+[A-Za-z]{2,})+/g)]
    .map((m) => m[0])
    .filter((run) => !ALLOWED.test(run) && !SYNTAX.test(run));
}
/** English a Russian screen may carry: the other language's own name, product names, formats. */
const ALLOWED = /^(English|Telegram|UTM \w+|CSV|Excel|PDF|QR|A\/B)$/;
/**
 * The rule language's own words, typed as they are in any language (like commands): its conditions,
 * the platforms and device classes they name, country codes and its verbs.
 */
const SYNTAX =
  /^(?:(?:country|language|os|device|from|to|remove|move|iOS|Android|Windows|macOS|Linux|mobile|tablet|desktop|[A-Z]{2})[ ,.'’-]*)+$/;

/**
 * Single Latin words a Russian screen may carry: proper names (products, platforms, the test's own
 * people and places), formats and units, the rule syntax's words (like commands, typed as they are).
 */
const PROPER =
  /^(Telegram|English|Alice|Chrome|Firefox|Safari|Edge|Opera|Yandex|CSV|XLSX|Excel|PDF|PNG|QR|UTM|API|URL|ID|IP|HTTP|HTTPS|A|B|iPhone|iPad|iOS|Android|Windows|macOS|Linux|UTC|GMT|TGStat|source|medium|campaign|country|language|os|device|from|to|q|mobile|tablet|desktop|[A-Z]{2,3}|[A-Z][a-z]+(?:[A-Z][a-z]+)*Bot)$/;

/** Latin words outside links, code, @names and commands that are not proper names: what the strict check flags. */
function latinWords(text: string): string[] {
  const plain = text
    .replace(KEY_HINT, " ")
    .replace(/<code>[\s\S]*?<\/code>|<[^>]*>|&\w+;/g, " ")
    .replace(/[\w.+-]+@[\w.-]+\.\w+|https?:\/\/\S+|\b[\w.-]+\.(com|org|net|me|example|pdf|txt|csv|xlsx|png)\S*|@\w+|\/\w+/g, " ");
  return [...plain.matchAll(/[A-Za-z]{2,}/g)].map((m) => m[0]).filter((w) => !PROPER.test(w));
}

/** No English a Russian reader would meet; `strict` also flags single Latin words that are no proper names. */
export function expectRussian(calls: ApiCall[], from = 0, strict = false) {
  const english = englishSentences();
  const seen = calls.slice(from).flatMap(shown);
  expect(seen.length).toBeGreaterThan(0);
  const leaks = seen.flatMap((t) =>
    [...english.filter((e) => t.includes(e)), ...englishRuns(t), ...(strict ? latinWords(t) : [])].map((e) => `${e}  ⟵  ${t.slice(0, 80)}`),
  );
  expect(leaks).toEqual([]);
}

/** The cells of a file's rows that hold Latin words other than proper names (export values). */
export function latinCells(rows: string[][]): string[] {
  return rows.flat().filter((cell) => latinWords(cell).length);
}
