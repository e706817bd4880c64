/**
 * Why a webhook or a postback did not reach its receiver, in the reader's words, for the bot and the
 * mini-app alike: from a test's result (its status or failure kind, with the English `error`) or from
 * a delivery log's stored error (core/webhooks/deliver.ts writes `HTTP <status>…` or
 * `<kind>: <message>`). A system code (ECONNREFUSED) stays, in brackets; a timeout says its deadline.
 * Each side passes its own keys (the bot's `target-why-*`, the mini-app's `app-target-why-*`).
 */
import type { Translate } from "./problem";
/** Why a delivery did not succeed: the target answered a status outside 2xx, or a target error's kind (core/webhooks/ssrf.ts). */
export type FailureKind = "status" | "timeout" | "network" | "refused" | "invalid";
export type FailureKeys = Record<FailureKind | "timeoutAfter", string>;

const KINDS = new Set<string>(["status", "timeout", "network", "refused", "invalid"]);

/** A test's failure: the receiver's status, or why it was not reached. */
export function failureWords(t: Translate, keys: FailureKeys, r: { status?: number; kind?: string; error?: string }): string {
  const kind = r.kind !== undefined && KINDS.has(r.kind) ? (r.kind as FailureKind) : r.status !== undefined ? "status" : "network";
  if (kind === "status") return t(keys.status, { status: String(r.status ?? "") });
  const seconds = kind === "timeout" ? /within ([\d.]+) s/.exec(r.error ?? "")?.[1] : undefined;
  if (seconds) return t(keys.timeoutAfter, { seconds: Number(seconds) });
  const code = /\(([A-Z][A-Z0-9_]{2,})\)/.exec(r.error ?? "")?.[1];
  return t(keys[kind], { detail: code ? ` (${code})` : "" });
}

/** A delivery log's stored error in words; a text of another form is returned as it is. */
export function storedFailureWords(t: Translate, keys: FailureKeys, stored: string): string {
  const status = /^HTTP (\d{3})\b/.exec(stored);
  if (status) return t(keys.status, { status: status[1]! });
  const kind = /^([a-z]+): (.*)$/s.exec(stored);
  if (kind && KINDS.has(kind[1]!)) return failureWords(t, keys, { kind: kind[1], error: kind[2] });
  return stored;
}
