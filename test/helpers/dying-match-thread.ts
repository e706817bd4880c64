/**
 * A matcher thread that ends itself (as a crash would) on a post saying "end the thread <file>"
 * unless that file exists, and makes the file: so the thread started after it matches that post;
 * on "end the thread every time", always. For the tests of what the request thread does then.
 */
import { existsSync, writeFileSync } from "node:fs";
import type { ToMatcher } from "../../core/tracking/match-host";
import { serveMatcher } from "../../core/tracking/match-worker";

declare const self: Worker;

function ends(m: ToMatcher): boolean {
  if (m.op !== "match") return false;
  if (m.text.includes("end the thread every time")) return true;
  const marker = /end the thread (\S+)/.exec(m.text)?.[1];
  if (!marker || existsSync(marker)) return false;
  writeFileSync(marker, "ended");
  return true;
}

serveMatcher();
const serve = self.onmessage!;
self.onmessage = (e: MessageEvent<ToMatcher>) => {
  if (ends(e.data)) process.exit(1); // ends this thread only, before the matcher sees the post
  serve.call(self, e);
};
