import type { Deps } from "../deps";
import type { trackers } from "../../db/schema";
import { TrackerIndex, type MatchResult } from "./matcher";
import { parseSourceRef, type SourceRef } from "./sources";
import { announce, CACHE_TOPICS } from "../cluster/caches";

export type TrackerRowOf = typeof trackers.$inferSelect;
type Row = TrackerRowOf;

/** An enabled tracker as the index holds it, with its source lists parsed once. */
export interface IndexedTracker extends Row {
  include: SourceRef[] | null;
  exclude: SourceRef[] | null;
}

const parseRefs = (list: string[] | null) => (list?.length ? list.map(parseSourceRef).filter((r): r is SourceRef => r !== null) : null);
const indexed = (r: Row): IndexedTracker => ({ ...r, include: parseRefs(r.includeSources), exclude: parseRefs(r.excludeSources) });

/** Past this many trackers changed since the full build, the next message rebuilds everything. */
export const MAX_CHANGED = 256;

/**
 * The full index of enabled trackers plus a small overlay of the trackers changed since it was built
 * (a full build over 10,000 trackers takes about a second; the overlay takes microseconds). Hits of
 * changed trackers come from the overlay only.
 */
export class LiveIndex {
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

  match(raw: string): MatchResult<IndexedTracker> {
    const result = this.full.match(raw);
    if (!this.changed.size) return result;
    const hits = result.hits.filter((h) => !this.changed.has(h.tracker.id));
    const over = result.over.filter((t) => !this.changed.has(t.id));
    let work = result.work;
    if (this.overlay) {
      const changed = this.overlay.match(raw);
      hits.push(...changed.hits);
      over.push(...changed.over);
      work = Math.max(work, changed.work);
    }
    return { text: result.text, hits, over, work };
  }
}

/** The live index built from the enabled trackers' rows (in the matcher's thread: match-host.ts). */
export function liveIndexOf(rows: Row[]): LiveIndex {
  return new LiveIndex(new TrackerIndex(rows.map(indexed)));
}

/** Takes changed trackers into `index`'s overlay: `ids` every tracker changed since the full build, `rows` those of them enabled now. */
export function withChanges(index: LiveIndex, ids: number[], rows: Row[]): void {
  for (const id of ids) index.changed.add(id);
  index.overlay = rows.length ? new TrackerIndex(rows.map(indexed)) : null;
}

/**
 * Every core function that changes trackers calls this with their ids (create, edit, enable/disable,
 * delete): they move to the overlay at once, on this node, and on the others when the change bus
 * delivers the announcement. Without ids (e.g. after an account merge) the whole index is rebuilt on
 * the next message.
 */
export async function invalidateTrackerIndex(deps: Pick<Deps, "trackerIndex" | "cluster" | "log">, ids?: number[]): Promise<void> {
  await applyTrackerChange(deps, ids);
  announce(deps, CACHE_TOPICS.trackers, ids?.join(",") ?? "");
}

/** Takes changed trackers into this node's index (the overlay), or has it rebuilt when `ids` is absent or too many changed. */
export function applyTrackerChange(deps: Pick<Deps, "trackerIndex">, ids?: number[]): Promise<void> {
  return deps.trackerIndex.apply(ids);
}
