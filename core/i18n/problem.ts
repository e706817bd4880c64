/**
 * A problem in the words of the person who meets it, for the bot and the mini-app alike (pure: the
 * mini-app bundles it). A field path of the API (`expires_at`, `variants[2].weight`) becomes the
 * option's name ("the expiry", "variant 3, weight", counted from 1 as the screens count), never a
 * field name or a status code. English keeps core's sentence after the option's name; Russian names
 * the option and says, by the error's kind, what went wrong, since core's sentences are English.
 */
import type { Language } from "./language";

/** Translates a key of the language files in the reader's language. */
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** What a problem carries: its kind (the API's `error`), core's English sentence, and the fields it names. */
export interface Problem {
  code?: string;
  message: string;
  details?: readonly { field: string; message: string }[];
}

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
  "not_chat_admin",
  "no_invite_right",
  "rights_unconfirmed",
]);

/** A field's message that goes on from its name ("must be in the future", "is empty"), not a sentence of its own. */
const PREDICATE = /^(must|is|are|has|have|should|cannot|can't|does|do|may|needs?|takes?|was|were)\b/;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** An API field path as the user names it: `rules[0].if.country` → "rule 1, country". */
export function fieldName(path: string, t: Translate): string {
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

/**
 * The problem as the reader should see it: in English each field's problem as "The expiry must be …"
 * (or core's sentence when it names no field); in another language each field named with
 * `problem-field`, else the kind's sentence (`problem-<code>`, `problem-other` for the rest).
 */
export function problemInWords(language: Language, p: Problem, t: Translate): string {
  if (language === "en") {
    if (!p.details?.length) return p.message;
    return p.details
      .map((d) => {
        const said = d.message.replace(/[.]?$/, ".");
        // "must be …", "is empty": the option's name begins the sentence; a sentence of its own follows it
        return PREDICATE.test(said) ? `${capital(fieldName(d.field, t))} ${said}` : `${capital(fieldName(d.field, t))}: ${said}`;
      })
      .join("\n");
  }
  if (p.details?.length) return p.details.map((d) => t("problem-field", { field: fieldName(d.field, t) })).join("\n");
  return t(p.code && KINDS.has(p.code) ? `problem-${p.code}` : "problem-other");
}
