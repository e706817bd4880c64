/**
 * When two target URLs are the same link: the bulk import refuses the second, and the bot offers the
 * existing link before making another.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { LinkRow } from "../../db/schema";

/**
 * Two urls are duplicates when they are the same URL once parsed: scheme and host in any case, a
 * default port, an empty path and "/" all compare equal; the path, query and fragment as written.
 */
export function sameUrlKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/**
 * The loose key SQLite can compute too (`lower(rtrim(url, '/'))`), to find the user's links that
 * may be duplicates without reading them all: it catches another case and a trailing slash, not
 * a default port or another percent-encoding of a stored link.
 */
export const looseKey = (url: string) => url.replace(/\/+$/, "").toLowerCase();

/** The user's newest link to the same URL as `url` (sameUrlKey), or null. */
export async function ownLinkTo(deps: Pick<Deps, "asyncDb">, userId: number, url: string): Promise<LinkRow | null> {
  const { links } = deps.asyncDb.tables;
  const candidates = await deps.asyncDb
    .select()
    .from(links)
    .where(and(eq(links.userId, userId), eq(sql`lower(rtrim(${links.url}, '/'))`, looseKey(url))))
    .orderBy(desc(links.id));
  const key = sameUrlKey(url);
  return candidates.find((l) => sameUrlKey(l.url) === key) ?? null;
}
