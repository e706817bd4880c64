import { randomBytes } from "node:crypto";

/**
 * Click ids: `<link id in base 36>_<process prefix><counter in base 36, 8 digits>`. URL-safe and at
 * most 24 characters (link ids below 36^8, and the prefix drawn again before the counter reaches
 * 36^8), made with no randomness per click: the prefix is 7 random base64url characters (42 bits)
 * drawn when the process starts, so two nodes or two runs of one node do not share it, and the
 * counter numbers the clicks after it. The link id in front lets a conversion find its link even
 * while the click is still on its way to the database. The counter has all its digits (leading
 * zeros) so that a link's ids from one process sort in the order they were made: each new one goes
 * to the end of its run in the click_id index, not between older ones (the writer's INSERT took
 * about 0.5 µs less per click so).
 */
const PREFIX_CHARS = 7;
const COUNTER_DIGITS = 8;
const COUNTER_MAX = 36 ** COUNTER_DIGITS;

let prefix = newPrefix();
let counter = 0;

function newPrefix(): string {
  return randomBytes(6).toString("base64url").slice(0, PREFIX_CHARS);
}

/**
 * A click id in parts, as the redirect takes it: the process's prefix and the click's number under
 * it. The click sink, the journal and the batch for the writer keep these (a number, and a prefix
 * that every click of the process shares), and the writer makes the string (clickIdOf): a link
 * whose target has no `{click_id}` never builds one on the request thread.
 */
export interface ClickNo {
  clickPrefix: string;
  clickNo: number;
}

/** The next click's number; its prefix is clickPrefix() until the next call (no object per click). */
export function nextClickNo(): number {
  if (counter >= COUNTER_MAX) [prefix, counter] = [newPrefix(), 0];
  return counter++;
}

/** The prefix of the number nextClickNo last gave. */
export const clickPrefix = (): string => prefix;

/** What the click ids of link `linkId` under `prefix` start with (a writer makes it once per link and prefix of a batch). */
export const clickIdHead = (linkId: number, clickPrefix: string): string => `${linkId.toString(36)}_${clickPrefix}`;

/** The click id whose head (clickIdHead) is `head` and whose number is `n`. */
export const clickIdAfter = (head: string, n: number): string => head + n.toString(36).padStart(COUNTER_DIGITS, "0");

/** The click id of link `linkId`'s click numbered `n` under `prefix`. */
export const clickIdOf = (linkId: number, clickPrefix: string, n: number): string => clickIdAfter(clickIdHead(linkId, clickPrefix), n);

/** The id as clickIdOf spelled it before the counter was padded: journal version 6's clicks were sent with it. */
export const unpaddedClickIdOf = (linkId: number, clickPrefix: string, n: number): string =>
  `${linkId.toString(36)}_${clickPrefix}${n.toString(36)}`;

/** A new click id for a click on link `linkId`. */
export function newClickId(linkId: number): string {
  const n = nextClickNo();
  return clickIdOf(linkId, prefix, n);
}

/** Link `linkId`'s click id made by clickIdOf, back in parts (null for any other string). */
export function splitClickId(linkId: number, clickId: string): ClickNo | null {
  const cut = clickId.indexOf("_");
  if (cut < 1) return null;
  const clickPrefix = clickId.slice(cut + 1, cut + 1 + PREFIX_CHARS);
  const digits = clickId.slice(cut + 1 + PREFIX_CHARS);
  if (clickPrefix.length !== PREFIX_CHARS || !/^[0-9a-z]{1,8}$/.test(digits)) return null;
  const clickNo = Number.parseInt(digits, 36);
  // only the canonical spelling of this link's id: made again, it must give the same string
  return clickIdOf(linkId, clickPrefix, clickNo) === clickId ? { clickPrefix, clickNo } : null;
}

/** The link a click id names, or null when it is not a click id of this service. */
export function linkOfClickId(clickId: string): number | null {
  const m = /^([0-9a-z]{1,11})_[A-Za-z0-9_-]{8,}$/.exec(clickId);
  if (!m || clickId.length > 24) return null;
  const id = Number.parseInt(m[1]!, 36);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const NO_PARAMS = new Map<string, string>();

/** A query string's parameters (the first value of each name), decoded as forms are; most visits have none. */
export function queryParams(query: string): Map<string, string> {
  if (!query) return NO_PARAMS;
  const out = new Map<string, string>();
  for (const part of query.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const [k, v] = [decode(eq < 0 ? part : part.slice(0, eq)), eq < 0 ? "" : decode(part.slice(eq + 1))];
    if (!out.has(k)) out.set(k, v);
  }
  return out;
}

function decode(s: string): string {
  const plain = s.replace(/\+/g, " ");
  try {
    return decodeURIComponent(plain);
  } catch {
    return plain;
  }
}

/** The query parameters of a short link kept with its click, in PendingClick.params order. */
const CLICK_PARAMS = ["sub1", "sub2", "sub3", "sub4", "sub5", "fbclid"] as const;
export type ClickParam = (typeof CLICK_PARAMS)[number];
/** The longest value kept per parameter. */
const MAX_PARAM = 255;

/** sub1…sub5 and fbclid of a parsed query, joined by `\n` (PendingClick.params); null when none is there. */
export function clickParams(query: ReadonlyMap<string, string>): string | null {
  let any = false;
  const values = CLICK_PARAMS.map((name) => {
    const v = query.get(name);
    if (!v) return "";
    any = true;
    return v.replace(/\n/g, " ").slice(0, MAX_PARAM);
  });
  return any ? values.join("\n") : null;
}

/** sub1…sub5 and fbclid of a short link's raw query string (PendingClick.query), as PendingClick.params holds them. */
export const clickParamsOfQuery = (query: string): string | null => clickParams(queryParams(query));

/** No parameter set: what paramsOf gives a click without any (one object, not one per click). */
const NO_CLICK_PARAMS: Readonly<Record<ClickParam, string | null>> = Object.freeze(
  Object.fromEntries(CLICK_PARAMS.map((name) => [name, null])) as Record<ClickParam, string | null>,
);

/** PendingClick.params read back: each parameter's value, null when absent. */
export function paramsOf(params: string | null | undefined): Readonly<Record<ClickParam, string | null>> {
  if (!params) return NO_CLICK_PARAMS;
  const parts = params.split("\n");
  return Object.fromEntries(CLICK_PARAMS.map((name, i) => [name, parts[i] || null])) as Record<ClickParam, string | null>;
}
