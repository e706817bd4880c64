/** Why a webhook or a postback did not reach its receiver, in the bot's words (core/i18n/target-failure.ts). */
import type { I18nFlavor } from "@grammyjs/i18n";
import { failureWords, storedFailureWords, type FailureKeys } from "../core/i18n/target-failure";

/** The bot's keys, named in full (the language files' check sees them used). */
const KEYS: FailureKeys = {
  status: "target-why-status",
  timeout: "target-why-timeout",
  timeoutAfter: "target-why-timeout-after",
  network: "target-why-network",
  refused: "target-why-refused",
  invalid: "target-why-invalid",
};

/** A test's failure: the receiver's status, or why it was not reached. */
export const targetProblem = (ctx: I18nFlavor, r: { status?: number; kind?: string; error?: string }) =>
  failureWords((key, vars) => ctx.t(key, vars), KEYS, r);

/** A delivery log's stored error, worded the same way. */
export const deliveryProblem = (ctx: I18nFlavor, stored: string) => storedFailureWords((key, vars) => ctx.t(key, vars), KEYS, stored);
