/**
 * The matcher's thread: it holds the live index of enabled trackers (built from their rows, which
 * the request thread reads and posts) and matches the posts it is handed, so no text a user controls
 * runs on the thread that answers HTTP and the bot. match-host.ts starts it and talks to it.
 */
import { liveIndexOf, withChanges, type LiveIndex } from "./index-cache";
import type { FromMatcher, ToMatcher } from "./match-host";
import { handlePreview } from "./preview-match";

declare const self: Worker;

/** The module the host starts as the matcher's thread. */
export const MATCH_THREAD = new URL("./match-thread.ts", import.meta.url).href;

let index: LiveIndex | null = null;
/** the watch_links trackers changed since the last answer told them */
let watchersChanged = true;

/** The answer to one message (null for index updates, which answer nothing). */
function handle(m: ToMatcher): FromMatcher | null {
  switch (m.op) {
    case "build":
      index = liveIndexOf(m.rows);
      watchersChanged = true;
      return null;
    case "overlay":
      if (index) withChanges(index, m.ids, m.rows);
      watchersChanged = true;
      return null;
    case "match": {
      const result = (index ??= liveIndexOf([])).match(m.text);
      const watchers = watchersChanged ? index.linkWatchers() : undefined;
      watchersChanged = false;
      return { id: m.id, match: { ...result, watchers } };
    }
    case "preview":
      return { id: m.id, preview: handlePreview(m.tracker, m.texts) };
  }
}

/** Serves the request thread: each message in the order it came, each answer posted back. */
export function serveMatcher(): void {
  self.onmessage = (e: MessageEvent<ToMatcher>) => {
    let reply: FromMatcher | null;
    try {
      reply = handle(e.data);
    } catch (err) {
      // the matcher failed on this message: that request fails, the thread goes on
      reply = "id" in e.data ? { id: e.data.id, error: err instanceof Error ? err.message : String(err) } : null;
    }
    if (reply) self.postMessage(reply);
  };
}
