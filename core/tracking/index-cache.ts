import { eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { trackers } from "../../db/schema";
import { TrackerIndex } from "./matcher";
import { parseSourceRef, type SourceRef } from "./sources";

type Row = typeof trackers.$inferSelect;

/** An enabled tracker as the index holds it, with its source lists parsed once. */
export interface IndexedTracker extends Row {
  include: SourceRef[] | null;
  exclude: SourceRef[] | null;
}

const parseRefs = (list: string[] | null) => (list?.length ? list.map(parseSourceRef).filter((r): r is SourceRef => r !== null) : null);

/** One index per database (so tests with their own database never share one). */
const cache = new WeakMap<object, TrackerIndex<IndexedTracker>>();

/**
 * The index of all enabled trackers, built on first use after a change. Every core function that
 * changes a tracker calls `invalidateTrackerIndex`; the next message rebuilds it.
 */
export function trackerIndex(deps: Pick<Deps, "db">): TrackerIndex<IndexedTracker> {
  let index = cache.get(deps.db);
  if (!index) {
    const rows = deps.db.select().from(trackers).where(eq(trackers.isEnabled, true)).all();
    index = new TrackerIndex(rows.map((r) => ({ ...r, include: parseRefs(r.includeSources), exclude: parseRefs(r.excludeSources) })));
    cache.set(deps.db, index);
  }
  return index;
}

/** Drops the index after trackers changed (create, edit, enable/disable, delete, ownership moves). */
export function invalidateTrackerIndex(deps: Pick<Deps, "db">): void {
  cache.delete(deps.db);
}
