/**
 * When two target URLs are the same link: the bulk import refuses the second, and the bot offers the
 * existing link before making another.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
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
 * The loose keys the database can compute too (`lower(rtrim(url, '/'))`), to find the user's links
 * that may be duplicates without reading them all: they catch another case and a trailing slash,
 * not a default port or another percent-encoding of a stored link. Two of them, because the two
 * databases lower case differently: SQLite's `lower` folds ASCII letters only (`Привет` stays),
 * PostgreSQL's every letter; a URL is looked up under both.
 */
export const looseKeys = (url: string): string[] => {
  const bare = url.replace(/\/+$/, "");
  const ascii = bare.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  const all = bare.toLowerCase();
  return ascii === all ? [all] : [ascii, all];
};

/** The user's newest link to the same URL as `url` (sameUrlKey), or null. */
export async function ownLinkTo(deps: Pick<Deps, "asyncDb">, userId: number, url: string): Promise<LinkRow | null> {
  const { links } = deps.asyncDb.tables;
  const candidates = await deps.asyncDb
    .select()
    .from(links)
    .where(and(eq(links.userId, userId), inArray(sql`lower(rtrim(${links.url}, '/'))`, looseKeys(url))))
    .orderBy(desc(links.id));
  const key = sameUrlKey(url);
  return candidates.find((l) => sameUrlKey(l.url) === key) ?? null;
}
