import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, totalRows } from "../../db/async";
import { FieldError } from "../errors";
import { ownedIds } from "./validate";
import { domainHosts, linkListItem, relationsOf, type LinkListItem } from "./views";

export interface LinkListQuery {
  /** only links carrying any of these tags (each must be the user's own: 400 on `tags` otherwise) */
  tagIds?: number[];
  /** case-insensitive substring of the title, the destination URL or the code */
  q?: string;
  /** at most this many items (all when unset), after skipping `offset` */
  limit?: number;
  offset?: number;
}

/**
 * One page of the user's links, newest first (by id, so the order is stable and pages never overlap),
 * with `total`, the number of links matching the filters. Counters come from the link rows.
 * Search folds case in JavaScript (SQLite's LOWER and LIKE fold ASCII only), over the user's own
 * links' titles, URLs and codes; without `q` the database pages.
 */
export async function pageOfLinks(
  deps: Pick<Deps, "asyncDb" | "config">,
  userId: number,
  query: LinkListQuery = {},
): Promise<{ items: LinkListItem[]; total: number }> {
  const tagIds = query.tagIds?.length
    ? await ownedIds(deps, userId, "tagIds", query.tagIds, (_, message) => {
        throw new FieldError("tags", message);
      })
    : [];
  const db = deps.asyncDb;
  const { links, linkTags } = db.tables;
  const where = and(
    eq(links.userId, userId),
    tagIds.length ? inArray(links.id, db.select({ id: linkTags.linkId }).from(linkTags).where(inArray(linkTags.tagId, tagIds))) : undefined,
  )!;
  const offset = query.offset ?? 0;
  const end = query.limit === undefined ? undefined : offset + query.limit;
  const needle = query.q?.trim().toLowerCase();
  if (needle) {
    const matching = (
      await db
        .select({ id: links.id, title: links.title, url: links.url, code: links.code })
        .from(links)
        .where(where)
        .orderBy(desc(links.id))
    ).filter((l) => [l.title, l.url, l.code].some((s) => s?.toLowerCase().includes(needle)));
    const ids = matching.slice(offset, end).map((l) => l.id);
    return { items: ids.length ? (await linkItems(deps, inArray(links.id, ids))).items : [], total: matching.length };
  }
  const page = await linkItems(deps, where, { offset, limit: query.limit });
  return { items: page.items, total: page.total ?? Number(first(await db.select({ n: count() }).from(links).where(where))!.n) };
}

/** The user's links as list items, newest first (see pageOfLinks). */
export async function listLinks(
  deps: Pick<Deps, "asyncDb" | "config">,
  userId: number,
  query: LinkListQuery = {},
): Promise<LinkListItem[]> {
  return (await pageOfLinks(deps, userId, query)).items;
}

/** The links matching `where`, with their total before paging when the page has any (read in the same statement). */
async function linkItems(
  deps: Pick<Deps, "asyncDb" | "config">,
  where: SQL,
  page?: { offset: number; limit?: number },
): Promise<{ items: LinkListItem[]; total?: number }> {
  const db = deps.asyncDb;
  const { links } = db.tables;
  let q = db.select({ link: links, total: totalRows() }).from(links).where(where).orderBy(desc(links.id)).$dynamic();
  if (page?.limit !== undefined) q = q.limit(page.limit).offset(page.offset);
  // an offset alone: SQLite takes OFFSET only after a LIMIT, so the limit is "all there can be" on both databases
  else if (page?.offset) q = q.limit(Number.MAX_SAFE_INTEGER).offset(page.offset);
  const found = await q;
  const rows = found.map((r) => r.link);
  const hosts = await domainHosts(deps, rows);
  const rel = await relationsOf(
    deps,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => linkListItem(deps, r, hosts.get(r.domainId ?? -1) ?? null, rel.tagIds.get(r.id)!)),
    total: found[0]?.total,
  };
}
