import { basename } from "node:path";
import { SegmentReader } from "./journal-decode";
import { journalSegments } from "./journal";
import type { JournalClick } from "./packed";

/**
 * Reads a journal's records forward, a few at a time: for a writer catching up after clicks were
 * left on disk (sink.ts, when more waited than memory may hold), for replay at start and for the
 * write-back after a lost writer thread (replay.ts). One segment is mapped (shared, so the records
 * appended to a live one since are seen) and read on from where the last call stopped; the segments
 * before it are never read again. What it holds is one segment's mapping, whatever the journal's
 * length.
 */
export interface JournalCursor {
  /** Up to `max` records with a sequence number above `after`, in order. */
  read(after: number, max: number): JournalClick[];
  /** How many segments read to their end stopped at a torn record (a process killed while appending it), not at the end mark. */
  readonly torn: number;
}

const firstSeqOf = (path: string) => Number(/(\d{16})/.exec(basename(path))?.[1] ?? 0);

export function journalCursor(dir: string): JournalCursor {
  type Open = { path: string; reader: SegmentReader; last: number };
  let current: Open | null = null;
  const tornPaths = new Set<string>();
  const open = (path: string): Open => {
    const mapped = Bun.mmap(path, { shared: true });
    current = { path, reader: new SegmentReader(mapped), last: 0 };
    return current;
  };
  return {
    read(after, max) {
      const out: JournalClick[] = [];
      const segments = journalSegments(dir);
      // the segment holding `after + 1`: the last one that starts at or before it
      let i = segments.length - 1;
      while (i > 0 && firstSeqOf(segments[i]!) > after + 1) i--;
      for (; i >= 0 && i < segments.length && out.length < max; i++) {
        const held: Open | null = current;
        const seg: Open = held && held.path === segments[i] && held.last <= after ? held : open(segments[i]!);
        for (let r = seg.reader.next(); r; r = out.length < max ? seg.reader.next() : null) {
          seg.last = r.seq;
          if (r.seq > after) out.push(r);
        }
        if (out.length >= max) break;
        if (seg.reader.torn) tornPaths.add(seg.path);
      }
      return out;
    },
    get torn() {
      return tornPaths.size;
    },
  };
}
