import { and, eq, isNotNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { isDatabaseUnavailable } from "../../db/unavailable";
import type { CachedLink, LinkCache } from "./link-cache";
import { compileRouting } from "./routing";
import { LinkMacros, linkHasMacros } from "./macros";

/** While the database cannot be reached, how long a cached link is served as it was before it is tried again. */
const STALE_RETRY_MS = 1000;

/**
 * Reads the link of a code for the link cache: the row, its pixels, its verified custom host, its
 * routing and macros compiled once, and (when a target names `{placement_id}`) its placement.
 */
export function linkLoader(deps: Pick<Deps, "asyncDb" | "geo">) {
  const db = deps.asyncDb;
  const { domains, linkPixels, links, pixels, placementLinks } = db.tables;
  return async function read(code: string): Promise<CachedLink | null> {
    const [link] = await db.select().from(links).where(eq(links.code, code)).limit(1);
    if (!link) return null;
    const macros = linkHasMacros(link) ? new LinkMacros(link) : null;
    return {
      link,
      pixels: await db
        .select({ type: pixels.type, pixelId: pixels.pixelId })
        .from(linkPixels)
        .innerJoin(pixels, eq(pixels.id, linkPixels.pixelId))
        .where(eq(linkPixels.linkId, link.id))
        .orderBy(pixels.id),
      // a link on a custom domain is served there only once the domain is verified (else: 404 page)
      host:
        link.domainId === null
          ? null
          : ((
              await db
                .select({ hostname: domains.hostname })
                .from(domains)
                .where(and(eq(domains.id, link.domainId), isNotNull(domains.verifiedAt)))
                .limit(1)
            )[0]?.hostname ?? null),
      targets: {},
      routing: compileRouting(deps.geo, macros?.link ?? link),
      macros,
      placementId: macros?.uses.has("placement_id")
        ? ((await db.select({ id: placementLinks.placementId }).from(placementLinks).where(eq(placementLinks.linkId, link.id)).limit(1))[0]
            ?.id ?? null)
        : null,
    };
  };
}

/**
 * A link whose cached entry could not be read again because the database is out of reach keeps
 * redirecting as it did (tried again every STALE_RETRY_MS); any other failure, or a link never
 * cached, fails the request (503 at the edge when the database is out of reach).
 */
export function staleOnOutage(cache: LinkCache, code: string, e: unknown): CachedLink {
  const stale = isDatabaseUnavailable(e) ? cache.stale(code, STALE_RETRY_MS) : undefined;
  if (!stale) throw e;
  return stale;
}
