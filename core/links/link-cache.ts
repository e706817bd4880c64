import type { Deps } from "../deps";
import type { LinkRow } from "../../db/schema";
import type { Routing } from "./routing";

/** What the redirect needs about a link, read once and kept briefly in memory. */
export interface CachedLink {
  link: LinkRow;
  pixels: { type: "facebook" | "google" | "tiktok" | "yandex" | "vk"; pixelId: string }[];
  /** the custom domain's hostname, when the link has one */
  host: string | null;
  loadedAt: number;
  /** destinations already worked out, by platform (and `expired` for the expired_url) */
  targets: Partial<Record<string, string>>;
  /** the link's rules and variants, compiled when it is cached (compileRouting); null when it has none */
  routing: Routing | null;
}

/** Entries older than this are read again, which bounds staleness after writes made outside core/links. */
export const LINK_CACHE_TTL_MS = 2000;
export const LINK_CACHE_MAX_ENTRIES = 50_000;
const caches = new WeakMap<object, Map<string, CachedLink>>();
const generations = new WeakMap<object, number>();

/** The hot-path cache of one database, keyed by code. Only found links are cached. */
export function linkCache(deps: Pick<Deps, "db">): Map<string, CachedLink> {
  let c = caches.get(deps.db);
  if (!c) caches.set(deps.db, (c = new Map()));
  return c;
}

/** Call after any write that changes how a link answers (edit, toggle, delete, pixel removal, domain changes). */
export function invalidateLinkCache(deps: Pick<Deps, "db">): void {
  caches.get(deps.db)?.clear();
  generations.set(deps.db, linkCacheGeneration(deps) + 1);
}

/** Bumped by every invalidation, so other memos of the visitor side (custom hosts) can follow. */
export function linkCacheGeneration(deps: Pick<Deps, "db">): number {
  return generations.get(deps.db) ?? 0;
}
