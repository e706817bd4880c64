import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import type { trackers } from "../../db/schema";
import type { AsyncDb } from "../../db/async";
import { TrackerIndex, type KeywordHit } from "./matcher";
import { parseSourceRef, type SourceRef } from "./sources";
import { announce, CACHE_TOPICS } from "../cluster/caches";
import { RecentPosts } from "./preview";

type Row = typeof trackers.$inferSelect;

/** An enabled tracker as the index holds it, with its source lists parsed once. */
export interface IndexedTracker extends Row {
  include: SourceRef[] | null;
  exclude: SourceRef[] | null;
}

const parseRefs = (list: string[] | null) => (list?.length ? list.map(parseSourceRef).filter((r): r is SourceRef => r !== null) : null);
const indexed = (r: Row): IndexedTracker => ({ ...r, include: parseRefs(r.includeSources), exclude: parseRefs(r.excludeSources) });

/** Past this many trackers changed since the full build, the next message rebuilds everything. */
const MAX_CHANGED = 256;

/**
 * The full index of enabled trackers plus a small overlay of the trackers changed since it was built
 * (a full build over 10,000 trackers takes about a second; the overlay takes microseconds). Hits of
 * changed trackers come from the overlay only.
 */
class LiveIndex {
  changed = new Set<number>();
  overlay: TrackerIndex<IndexedTracker> | null = null;
  private readonly fullWatchers: IndexedTracker[];
  constructor(readonly full: TrackerIndex<IndexedTracker>) {
    this.fullWatchers = full.trackers.filter((t) => t.watchLinks);
  }

  /** The enabled trackers with watch_links (usually none: then a post is not searched for links at all). */
  linkWatchers(): IndexedTracker[] {
    if (!this.changed.size) return this.fullWatchers;
    return [...this.fullWatchers.filter((t) => !this.changed.has(t.id)), ...(this.overlay?.trackers.filter((t) => t.watchLinks) ?? [])];
  }

  match(raw: string): { text: string; hits: KeywordHit<IndexedTracker>[] } {
    const result = this.full.match(raw);
    if (!this.changed.size) return result;
    const hits = result.hits.filter((h) => !this.changed.has(h.tracker.id));
    if (this.overlay) hits.push(...this.overlay.match(raw).hits);
    return { text: result.text, hits };
  }
}

/**
 * The live index of the running service, built on first use from the database it is asked with and
 * kept until invalidated; built once by createDeps and passed in Deps (so tests with their own
 * dependencies never share one).
 */
export interface TrackerIndexCache {
  /** The index, built from `db` on first use (callers at once share one build). */
  current(db: AsyncDb): Promise<LiveIndex>;
  /** Drops the index: rebuilt from the database on next use (a build under way is not kept). */
  drop(): void;
  /** The index if built (null otherwise: nothing to update). */
  peek(): LiveIndex | null;
  /** Runs overlay updates one after the other, in the order the changes came. */
  serial(work: () => Promise<void>): Promise<void>;
  /** The last posts matched on this node, for the live preview of a tracker's settings. */
  readonly recent: RecentPosts;
}

export function createTrackerIndexCache(): TrackerIndexCache {
  let index: LiveIndex | null = null;
  let building: Promise<LiveIndex> | null = null;
  let generation = 0;
  let queue: Promise<void> = Promise.resolve();
  return {
    current(db) {
      if (index) return Promise.resolve(index);
      if (!building) {
        const seen = generation;
        const { trackers } = db.tables;
        building = (async () => {
          const built = new LiveIndex(
            new TrackerIndex((await db.select().from(trackers).where(eq(trackers.isEnabled, true)).orderBy(trackers.id)).map(indexed)),
          );
          // a change made while it was read may be missing from it: used for this message only
          if (generation === seen) index = built;
          return built;
        })().finally(() => (building = null));
      }
      return building;
    },
    drop() {
      generation++;
      index = null;
    },
    peek: () => index,
    recent: new RecentPosts(),
    serial(work) {
      const next = queue.then(work);
      queue = next.catch(() => {});
      return next;
    },
  };
}

/** The live index of all enabled trackers, built on first use. */
export function trackerIndex(deps: Pick<Deps, "asyncDb" | "trackerIndex">): Promise<LiveIndex> {
  return deps.trackerIndex.current(deps.asyncDb);
}

/**
 * Every core function that changes trackers calls this with their ids (create, edit, enable/disable,
 * delete): they move to the overlay at once, on this node, and on the others when the change bus
 * delivers the announcement. Without ids (e.g. after an account merge) the whole index is rebuilt on
 * the next message.
 */
export async function invalidateTrackerIndex(
  deps: Pick<Deps, "asyncDb" | "trackerIndex" | "cluster" | "log">,
  ids?: number[],
): Promise<void> {
  await applyTrackerChange(deps, ids);
  announce(deps, CACHE_TOPICS.trackers, ids?.join(",") ?? "");
}

/** Takes changed trackers into this node's index (the overlay), or drops it when `ids` is absent or too many changed. */
export function applyTrackerChange(deps: Pick<Deps, "asyncDb" | "trackerIndex">, ids?: number[]): Promise<void> {
  return deps.trackerIndex.serial(async () => {
    const index = deps.trackerIndex.peek();
    if (!index) return deps.trackerIndex.drop(); // a build under way is not kept either
    if (!ids || index.changed.size + ids.length > MAX_CHANGED) return deps.trackerIndex.drop();
    for (const id of ids) index.changed.add(id);
    const { trackers } = deps.asyncDb.tables;
    try {
      const rows = await deps.asyncDb
        .select()
        .from(trackers)
        .where(and(inArray(trackers.id, [...index.changed]), eq(trackers.isEnabled, true)))
        .orderBy(trackers.id);
      index.overlay = rows.length ? new TrackerIndex(rows.map(indexed)) : null;
    } catch (e) {
      deps.trackerIndex.drop(); // rebuilt from the database on the next message
      throw e;
    }
  });
}
