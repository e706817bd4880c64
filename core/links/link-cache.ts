import type { LinkRow } from "../../db/schema";
import type { Routing } from "./routing";
import type { Deps } from "../deps";
import { announce, CACHE_TOPICS } from "../cluster/caches";

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

/** Entries older than this are read again, which bounds staleness after writes made outside core/links (and a missed change-bus message). */
export const LINK_CACHE_TTL_MS = 2000;
export const LINK_CACHE_MAX_ENTRIES = 50_000;

/**
 * The redirect's cache of found links by code, one per running service (built by createDeps and
 * passed in Deps). Writes that change how a link answers (edit, toggle, delete, pixel removal,
 * domain changes) call `invalidate`; `generation` counts invalidations, so other memos of the visitor
 * side (custom hosts) can follow.
 */
export interface LinkCache {
  readonly entries: Map<string, CachedLink>;
  readonly generation: number;
  invalidate(): void;
}

export function createLinkCache(): LinkCache {
  const entries = new Map<string, CachedLink>();
  let generation = 0;
  return {
    entries,
    get generation() {
      return generation;
    },
    invalidate() {
      entries.clear();
      generation++;
    },
  };
}

/**
 * Call after any write that changes how a link answers (edit, toggle, delete, pixel removal, domain
 * changes): this node's cache is dropped at once, and every other node's when the change bus
 * delivers the announcement (core/cluster/caches.ts).
 */
export function invalidateLinkCache(deps: Pick<Deps, "linkCache" | "cluster" | "log">): void {
  deps.linkCache.invalidate();
  announce(deps, CACHE_TOPICS.links);
}
