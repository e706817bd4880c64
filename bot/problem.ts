/**
 * A domain error in the user's language, worded by core/i18n/problem.ts (the mini-app words the
 * API's errors with the same rule); the bot's own refusals by their translation key.
 */
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Context } from "grammy";
import { ValidationError, type AppError } from "../core/errors";
import { i18n, localeOf } from "./i18n";
import { problemInWords } from "../core/i18n/problem";
import type { UserRow } from "../core/accounts/users";

type Ctx = Context & I18nFlavor & { user?: Pick<UserRow, "language"> };

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
  return problemInWords(localeOf(ctx), e, (key, vars) => ctx.t(key, vars));
}
