import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { HEADER, JOURNAL_FIELDS, recordCheck, WORDS_FROM } from "./journal-format";
import { journalSegments } from "./journal";

/** A record's sequence number and click time (ms), the fixed fields every version starts with. */
interface RecordHead {
  seq: number;
  clickedAt: number;
}

/**
 * Walks a segment's records by their size fields, checking each one's checksum but decoding none of
 * its strings, up to the end mark or the first record that is not whole (as replay stops there):
 * the first record with a sequence number of `seq` or more, or with no `seq` the last whole record.
 */
function headIn(bytes: Uint8Array, seq?: number): RecordHead | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let last: RecordHead | null = null;
  for (let off = 0; off + HEADER <= bytes.length; ) {
    const size = view.getUint32(off, true);
    // the version, seq, link and click time: the smallest record there is
    if (size < HEADER + 25 || off + size > bytes.length) break;
    const version = bytes[off + HEADER]!;
    if (!(version in JOURNAL_FIELDS)) break;
    const check =
      version >= WORDS_FROM
        ? size % 4 === 0
          ? recordCheck(view, off + HEADER, off + size)
          : -1
        : Bun.hash.crc32(bytes.subarray(off + HEADER, off + size)) >>> 0;
    if (check !== view.getUint32(off + 4, true)) break;
    const head = { seq: view.getFloat64(off + HEADER + 1, true), clickedAt: view.getFloat64(off + HEADER + 17, true) };
    if (seq !== undefined && head.seq >= seq) return head;
    last = head;
    off += size;
  }
  return seq === undefined ? last : null;
}

const firstSeqOf = (path: string) => Number(/(\d{16})/.exec(basename(path))?.[1] ?? 0);
const bytesOf = (path: string): Uint8Array | null => {
  try {
    return readFileSync(path);
  } catch {
    return null; // deleted meanwhile: its clicks were committed
  }
};

/**
 * What waits in the journal in `dir` above the writer's mark, read from at most two segments: the
 * newest one (its last record's sequence number: the segments hold consecutive numbers, so the count
 * is that less the mark) and the one holding the first click above the mark (its click time).
 */
export function journalExtent(dir: string, mark: number): { clicks: number; oldestAt: number | null } {
  const segments = journalSegments(dir);
  let newest: RecordHead | null = null;
  for (let i = segments.length - 1; i >= 0 && !newest; i--) {
    const bytes = bytesOf(segments[i]!);
    newest = bytes && headIn(bytes);
  }
  if (!newest || newest.seq <= mark) return { clicks: 0, oldestAt: null };
  // the last segment that starts at or before the first click above the mark
  let i = segments.length - 1;
  while (i > 0 && firstSeqOf(segments[i]!) > mark + 1) i--;
  let oldest: RecordHead | null = null;
  for (; i < segments.length && !oldest; i++) {
    const bytes = bytesOf(segments[i]!);
    oldest = bytes && headIn(bytes, mark + 1);
  }
  return { clicks: newest.seq - mark, oldestAt: oldest?.clickedAt ?? null };
}
