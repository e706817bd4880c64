/**
 * Errors in the words of the person editing: a field path of the API (`expires_at`,
 * `variants[2].weight`) becomes the option's name ("The expiry", "Variant 3's weight", counted from
 * 1 as the screens count), never a field name or a status code.
 */
import type { AppError } from "../core/errors";
import { i18n } from "./i18n";

/** Fields with a name of their own in the language files (`field-<name>`). */
const NAMES = new Set([
  "url",
  "title",
  "code",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "tagIds",
  "tags",
  "starts_at",
  "expires_at",
  "expired_url",
  "max_clicks",
  "password",
  "ios_url",
  "android_url",
  "desktop_url",
  "pixelIds",
  "domain_id",
  "webhook_url",
  "webhook_method",
  "rules",
  "variants",
  "weight",
  "keyword",
  "name",
  "minus_words",
  "include_sources",
  "exclude_sources",
  "filter_geo",
  "filter_language",
  "filter_category",
  "filter_min_subscribers",
  "notify_via",
  "notify_chat_id",
  "email",
  "cost",
  "member_limit",
  "welcome_message",
  "scopes",
  "hostname",
  "pixelId",
  "type",
]);

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** An API field path as the user names it: `rules[0].if.country` → "rule 1, country" (in English unless `t` says otherwise). */
export function fieldName(path: string, t: (key: string) => string = (key) => i18n.t("en", key)): string {
  const name = (token: string) => (NAMES.has(token) ? t(`field-${token}`) : token.replace(/_/g, " "));
  const parts: string[] = [];
  for (const token of path.split(".")) {
    const item = /^(\w+)\[(\d+)\]$/.exec(token);
    if (item)
      parts.push(
        `${item[1] === "rules" ? t("field-rule") : item[1] === "variants" ? t("field-variant") : name(item[1]!)} ${Number(item[2]) + 1}`,
      );
    else if (token !== "if") parts.push(name(token));
  }
  // "the" only where the name starts the sentence: "Rule 1, target URL …"
  for (let i = 1; i < parts.length; i++) parts[i] = parts[i]!.replace(/^the /, "");
  return parts.join(", ");
}

/** A domain error as sentences: each field's problem as "The expiry must be …". */
export function plainProblem(e: AppError): string {
  if (!e.details?.length) return e.message;
  return e.details.map((d) => `${capital(fieldName(d.field))} ${d.message.replace(/[.]?$/, ".")}`).join("\n");
}
