import { accessSync, constants, statfsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Clock } from "../clock";
import type { Metrics } from "../metrics";
import { journalSegments } from "./journal";

/**
 * The journal's disk: its segments' bytes, the free bytes of its file system, and how long until
 * they run out at the rate the journal grew since the previous scrape (left out while it does not
 * grow: its segments are deleted as the writer commits them).
 */
export function watchJournalDisk(dir: string, clock: Clock, metrics: Metrics): void {
  const bytes = () => journalSegments(dir).reduce((n, p) => n + (statSync(p, { throwIfNoEntry: false })?.size ?? 0), 0);
  let last: { at: number; bytes: number } | null = null;
  metrics.gauge("click_journal_bytes", "Bytes of the click journal's segment files on disk", bytes);
  metrics.gauge("click_journal_disk_free_bytes", "Free bytes of the file system that holds the click journal", () => {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  });
  metrics.gauge(
    "click_journal_disk_full_seconds",
    "Seconds until the click journal's file system is full at the rate the journal grew since the last scrape (absent while it does not grow)",
    () => {
      const now = { at: clock.now().getTime(), bytes: bytes() };
      const before = last;
      last = now;
      if (!before || now.at <= before.at || now.bytes <= before.bytes) return null;
      const fs = statfsSync(dir);
      return (fs.bavail * fs.bsize) / ((now.bytes - before.bytes) / ((now.at - before.at) / 1000));
    },
  );
}

/** Whether a journal can be written in `dir`: it (or, before it is made, the nearest directory above it) is a writable directory. */
export function dirWritable(journalDir: string): boolean {
  for (let dir = journalDir; ; dir = dirname(dir)) {
    try {
      if (!statSync(dir).isDirectory()) return false;
      accessSync(dir, constants.W_OK);
      return true;
    } catch (e) {
      if ((e as { code?: string }).code !== "ENOENT" || dirname(dir) === dir) return false;
    }
  }
}
