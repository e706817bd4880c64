/**
 * A domain error in the user's language. English keeps the core's sentences with the option named
 * as the user knows it (bot/plain.ts); Russian names the option and says, by the error's kind, what
 * went wrong, since the core's sentences are English.
 */
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Context } from "grammy";
import { ValidationError, type AppError } from "../core/errors";
import { i18n, localeOf } from "./i18n";
import { fieldName, plainProblem } from "./plain";
import type { UserRow } from "../core/accounts/users";

type Ctx = Context & I18nFlavor & { user?: Pick<UserRow, "language"> };

/** Error kinds that have a sentence of their own in the language files (`problem-<code>`). */
const KINDS = new Set([
  "not_found",
  "plan_limit",
  "rate_limited",
  "forbidden",
  "conflict",
  "gone",
  "too_large",
  "upstream_error",
  "not_configured",
  "invalid_query",
  "chat_not_yours",
]);

/**
 * An answer the bot's own parsers refuse, said by its translation key (options' parsers have no
 * context to translate with); the English text is its message for logs.
 */
export class Refusal extends ValidationError {
  constructor(
    readonly key: string,
    readonly vars?: Record<string, string | number>,
  ) {
    super(i18n.t("en", key, vars));
  }
}

/** Marks a domain error whose message the bot has already written in the user's language. */
export function translated<E extends AppError>(e: E): E {
  return Object.assign(e, { translated: true });
}

export function problemText(ctx: Ctx, e: AppError): string {
  if ((e as { translated?: boolean }).translated) return e.message;
  if (e instanceof Refusal) return ctx.t(e.key, e.vars);
  if (localeOf(ctx) === "en") return plainProblem(e);
  if (e.details?.length) return e.details.map((d) => ctx.t("problem-field", { field: fieldName(d.field, (k) => ctx.t(k)) })).join("\n");
  return ctx.t(KINDS.has(e.code) ? `problem-${e.code}` : "problem-other");
}
