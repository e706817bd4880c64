/**
 * Finding the URL in what a person sent: a link entity Telegram marked (also inside other text, and
 * text links), a message that is one URL, or a bare domain (`example.com/x`, https:// assumed).
 * What cannot be a target gets a clear reason instead.
 */
import type { Message } from "grammy/types";
import type { Deps } from "../core/deps";
import { MAX_URL_LENGTH, urlProblem } from "../core/links/validate";
import { isServiceUrl } from "../core/links/own-hosts";
import type { Said } from "./i18n";

/**
 * `service` is set when the URL is one of this service's own (a short, share or request link): not a
 * target, but maybe the reader's own object. `cutAt` is set when the message goes on right after the
 * URL on its line (`https://example.com/a b`): Telegram ends the link at the space, and the person
 * is told so rather than getting a link to `/a` without a word.
 */
export type UrlReading = { url: string; cutAt?: string } | { problem: Said; service?: URL } | null;

const BARE = /^(?:www\.)?[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?::\d+)?(?:[/?#]\S*)?$/u;

/** The text as a URL: null when it does not look like one at all, a reason when it cannot be a target. */
export async function readUrl(raw: string, deps: Pick<Deps, "asyncDb" | "config">): Promise<UrlReading> {
  const text = raw.trim();
  if (!text) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  const looksLikeUrl = scheme === "http" || scheme === "https" || (!scheme && BARE.test(text.split(/\s/)[0]!));
  if (!looksLikeUrl) {
    if (scheme && /^(ftp|file|mailto|javascript|data|tg|tel)$/.test(scheme)) return { problem: { key: "url-scheme", vars: { scheme } } };
    return null;
  }
  if (/\s/.test(text)) return { problem: { key: "url-spaces" } };
  if (text.length > MAX_URL_LENGTH) return { problem: { key: "url-too-long", vars: { length: text.length, max: MAX_URL_LENGTH } } };
  const url = scheme ? text : `https://${text}`;
  // the same check as the API's, which also refuses this service's own short links
  const problem = await urlProblem(deps, url);
  if (problem) {
    const reading = { problem: { key: "url-not-target", vars: { reason: problem } } };
    return URL.canParse(url) && (await isServiceUrl(deps, new URL(url))) ? { ...reading, service: new URL(url) } : reading;
  }
  return { url };
}

/** The URL in a message: the first link entity (plain or text link), else the whole text read as a URL. */
export async function urlInMessage(msg: Pick<Message, "text" | "entities">, deps: Pick<Deps, "asyncDb" | "config">): Promise<UrlReading> {
  const text = msg.text ?? "";
  for (const e of msg.entities ?? []) {
    if (e.type === "text_link") return readUrl(e.url, deps);
    if (e.type === "url") {
      const written = text.slice(e.offset, e.offset + e.length);
      const reading = await readUrl(written, deps);
      const rest = text.slice(e.offset + e.length).split("\n")[0]!;
      const startsLine = !text.slice(0, e.offset).split("\n").at(-1)!.trim();
      return reading && "url" in reading && startsLine && /^ \S/.test(rest) ? { ...reading, cutAt: written } : reading;
    }
  }
  return readUrl(text, deps);
}
