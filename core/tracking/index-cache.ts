import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { trackers } from "../../db/schema";
import { TrackerIndex, type KeywordHit } from "./matcher";
import { parseSourceRef, type SourceRef } from "./sources";
import { announce, CACHE_TOPICS } from "../cluster/caches";

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
  constructor(readonly full: TrackerIndex<IndexedTracker>) {}

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
  current(db: Pick<Deps["db"], "select">): LiveIndex;
  /** Drops the index: rebuilt from the database on next use. */
  drop(): void;
  /** The index if built (null otherwise: nothing to update). */
  peek(): LiveIndex | null;
}

export function createTrackerIndexCache(): TrackerIndexCache {
  let index: LiveIndex | null = null;
  return {
    current(db) {
      return (index ??= new LiveIndex(new TrackerIndex(db.select().from(trackers).where(eq(trackers.isEnabled, true)).all().map(indexed))));
    },
    drop() {
      index = null;
    },
    peek: () => index,
  };
}

/** The live index of all enabled trackers, built on first use. */
export function trackerIndex(deps: Pick<Deps, "db" | "trackerIndex">): LiveIndex {
  return deps.trackerIndex.current(deps.db);
}

/**
 * Every core function that changes trackers calls this with their ids (create, edit, enable/disable,
 * delete): they move to the overlay at once, on this node, and on the others when the change bus
 * delivers the announcement. Without ids (e.g. after an account merge) the whole index is rebuilt on
 * the next message.
 */
export function invalidateTrackerIndex(deps: Pick<Deps, "db" | "trackerIndex" | "cluster" | "log">, ids?: number[]): void {
  applyTrackerChange(deps, ids);
  announce(deps, CACHE_TOPICS.trackers, ids?.join(",") ?? "");
}

/** Takes changed trackers into this node's index (the overlay), or drops it when `ids` is absent or too many changed. */
export function applyTrackerChange(deps: Pick<Deps, "db" | "trackerIndex">, ids?: number[]): void {
  const index = deps.trackerIndex.peek();
  if (!index) return;
  if (!ids || index.changed.size + ids.length > MAX_CHANGED) {
    deps.trackerIndex.drop();
    return;
  }
  for (const id of ids) index.changed.add(id);
  const rows = deps.db.select().from(trackers).where(and(inArray(trackers.id, [...index.changed]), eq(trackers.isEnabled, true))).all();
  index.overlay = rows.length ? new TrackerIndex(rows.map(indexed)) : null;
}
