import type { LinkRow } from "../../db/schema";
import type { Routing } from "./routing";
import type { LinkMacros } from "./macros";
import type { Clock } from "../clock";
import type { PixelType } from "../catalog/pixels";

/** What the redirect needs about a link, read once and kept briefly in memory. */
export interface CachedLink {
  link: LinkRow;
  pixels: { type: PixelType; pixelId: string }[];
  /** the custom domain's hostname, when the link has one */
  host: string | null;
  /** destinations already worked out, by platform (and `expired` for the expired_url) */
  targets: Partial<Record<string, string>>;
  /** the link's rules and variants, compiled when it is cached (compileRouting); null when it has none */
  routing: Routing | null;
  /** the link's macros, compiled when it is cached; absent when its targets hold none (they pay nothing then) */
  macros?: LinkMacros | null;
  /** the placement the link counts for, read when cached only if a target names `{placement_id}` */
  placementId?: number | null;
}

/** Entries older than this are read again, which bounds staleness after writes made outside core/links (and a missed change-bus message). */
export const LINK_CACHE_TTL_MS = 2000;
const LINK_CACHE_MAX_ENTRIES = 50_000;

/**
 * The redirect's cache of found links by code, one per running service (built by createDeps and
 * passed in Deps), timed by the service's clock.
 *
 * - `get` answers a fresh entry (younger than LINK_CACHE_TTL_MS) or nothing;
 * - `load` reads a link through the given reader, once for all visitors asking at the same time,
 *   and keeps the result unless the cache was invalidated while the read was under way;
 * - `stale` serves the last entry a little longer when it cannot be read again (a database outage);
 * - `invalidate` drops everything and counts a `generation`, which other memos of the visitor side
 *   (custom hosts) follow.
 */
export class LinkCache {
  readonly #entries = new Map<string, { entry: CachedLink; loadedAt: number }>();
  /** loads under way by code: visitors of one uncached link at once share one read */
  readonly #loading = new Map<string, Promise<CachedLink | null>>();
  #generation = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = LINK_CACHE_MAX_ENTRIES,
  ) {}

  get generation(): number {
    return this.#generation;
  }

  /** How many links are cached. */
  get size(): number {
    return this.#entries.size;
  }

  /** The cached entry while it is fresh at `now` (the clock's time when not given); undefined when the link has to be read. */
  get(code: string, now?: Date): CachedLink | undefined {
    const hit = this.#entries.get(code);
    return hit && (now ?? this.clock.now()).getTime() - hit.loadedAt < LINK_CACHE_TTL_MS ? hit.entry : undefined;
  }

  /** The link read by `read` (null: no such link), shared by every caller while the read is under way. */
  load(code: string, read: (code: string) => Promise<CachedLink | null>): Promise<CachedLink | null> {
    let pending = this.#loading.get(code);
    if (!pending) {
      const seen = this.#generation;
      const loadedAt = this.clock.now().getTime();
      pending = read(code)
        .then((entry) => {
          // an edit announced while this read was under way may have come after it: such an entry is not kept
          if (entry && this.#generation === seen) this.#keep(code, entry, loadedAt);
          return entry;
        })
        .finally(() => this.#loading.delete(code));
      this.#loading.set(code, pending);
    }
    return pending;
  }

  /** The last entry of a link, fresh or not, kept for `retryMs` more before it is read again; undefined when none. */
  stale(code: string, retryMs: number): CachedLink | undefined {
    const hit = this.#entries.get(code);
    if (hit) hit.loadedAt = this.clock.now().getTime() - LINK_CACHE_TTL_MS + retryMs;
    return hit?.entry;
  }

  invalidate(): void {
    this.#entries.clear();
    this.#generation++;
  }

  #keep(code: string, entry: CachedLink, loadedAt: number): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(code, { entry, loadedAt });
  }
}
