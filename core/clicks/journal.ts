import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { MAX_RECORD, StringTable, encodeRecord, recordBuffer, type RecordBuffer } from "./journal-format";
import { decodeSegment } from "./journal-decode";
import type { JournalClick, PendingClick } from "./packed";

/**
 * The request side's record of every click it answered, kept until the writer has committed it.
 * Segments are files of a fixed size mapped into memory a window at a time (Bun.mmap, shared): appending a click is a
 * copy into the page cache with no system call, and the bytes belong to the kernel the moment they
 * are written, so they survive the process being killed (SIGKILL, a crash). They do not survive a
 * power loss or a kernel crash unless the pages were written back first (nothing here calls fsync).
 */
export interface ClickJournal {
  /** Appends a click (its strings cut by cutClick) and returns its sequence number. */
  append(click: PendingClick): number;
  /** The writer committed every click up to `seq`: segments holding nothing later are deleted. */
  committed(seq: number): void;
  /** Lets go of the mapped segment (the files stay until their clicks are committed). */
  close(): void;
  /** Resolves when the next segment's file is written out (see openClickJournal); for benchmarks and tests. */
  spareReady(): Promise<void>;
}

/**
 * Bytes of a segment mapped at a time. The whole 64 MB segment mapped as one buffer added about 1 ms
 * to the redirect's p99 under load (wrk, 64 connections: 6.3 ms against 5.1 ms without a journal,
 * five runs each), and so did a 64 MB buffer alone, written or not; windows of 1 or 4 MB do not
 * (docs/links.md, Figures). A window is one mmap call per ~60,000 clicks; one the writing has left
 * is unmapped by the garbage collector.
 */
const WINDOW = 4 * 1024 * 1024;
/** mmap offsets are multiples of the page size: 64 KB covers 4, 16 and 64 KB pages */
const PAGE = 64 * 1024;
const SEGMENT = /^clicks-(\d{16})\.journal$/;
/** The next segment while it is being written out; never read as a segment. */
const SPARE = "next-segment.tmp";
const segmentName = (firstSeq: number) => `clicks-${String(firstSeq).padStart(16, "0")}.journal`;

/** The journal's segment files in `dir`, oldest first. */
export function journalSegments(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => SEGMENT.test(n))
    .sort()
    .map((n) => join(dir, n));
}

/** What a journal left on disk: its whole records in order, and how many segments ended in a torn one. */
export function readJournal(dir: string): { records: JournalClick[]; torn: number; segments: string[] } {
  const segments = journalSegments(dir);
  const records: JournalClick[] = [];
  let torn = 0;
  for (const path of segments) {
    const seg = decodeSegment(readFileSync(path));
    for (const r of seg.records) records.push(r);
    if (seg.torn) torn++;
  }
  return { records, torn, segments };
}

/**
 * Opens a fresh journal in `dir` whose first click gets `firstSeq` (replay first: existing segments
 * are left alone and deleted as `committed` passes them). `segmentBytes` (64 MB by default, about
 * 900,000 clicks of a typical 70 bytes) is each file's size; a new one is started when the current one has less than one
 * record's room left.
 *
 * The next segment is written out with zeros in the background (asynchronous writes, off the
 * request thread) before it is needed: writing a click into a hole of a sparse file makes the file
 * system allocate a block on the page fault, which doubled the cost of an append (0.35–0.6 µs
 * against 0.29 µs into a written-out file, `bench journal`). When the spare is not ready in time
 * (a burst, or the very first segment), a sparse segment is used; it is only slower. `spare: false`
 * always uses sparse segments.
 *
 * Only a window of the segment is mapped at a time (`windowBytes`, 4 MB by default; see WINDOW).
 */
export function openClickJournal(
  dir: string,
  firstSeq: number,
  opts: { segmentBytes?: number; spare?: boolean; windowBytes?: number } = {},
): ClickJournal {
  const segmentBytes = Math.max(opts.segmentBytes ?? 64 * 1024 * 1024, 2 * MAX_RECORD);
  const windowBytes = Math.max(opts.windowBytes ?? WINDOW, MAX_RECORD + PAGE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  rmSync(join(dir, SPARE), { force: true }); // one a stopped process left half written
  /** segments written before the current one, with the last sequence number each holds */
  const full: { path: string; lastSeq: number }[] = [];
  let seq = firstSeq - 1;
  let path = "";
  /** the mapped window of the current segment, from byte `base` of the file */
  let buf: RecordBuffer | null = null;
  let base = 0;
  /** where the next record goes, from the segment's start */
  let off = 0;
  /** the strings the current segment has written in full (each segment starts a table of its own) */
  let table = new StringTable();
  let committedSeq = firstSeq - 1;
  const sparePath = join(dir, SPARE);
  let spare: Promise<boolean> = Promise.resolve(false);
  let spareIsReady = false;
  let preparing = false;
  let closed = false;

  /** Writes the spare segment out in the background, unless one is ready or on its way; `spareIsReady` turns true when it is whole. */
  function prepareSpare() {
    if (spareIsReady || preparing || opts.spare === false) return;
    preparing = true;
    spare = (async () => {
      rmSync(sparePath, { force: true });
      const file = await open(sparePath, "wx", 0o600);
      try {
        const zeros = Buffer.alloc(1024 * 1024);
        for (let at = 0; at < segmentBytes && !closed; at += zeros.length)
          await file.write(zeros, 0, Math.min(zeros.length, segmentBytes - at), at);
      } finally {
        await file.close();
      }
      return (spareIsReady = !closed);
    })()
      .catch(() => false) // the directory went away (a test's, or the service stopping): a sparse segment then
      .finally(() => (preparing = false));
  }

  function startSegment() {
    path = join(dir, segmentName(seq + 1));
    if (spareIsReady) {
      renameSync(sparePath, path);
      spareIsReady = false;
    } else {
      const fd = openSync(path, "wx", 0o600);
      try {
        ftruncateSync(fd, segmentBytes); // a sparse file of zeros: a zero size field is the end mark
      } finally {
        closeSync(fd);
      }
    }
    prepareSpare();
    off = 0;
    mapWindow();
    table = new StringTable();
  }

  /** Maps the window of the current segment that starts at the page holding `off`. */
  function mapWindow() {
    base = off - (off % PAGE);
    const mapped = Bun.mmap(path, { shared: true, offset: base, size: Math.min(windowBytes, segmentBytes - base) });
    buf = recordBuffer(Buffer.from(mapped.buffer, mapped.byteOffset, mapped.byteLength));
  }

  prepareSpare();

  function deleteCommitted() {
    while (full.length && full[0]!.lastSeq <= committedSeq) unlinkSync(full.shift()!.path);
  }

  return {
    append(c) {
      if (!buf || off + MAX_RECORD > segmentBytes) {
        if (buf) full.push({ path, lastSeq: seq });
        startSegment();
        deleteCommitted();
      } else if (off - base + MAX_RECORD > buf.bytes.length) mapWindow();
      seq++;
      off += encodeRecord(buf!, off - base, seq, c, table);
      return seq;
    },
    committed(upTo) {
      if (upTo <= committedSeq) return;
      committedSeq = upTo;
      deleteCommitted();
    },
    close() {
      buf = null; // the mapping goes with the garbage collector; the bytes are in the file already
      closed = true;
    },
    async spareReady() {
      await spare;
    },
  };
}
