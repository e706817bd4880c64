/**
 * A postback's URL template checked as soon as it is typed (the bot asks for it before the events),
 * with what is wrong in a form each front end words in its reader's language: not an absolute
 * http(s) URL, too long, or a `{name}` that is no macro (a typo such as `{clickid}` would otherwise
 * go out as it is). The macros are exactly those `expandPostbackUrl` fills.
 */
import { expandPostbackUrl, postbackValues } from "./send";
import { noFacts } from "./events";

/** The longest postback URL template. */
export const MAX_POSTBACK_URL = 2048;

/** What is wrong with a URL template. */
export type TemplateProblem = { kind: "not_http" } | { kind: "too_long"; max: number } | { kind: "unknown_macro"; name: string };

/** Whether `{name}` is a macro of postback URLs (the sender replaces it). */
const isMacro = (name: string) => expandPostbackUrl(`{${name}}`, {}) === "";

/** The macros a postback URL may hold, in the order the sender knows them. */
export const POSTBACK_MACROS: readonly string[] = Object.keys(postbackValues(noFacts("", new Date(0)), null)).filter(isMacro);

/** What is wrong with `template` as a postback URL, or null when it can be saved. */
export function postbackTemplateProblem(template: string): TemplateProblem | null {
  const url = template.trim();
  if (url.length > MAX_POSTBACK_URL) return { kind: "too_long", max: MAX_POSTBACK_URL };
  const unknown = [...url.matchAll(/\{([^{}]*)\}/g)].find((m) => !isMacro(m[1]!));
  if (unknown) return { kind: "unknown_macro", name: unknown[1]! };
  try {
    // the macros stand for values; what is around them must be an absolute http(s) URL
    if (/^https?:$/.test(new URL(expandPostbackUrl(url, {})).protocol)) return null;
  } catch {}
  return { kind: "not_http" };
}
