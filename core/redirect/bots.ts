import { isbot, isbotMatch } from "isbot";
import { memoize } from "../memo";

/**
 * Link-preview fetchers and crawlers named by the product, matched before isbot's generic list.
 * Secure links treat exactly these (and HEAD) as previews: they never consume a view.
 */
const PREVIEW_FETCHERS: [RegExp, string][] = [
  [/TelegramBot/i, "TelegramBot"],
  [/facebookexternalhit|facebookcatalog|Facebot/i, "facebookexternalhit"],
  [/Twitterbot/i, "Twitterbot"],
  [/Slackbot|Slack-ImgProxy/i, "Slackbot"],
  [/WhatsApp/i, "WhatsApp"],
  [/Googlebot|Google-InspectionTool|AdsBot-Google|Mediapartners-Google/i, "Googlebot"],
  [/bingbot|BingPreview/i, "bingbot"],
  [/LinkedInBot/i, "LinkedInBot"],
  [/Discordbot/i, "Discordbot"],
  [/Applebot/i, "Applebot"],
  [/YandexBot|YandexMetrika|Yandex\w*Bot/i, "YandexBot"],
  [/vkShare|VKRobot/i, "vkShare"],
  [/SkypeUriPreview/i, "SkypeUriPreview"],
  [/Pinterestbot|^Pinterest\/\d/i, "Pinterestbot"], // not "[Pinterest/iOS]": people in the app's browser
  [/redditbot/i, "redditbot"],
  [/^Viber\//i, "Viber"], // the app's own fetcher; its in-app browser starts with Mozilla/ and ends in Viber/x
  [/Snap URL Preview|snapchat_proxy/i, "Snapchat"], // not "Snapchat/12.x": people in the app's browser
  [/Embedly/i, "Embedly"],
];

/** Scripts: bots for click statistics, but people for secure links (someone ran them on purpose). */
const SCRIPT_CLIENTS: [RegExp, string][] = [
  [/curl\//i, "curl"],
  [/python-requests|python-urllib|aiohttp/i, "python"],
];

const NAMED_BOTS = [...PREVIEW_FETCHERS, ...SCRIPT_CLIENTS];

/** The product name when `userAgent` is one of the named link-preview fetchers or crawlers, else null. */
export const previewFetcher = memoize((userAgent: string): string | null => {
  for (const [re, name] of PREVIEW_FETCHERS) if (re.test(userAgent)) return name;
  return null;
});

/**
 * Whether a request is a bot's, and its name. Empty User-Agents and HEAD requests (link checkers)
 * count as bots; known preview fetchers get their product name; other crawlers isbot's match.
 */
export function detectBot(userAgent: string | null | undefined, method = "GET"): { isBot: boolean; name: string | null } {
  const found = botOf(userAgent?.trim() ?? "");
  if (!found.isBot && method === "HEAD") return { isBot: true, name: "HEAD request" };
  return found;
}

const botOf = memoize((ua: string): { isBot: boolean; name: string | null } => {
  for (const [re, name] of NAMED_BOTS) if (re.test(ua)) return { isBot: true, name };
  if (!ua) return { isBot: true, name: "unknown" };
  if (isbot(ua)) return { isBot: true, name: (isbotMatch(ua) ?? "bot").slice(0, 60) };
  return { isBot: false, name: null };
});
