/**
 * The one text normalisation shared by keywords, minus words and message texts, so that what a user
 * types and what a channel posts compare equal: NFKC, lower case (JavaScript's simple case mapping,
 * one code unit to one), ё→е, ς→σ, zero-width characters and soft hyphens removed, and every run of
 * whitespace taken as one space.
 *
 * Keywords are normalised into strings (`normaliseKeyword`). Texts are not rewritten: after NFKC the
 * matcher reads them through the per-code-unit tables below (`FOLD`, `INVISIBLE`, `SPACE`), so match
 * positions stay positions in the text the author wrote.
 */

/** zero-width characters: soft hyphen, joiners, direction marks and controls, variation selectors (emoji ❤️) */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible code point is removed on its own, joiners and selectors included
const INVISIBLE_RE = /[\u00AD\u034F\u061C\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFE00-\uFE0F\uFEFF]/;
const WORD_RE = /[\p{L}\p{N}\p{M}_]/u;

/** code unit → its folded (lower-case, ё→е, ς→σ) code unit */
export const FOLD = new Uint16Array(65536);
/** 1 for zero-width characters and soft hyphens (ignored) */
export const INVISIBLE = new Uint8Array(65536);
/** 1 for whitespace (a run of it counts as one space) */
export const SPACE = new Uint8Array(65536);
/** 1 for letters, digits, marks and underscore (word characters for whole-word matching) */
export const WORD = new Uint8Array(65536);

/** Code points NFKC may join to the one before: combining marks, Hangul medial/final jamo, half-width (semi-)voiced sound marks. */
const JOINS_PREVIOUS = /^[\p{M}\u1160-\u11FF\uD7B0-\uD7FF\uFF9E\uFF9F]$/u;
/** Whether NFKC leaves the code point `ch` alone wherever it stands: it is its own NFKC and joins nothing before it. */
const nfkcStable = (ch: string) => ch.normalize("NFKC") === ch && !JOINS_PREVIOUS.test(ch);
/** 1 for code units (not surrogates) NFKC leaves alone wherever they stand */
const STABLE = new Uint8Array(65536);
/** The same for the pictographs and emoji of U+1F000..U+1FAFF (the astral code points posts are full of). */
const EMOJI_FROM = 0x1f000;
const STABLE_EMOJI = Uint8Array.from({ length: 0xb00 }, (_, k) => (nfkcStable(String.fromCodePoint(EMOJI_FROM + k)) ? 1 : 0));

for (let c = 0; c < 65536; c++) {
  const ch = String.fromCharCode(c);
  const surrogate = c >= 0xd800 && c <= 0xdfff;
  const lower = surrogate ? ch : ch.toLowerCase();
  FOLD[c] = lower.length === 1 ? lower.charCodeAt(0) : c;
  if (!surrogate) {
    INVISIBLE[c] = INVISIBLE_RE.test(ch) ? 1 : 0;
    SPACE[c] = /\s/.test(ch) ? 1 : 0;
    WORD[c] = WORD_RE.test(ch) ? 1 : 0;
    STABLE[c] = nfkcStable(ch) ? 1 : 0;
  }
}
FOLD["ё".charCodeAt(0)] = FOLD["Ё".charCodeAt(0)] = "е".charCodeAt(0);
FOLD["ς".charCodeAt(0)] = "σ".charCodeAt(0);

/**
 * `text.normalize("NFKC")`, skipping the work for the usual text: one where every code point is its
 * own NFKC and none can join the one before it (no combining marks), which NFKC leaves as it is.
 */
export function nfkc(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (STABLE[c]) continue;
    const cp = c >= 0xd800 && c < 0xdc00 ? text.codePointAt(i)! : c;
    if (cp - EMOJI_FROM >= 0 && cp - EMOJI_FROM < STABLE_EMOJI.length && STABLE_EMOJI[cp - EMOJI_FROM]) i++;
    else return text.normalize("NFKC");
  }
  return text;
}

