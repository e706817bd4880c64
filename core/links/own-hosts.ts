/**
 * This service's own short-link hosts: SHORT_URL, BASE_URL and the verified custom domains. A
 * link must not send visitors there (it would redirect into itself or another link).
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Deps } from "../deps";

/** The account that verified `hostname` as its custom domain, if any (only one can). */
async function verifiedOwner(deps: Pick<Deps, "asyncDb">, hostname: string): Promise<{ userId: number } | undefined> {
  const { domains } = deps.asyncDb.tables;
  const [owner] = await deps.asyncDb
    .select({ userId: domains.userId })
    .from(domains)
    .where(and(eq(domains.hostname, hostname), isNotNull(domains.verifiedAt)))
    .limit(1);
  return owner;
}

/** A host and port of this service's short links: null port = the scheme's default ports (80 and 443). */
type OwnHost = { hostname: string; port: string | null };

const ownHostOf = (url: string): OwnHost => {
  const u = new URL(url);
  return { hostname: u.hostname, port: u.port || null };
};

/**
 * True when `url` leads to this service's short links: the host of SHORT_URL or BASE_URL (on its
 * port; on either default port when it uses the default one), or a verified custom domain. A link
 * there would redirect to itself or to another of our links (one visit making many clicks).
 */
export async function isServiceUrl(deps: Pick<Deps, "asyncDb" | "config">, url: URL): Promise<boolean> {
  const hostname = url.hostname.replace(/\.$/, "");
  const defaultPort = url.port === "" || url.port === "80" || url.port === "443";
  const own = [ownHostOf(deps.config.shortUrl), ownHostOf(deps.config.baseUrl)];
  if (own.some((h) => h.hostname === hostname && (h.port === null ? defaultPort : url.port === h.port))) return true;
  return defaultPort && !!(await verifiedOwner(deps, hostname));
}
