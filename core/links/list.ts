import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Deps } from "../deps";
import { linkTags, links } from "../../db/schema";
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
export function pageOfLinks(deps: Pick<Deps, "db" | "config">, userId: number, query: LinkListQuery = {}): { items: LinkListItem[]; total: number } {
  const tagIds = query.tagIds?.length ? ownedIds(deps, userId, "tagIds", query.tagIds, (_, message) => { throw new FieldError("tags", message); }) : [];
  const where = and(eq(links.userId, userId), tagIds.length ? inArray(links.id, deps.db.select({ id: linkTags.linkId }).from(linkTags).where(inArray(linkTags.tagId, tagIds))) : undefined)!;
  const offset = query.offset ?? 0;
  const end = query.limit === undefined ? undefined : offset + query.limit;
  const needle = query.q?.trim().toLowerCase();
  let ids: number[] | null = null;
  let total: number;
  if (needle) {
    const matching = deps.db
      .select({ id: links.id, title: links.title, url: links.url, code: links.code })
      .from(links)
      .where(where)
      .orderBy(desc(links.id))
      .all()
      .filter((l) => [l.title, l.url, l.code].some((s) => s?.toLowerCase().includes(needle)));
    total = matching.length;
    ids = matching.slice(offset, end).map((l) => l.id);
  } else total = deps.db.select({ n: count() }).from(links).where(where).get()!.n;
  if (ids) return { items: ids.length ? linkItems(deps, inArray(links.id, ids)) : [], total };
  return { items: linkItems(deps, where, { offset, limit: query.limit }), total };
}

/** The user's links as list items, newest first (see pageOfLinks). */
export function listLinks(deps: Pick<Deps, "db" | "config">, userId: number, query: LinkListQuery = {}): LinkListItem[] {
  return pageOfLinks(deps, userId, query).items;
}

function linkItems(deps: Pick<Deps, "db" | "config">, where: SQL, page?: { offset: number; limit?: number }): LinkListItem[] {
  let q = deps.db.select().from(links).where(where).orderBy(desc(links.id)).$dynamic();
  if (page?.limit !== undefined) q = q.limit(page.limit).offset(page.offset);
  else if (page?.offset) q = q.limit(-1).offset(page.offset);
  const rows = q.all();
  const hosts = domainHosts(deps, rows);
  const rel = relationsOf(deps, rows.map((r) => r.id));
  return rows.map((r) => linkListItem(deps, r, hosts.get(r.domainId ?? -1) ?? null, rel.tagIds.get(r.id)!));
}