/** Normalises a text or keyword into a string: NFKC, folded, invisibles dropped, whitespace runs → one space. */
export function normalise(text: string): string {
  const s = nfkc(text);
  // most keywords and words are normalised already: returned as they are
  let clean = true;
  for (let i = 0; i < s.length && clean; i++) {
    const c = s.charCodeAt(i);
    clean = FOLD[c] === c && !INVISIBLE[c] && (!SPACE[c] || (c === 32 && s.charCodeAt(i + 1) !== 32 && !SPACE[s.charCodeAt(i + 1)]));
  }
  if (clean) return s;
  let out = "";
  let inSpace = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (INVISIBLE[c]) continue;
    if (SPACE[c]) {
      if (!inSpace) out += " ";
      inSpace = true;
      continue;
    }
    inSpace = false;
    out += String.fromCharCode(FOLD[c]!);
  }
  return out;
}

/** A keyword or minus word as the matcher stores it: normalised and trimmed. */
export function normaliseKeyword(keyword: string): string {
  return normalise(keyword).trim();
}

/**
 * Where, in `s`, the match ending at `end` (exclusive) and `length` normalised units long starts:
 * walks back skipping invisible characters and counting a whitespace run as one unit.
 */
export function matchStart(s: string, end: number, length: number): number {
  let i = end;
  for (let k = length; k > 0; k--) {
    i--;
    while (i > 0 && INVISIBLE[s.charCodeAt(i)]) i--;
    if (SPACE[s.charCodeAt(i)]) while (i > 0 && (SPACE[s.charCodeAt(i - 1)] || INVISIBLE[s.charCodeAt(i - 1)])) i--;
  }
  return i;
}

/** Whether the first visible character from `i` (going by `step`) is a word character; false at either end. */
export function isWordAt(s: string, i: number, step: -1 | 1): boolean {
  while (i >= 0 && i < s.length && INVISIBLE[s.charCodeAt(i)]) i += step;
  if (i < 0 || i >= s.length) return false;
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return WORD[c] === 1;
  const cp = step === -1 && c >= 0xdc00 && i > 0 ? s.codePointAt(i - 1)! : s.codePointAt(i)!;
  return WORD_RE.test(String.fromCodePoint(cp));
}

/** True when `s[start, end)` is not preceded or followed by a letter, digit or mark (Unicode word boundaries). */
export function isWholeWord(s: string, start: number, end: number): boolean {
  return !isWordAt(s, start - 1, -1) && !isWordAt(s, end, 1);
}

/**
 * Maps ranges of `raw.normalize("NFKC")` (where the matcher reports its hits) back to `raw`, so a
 * snippet shows the text as the author wrote it (`ＴＥＬＥＧＲＡＭ`, `…`, `ﬁ`) rather than its
 * normalised form. `raw` is cut before every code point that cannot join the one before it and each
 * piece is normalised alone; a range maps to the pieces it touches. Returns null in the rare case
 * the pieces do not add up to the whole (then the NFKC text is the one to show).
 */
export function nfkcToRaw(raw: string, nfkc: string): ((start: number, end: number) => [number, number]) | null {
  if (raw === nfkc) return (start, end) => [start, end];
  /** per piece: where it starts in raw and in nfkc */
  const rawAt: number[] = [];
  const outAt: number[] = [];
  let out = 0;
  let built = "";
  let pieceStart = 0;
  const close = (end: number) => {
    const piece = raw.slice(pieceStart, end).normalize("NFKC");
    rawAt.push(pieceStart);
    outAt.push(out);
    out += piece.length;
    built += piece;
  };
  for (let i = 0; i < raw.length; ) {
    const cp = raw.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (i > 0 && !JOINS_PREVIOUS.test(String.fromCodePoint(cp))) {
      close(i);
      pieceStart = i;
    }
    i += width;
  }
  close(raw.length);
  if (built !== nfkc) return null;
  rawAt.push(raw.length);
  outAt.push(out);
  /** the piece holding nfkc position `pos` */
  const pieceOf = (pos: number) => {
    let lo = 0;
    let hi = outAt.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (outAt[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return (start, end) => [rawAt[pieceOf(start)]!, end > start ? rawAt[pieceOf(end - 1) + 1]! : rawAt[pieceOf(start)]!];
}
