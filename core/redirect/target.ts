import type { LinkRow } from "../../db/schema";
import { memoize } from "../memo";

/**
 * A stored URL as a Location header can carry it: printable ASCII as it is, anything else (an
 * international domain name, a non-Latin path, a tab) serialized by the URL parser (punycode,
 * percent-encoding); a raw non-ASCII header value would make the answer fail.
 */
export function asLocation(url: string): string {
  return /^[\x21-\x7e]*$/.test(url) ? url : new URL(url).href;
}

/** The decoded name of one `name=value` part of a query string. */
function paramName(part: string): string {
  const name = part.split("=", 1)[0]!.replace(/\+/g, " ");
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * `base` as the Location of a visit to `link`: the link's UTM parameters set on it. The target's
 * other query parameters are kept exactly as written (only same-named UTM ones go).
 */
export function withUtm(link: LinkRow, base: string): string {
  if (!link.utmSource && !link.utmMedium && !link.utmCampaign) return asLocation(base);
  const utm = new URLSearchParams();
  if (link.utmSource) utm.set("utm_source", link.utmSource);
  if (link.utmMedium) utm.set("utm_medium", link.utmMedium);
  if (link.utmCampaign) utm.set("utm_campaign", link.utmCampaign);
  const u = new URL(base);
  const query = u.search.slice(1);
  const kept = query ? query.split("&").filter((part) => !utm.has(paramName(part))) : [];
  u.search = [...kept, utm.toString()].join("&");
  return u.href;
}

/** Which per-platform target a User-Agent gets (a cheap check: this runs on every redirect). */
function platformOf(userAgent: string | null): "ios" | "android" | "desktop" | "other" {
  const ua = userAgent ?? "";
  if (/iPhone|iPad|iPod/i.test(ua)) return "ios";
  if (/Android/i.test(ua)) return "android";
  if (/Mobi|Windows Phone|BlackBerry|KaiOS/i.test(ua)) return "other";
  return "desktop";
}

/** platformOf per distinct User-Agent: traffic repeats them, and a lookup costs less than the three scans. */
export const platformOfUa = memoize(platformOf, 5000);

/** Whether the link sends some platform elsewhere than its url (ios_url, android_url or desktop_url set). */
export const hasPlatformTargets = (link: LinkRow): boolean => link.iosUrl !== null || link.androidUrl !== null || link.desktopUrl !== null;

/** The destination for a platform: its own target when set, else the url; UTM parameters set. */
export function targetFor(link: LinkRow, platform: ReturnType<typeof platformOf>): string {
  return withUtm(
    link,
    (platform === "ios" && link.iosUrl) ||
      (platform === "android" && link.androidUrl) ||
      (platform === "desktop" && link.desktopUrl) ||
      link.url,
  );
}
