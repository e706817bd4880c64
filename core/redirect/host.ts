import type { Config } from "../../config";
import { memoize } from "../memo";
import { isLoopback } from "../links/url";
import type { CachedLink } from "./link-cache";

/** "go.example.com." is the same name as "go.example.com" (DNS's root dot): it must not be another host. */
export const hostnameOf = memoize((host: string) => host.replace(/:\d+$/, "").replace(/\.+$/, "").toLowerCase(), 1000);

/** Whether a cached link is served on a request's Host. */
export function hostCheck(config: Pick<Config, "shortUrl" | "baseUrl">) {
  const ownHosts = new Set([config.shortUrl, config.baseUrl].map((u) => new URL(u).hostname));
  return function hostMatches(entry: CachedLink, host: string | null): boolean {
    const h = hostnameOf(host ?? "");
    if (entry.link.domainId !== null) return entry.host === h;
    // a default link answers on the service's own hosts (SHORT_URL's and BASE_URL's, an address
    // when one of them is an address) and on loopback (this machine's own checks and tests); any
    // other name or address, a custom domain, a stranger's DNS record or the server's public
    // address (a link to it would loop through the service), serves none of them
    return !h || ownHosts.has(h) || isLoopback(h);
  };
}
