/**
 * A matcher thread that ends itself (as a crash would) on a post saying "end the thread <file>"
 * unless that file exists, and makes the file: so the thread started after it matches that post;
 * on "end the thread every time", always. For the tests of what the request thread does then.
 */
import { existsSync, writeFileSync } from "node:fs";
import { handle, serveMatcher } from "../../core/tracking/match-worker";

serveMatcher((m) => {
  const marker = m.op === "match" ? /end the thread (\S+)/.exec(m.text)?.[1] : undefined;
  if (m.op === "match" && m.text.includes("end the thread every time")) process.exit(1);
  if (marker && !existsSync(marker)) {
    writeFileSync(marker, "ended");
    process.exit(1); // ends this thread only
  }
  return handle(m);
});
