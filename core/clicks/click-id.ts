import { randomBytes } from "node:crypto";

/**
 * Click ids: `<link id in base 36>_<process prefix><counter in base 36>`. URL-safe and at most 24
 * characters (link ids below 36^8, and the prefix drawn again before the counter reaches 36^8), made
 * with no randomness per click: the prefix is 7 random base64url characters (42 bits) drawn when the
 * process starts, so two nodes or two runs of one node do not share it, and the counter numbers the
 * clicks after it. The link id in front lets a conversion find its link even while the click is still
 * on its way to the database.
 */
const PREFIX_CHARS = 7;
const COUNTER_MAX = 36 ** 8;

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

/** The click id of link `linkId`'s click numbered `n` under `prefix`. */
export const clickIdOf = (linkId: number, clickPrefix: string, n: number): string =>
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

/** PendingClick.params read back: each parameter's value, null when absent. */
export function paramsOf(params: string | null | undefined): Record<ClickParam, string | null> {
  const parts = params ? params.split("\n") : [];
  return Object.fromEntries(CLICK_PARAMS.map((name, i) => [name, parts[i] || null])) as Record<ClickParam, string | null>;
}
