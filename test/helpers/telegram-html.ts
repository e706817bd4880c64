/**
 * Telegram's reading of a text sent with parse_mode HTML, as its server reads it: the supported tags
 * are dropped, `&lt;` `&gt;` `&amp;` `&quot;` and numeric references are decoded, and a `&` that
 * starts none of them stays as typed. Any other tag, an unclosed or unmatched one, or a `<` that opens
 * no tag is refused with the description Telegram answers ("can't parse entities: …").
 */

const TAGS = new Set([
  "a",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "span",
  "tg-spoiler",
  "tg-emoji",
  "code",
  "pre",
  "blockquote",
]);

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** The entity at `at` (which is a `&`) decoded, with its length; null when it is none (the `&` is then text). */
function entityAt(html: string, at: number): [string, number] | null {
  const m = /^&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});/.exec(html.slice(at, at + 12));
  if (!m) return null;
  const name = m[1]!;
  const code = name.startsWith("#x") ? Number.parseInt(name.slice(2), 16) : name.startsWith("#") ? Number(name.slice(1)) : null;
  if (code !== null) return code > 0 && code <= 0x10ffff ? [String.fromCodePoint(code), m[0].length] : null;
  const named = NAMED[name];
  return named ? [named, m[0].length] : null;
}

/** The text a person sees of `html`, or Telegram's refusal of it. */
export function readHtml(html: string): { text: string } | { refusal: string } {
  const refuse = (why: string) => ({ refusal: `Bad Request: can't parse entities: ${why}` });
  const open: string[] = [];
  let text = "";
  let i = 0;
  while (i < html.length) {
    const ch = html[i]!;
    if (ch === "&") {
      const entity = entityAt(html, i);
      if (entity) {
        text += entity[0];
        i += entity[1];
      } else {
        text += ch;
        i++;
      }
      continue;
    }
    if (ch !== "<") {
      text += ch;
      i++;
      continue;
    }
    // as Telegram reads a tag: its name runs to a space or `>`, the rest up to `>` is attributes
    const offset = Buffer.byteLength(html.slice(0, i));
    const end = html.indexOf(">", i);
    if (end === -1) return refuse(`Unclosed start tag at byte offset ${offset}`);
    const inside = html.slice(i + 1, end);
    if (inside.startsWith("/")) {
      const name = inside.slice(1).trim().toLowerCase();
      const expected = open.pop();
      if (!expected) return refuse(`Unexpected end tag at byte offset ${offset}`);
      if (name !== expected) return refuse(`Unmatched end tag at byte offset ${offset}, expected "</${expected}>", found "</${name}>"`);
    } else {
      const name = /^[^\s>]*/.exec(inside)![0].toLowerCase();
      if (!TAGS.has(name)) return refuse(`Unsupported start tag "${name}" at byte offset ${offset}`);
      open.push(name);
    }
    i = end + 1;
  }
  const unclosed = open.pop();
  if (unclosed) return refuse(`Can't find end tag corresponding to start tag "${unclosed}"`);
  return { text };
}
