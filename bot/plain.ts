/**
 * Errors in the words of the person editing: a field path of the API (`expires_at`,
 * `variants[2].weight`) becomes the option's name ("The expiry", "Variant 3's weight", counted from
 * 1 as the screens count), never a field name or a status code.
 */
import type { AppError } from "../core/errors";

const NAMES: Record<string, string> = {
  url: "the target URL",
  title: "the title",
  code: "the short code",
  utm_source: "the UTM source",
  utm_medium: "the UTM medium",
  utm_campaign: "the UTM campaign",
  tagIds: "the tags",
  tags: "the tags",
  starts_at: "the start",
  expires_at: "the expiry",
  expired_url: "the after-expiry URL",
  max_clicks: "the click cap",
  password: "the password",
  ios_url: "the iPhone and iPad target",
  android_url: "the Android target",
  desktop_url: "the desktop target",
  pixelIds: "the pixels",
  domain_id: "the domain",
  webhook_url: "the webhook URL",
  webhook_method: "the webhook method",
  rules: "the rules",
  variants: "the A/B split",
  weight: "weight",
  keyword: "the keyword",
  name: "the name",
  minus_words: "the minus words",
  include_sources: "the sources to watch",
  exclude_sources: "the sources to skip",
  filter_geo: "the country",
  filter_language: "the language",
  filter_category: "the category",
  filter_min_subscribers: "the minimum of subscribers",
  notify_via: "where I notify you",
  notify_chat_id: "the chat for notifications",
  email: "the email address",
  cost: "the price",
  member_limit: "the member limit",
  welcome_message: "the welcome message",
  scopes: "the permissions",
  hostname: "the domain name",
  pixelId: "the pixel id",
  type: "the type",
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** An API field path as the user names it: `rules[0].if.country` → "rule 1, country". */
export function fieldName(path: string): string {
  const parts: string[] = [];
  for (const token of path.split(".")) {
    const item = /^(\w+)\[(\d+)\]$/.exec(token);
    if (item) parts.push(`${item[1] === "rules" ? "rule" : item[1] === "variants" ? "variant" : (NAMES[item[1]!] ?? item[1]!)} ${Number(item[2]) + 1}`);
    else if (token !== "if") parts.push(NAMES[token] ?? token.replace(/_/g, " "));
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
