/**
 * The live preview's matching, in the matcher's thread: one tracker, as it is now, against the
 * recent posts, newest first, within a budget of work for the whole preview (PREVIEW_BUDGET) on top
 * of each post's own (WORK_BUDGET). Posts it could not afford are counted, not matched.
 */
import { excerpt, TrackerIndex, type MatchableTracker } from "./matcher";
import { WORK_BUDGET } from "./query-match";

/** Work one preview may spend over all its posts: a few posts' worth at the most. */
const PREVIEW_BUDGET = 4 * WORK_BUDGET;

/** Per post (in the order given): what it matched, or null; and how many posts went unchecked. */
export interface PreviewMatches {
  matched: ({ snippet: string; matchedKeyword: string } | null)[];
  skipped: number;
}

export function handlePreview(tracker: MatchableTracker, texts: string[]): PreviewMatches {
  const index = new TrackerIndex([tracker]);
  let left = PREVIEW_BUDGET;
  let skipped = 0;
  const matched = texts.map((text) => {
    if (left <= 0) {
      skipped++;
      return null;
    }
    const result = index.match(text);
    left -= result.work;
    if (result.over.length) {
      skipped++;
      return null;
    }
    const hit = result.hits[0];
    return hit ? excerpt(result.text, hit.start, hit.end) : null;
  });
  return { matched, skipped };
}
