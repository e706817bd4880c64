/**
 * A problem in the words of the person who meets it, for the bot and the mini-app alike (pure: the
 * mini-app bundles it). A field path of the API (`expires_at`, `variants[2].weight`) becomes the
 * option's name ("the expiry", "variant 3, weight", counted from 1 as the screens count), never a
 * field name or a status code. English keeps core's sentence after the option's name; Russian names
 * the option and says the rule in words (`check-<kind>`), read from core's sentence with its limits
 * ("must be 4 to 128 characters" → "Пароль — от 4 до 128 символов."), so a limit is written once,
 * where core checks it; a sentence it cannot read is said by the error's kind.
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
  "period",
  "format",
  "time_zone",
  "currency",
  "post_url",
  "venue",
  "publish_at",
  "notes",
  "views",
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
  "forbidden_role",
  "personal_workspace",
  "invite_used",
  "invite_expired",
  "invite_revoked",
  "last_owner",
]);

/** A field's message that goes on from its name ("must be in the future", "is empty"), not a sentence of its own. */
const PREDICATE = /^(must|is|are|has|have|should|cannot|can't|does|do|may|needs?|takes?|was|were)\b/;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The rules core's validation states (its sentences after the field's name), each read into a
 * translation key (`check-<kind>`) and the limits it names. Order matters: the first that matches.
 */
const RULES: [RegExp, string, (m: RegExpExecArray, t: Translate) => Record<string, string | number>][] = [
  [/^must be (\d+)(?: to |–)(\d+) characters/, "length", (m) => ({ min: Number(m[1]), max: Number(m[2]) })],
  [/^must be at most (\d+) characters/, "max-length", (m) => ({ max: Number(m[1]) })],
  [/^must be (\d+)–(\d+) letters, digits/, "code-chars", (m) => ({ min: Number(m[1]), max: Number(m[2]) })],
  [/^must be a whole number of days from (\d+) to (\d+)/, "days", (m) => ({ min: Number(m[1]), max: Number(m[2]) })],
  [/^must be a whole number from (\d+) to (\d+)/, "whole-range", (m) => ({ min: Number(m[1]), max: Number(m[2]) })],
  [/^must be (?:from|between) (\d+) (?:to|and) (\d+)/, "whole-range", (m) => ({ min: Number(m[1]), max: Number(m[2]) })],
  [/^must be more than (\d+) and at most (\d+)/, "more-at-most", (m) => ({ min: Number(m[1]), max: Number(m[2]) })],
  [/^must be a positive whole number/, "positive", () => ({})],
  [/^must be (?:a )?whole numbers?$/, "whole", () => ({})],
  [/^must be a number of at least (\d+)/, "at-least", (m) => ({ min: Number(m[1]) })],
  [/^must be at most (\d+) KB/, "max-kb", (m) => ({ max: Number(m[1]) })],
  [/^must (?:be an? (?:absolute )?(?:http\(s\)|http:\/\/ or https:\/\/)? ?URL|use http or https|name a host)/, "url", () => ({})],
  [/^must not contain spaces/, "no-spaces", () => ({})],
  [/^must not contain a user name or password/, "no-credentials", () => ({})],
  [/^must not contain a backslash/, "no-backslash", () => ({})],
  [/^is the service's own host/, "own-host", () => ({})],
  [/^must not be in the future/, "not-future", () => ({})],
  [/^must be in the future/, "future", () => ({})],
  [/^must be (earlier|later) than (\w+)/, "order", (m, t) => ({ order: m[1]!, other: fieldName(m[2]!, t) })],
  [/^must be an ISO 8601 date/, "date", () => ({})],
  [/^must be one of (.+)$/, "one-of", (m) => ({ list: m[1]! })],
  [/^must be (\w+(?:, \w+)*) or (\w+)$/, "one-of", (m) => ({ list: `${m[1]}, ${m[2]}` })],
  [/^must be a valid email address/, "email", () => ({})],
  [/^must be the (\d+)-digit code/, "email-code", (m) => ({ digits: Number(m[1]) })],
  [/^must be an ISO 4217 currency code/, "currency", () => ({})],
  [/^must be a domain name/, "domain", () => ({})],
  [/^must have (\d+) to (\d+) entries/, "entries-range", (m) => ({ min: Number(m[1]), max: Number(m[2]) })],
  [/^must have at most (\d+)/, "entries-max", (m) => ({ max: Number(m[1]) })],
  [/^must contain visible characters/, "visible", () => ({})],
  [/^(?:must not be (?:empty|blank)|is required|is empty)/, "required", () => ({})],
];

/** A field's problem in the reader's words: "Пароль — от 4 до 128 символов."; null when its sentence is not a known rule. */
function ruleInWords(d: { field: string; message: string }, t: Translate): string | null {
  for (const [re, kind, vars] of RULES) {
    const m = re.exec(d.message);
    if (m) return t(`check-${kind}`, { field: capital(fieldName(d.field, t)), ...vars(m, t) });
  }
  return null;
}

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
/** What each plan limit counts, as the English refusal names it (the other languages word it by `plan-limit-what-<key>`). */
const PLAN_LIMIT_WORDS: Record<string, string> = {
  links: "links",
  trackers: "trackers",
  secureFiles: "secure files",
  storageMB: "MB of storage",
  requestStorageMB: "MB sent through request links",
};
/** Their words' keys, named in full (the language files' check sees them used). */
const PLAN_LIMIT_KEYS: Record<string, string> = {
  links: "plan-limit-what-links",
  trackers: "plan-limit-what-trackers",
  secureFiles: "plan-limit-what-secureFiles",
  storageMB: "plan-limit-what-storageMB",
  requestStorageMB: "plan-limit-what-requestStorageMB",
};
const PLAN_LIMIT = /^Your (\S+) plan allows (\d+) (.+); you have (\d+)\./;

/** The refusal of a plan limit, in English: the API's message, which planLimitInWords reads back for other languages. */
export const planLimitMessage = (plan: string, max: number, what: string, current: number) =>
  `Your ${plan} plan allows ${max} ${PLAN_LIMIT_WORDS[what] ?? what}; you have ${current}. Upgrade to add more.`;

/** A plan limit's refusal with its numbers in `t`'s language, or null when the message is not one. */
function planLimitInWords(p: Problem, t: Translate): string | null {
  const m = p.code === "plan_limit" ? PLAN_LIMIT.exec(p.message) : null;
  const what = m && Object.entries(PLAN_LIMIT_WORDS).find(([, words]) => words === m[3])?.[0];
  if (!m || !what) return null;
  return t("problem-plan_limit-of", { plan: m[1]!, max: m[2]!, what: t(PLAN_LIMIT_KEYS[what]!), current: m[4]! });
}

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
  if (p.details?.length)
    return p.details.map((d) => ruleInWords(d, t) ?? t("problem-field", { field: capital(fieldName(d.field, t)) })).join("\n");
  return planLimitInWords(p, t) ?? t(p.code && KINDS.has(p.code) ? `problem-${p.code}` : "problem-other");
}
