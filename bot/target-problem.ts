/**
 * Why a webhook or a postback did not reach its receiver, in the reader's language: from a test's
 * result (its status or failure kind) or from a delivery log's stored error (core/webhooks/deliver.ts
 * writes `HTTP <status>…` or `<kind>: <message>`). Technical codes (ECONNREFUSED) stay, in brackets.
 */
import type { I18nFlavor } from "@grammyjs/i18n";
import type { TargetFailure } from "../core/webhooks/ssrf";

/** Each failure's words, by key (named in full, so the language files' check sees them used). */
const WHY: Record<TargetFailure, string> = {
  status: "target-why-status",
  timeout: "target-why-timeout",
  network: "target-why-network",
  refused: "target-why-refused",
  invalid: "target-why-invalid",
};

/** A system error code inside an English message ("could not be reached (ECONNREFUSED)"), if any. */
const codeIn = (message: string) => /\(([A-Z][A-Z0-9_]{2,})\)/.exec(message)?.[1];

/** A test's failure: the receiver's status, or why it was not reached. */
export function targetProblem(ctx: I18nFlavor, r: { status?: number; kind?: TargetFailure; error?: string }): string {
  if (r.kind === "status" || (r.kind === undefined && r.status !== undefined))
    return ctx.t("target-why-status", { status: String(r.status) });
  const code = codeIn(r.error ?? "");
  return ctx.t(WHY[r.kind ?? "network"], { detail: code ? ` (${code})` : "" });
}

/** A delivery log's stored error, worded the same way; a text of another form is returned as it is. */
export function deliveryProblem(ctx: I18nFlavor, stored: string): string {
  const status = /^HTTP (\d{3})\b/.exec(stored);
  if (status) return ctx.t("target-why-status", { status: status[1]! });
  const kind = /^([a-z]+): (.*)$/s.exec(stored);
  if (kind && Object.hasOwn(WHY, kind[1]!)) return targetProblem(ctx, { kind: kind[1] as TargetFailure, error: kind[2] });
  return stored;
}
