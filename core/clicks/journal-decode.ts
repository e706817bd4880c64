/**
 * Reading the click journal's records back (the byte layout is in journal-format.ts, which writes
 * them): a whole segment at once, or a record at a time from a segment still being written.
 */
import { clickIdOf, unpaddedClickIdOf } from "./click-id";
import {
  HEADER,
  JOURNAL_FIELDS,
  MAX_TABLE,
  NULL_STR,
  OPTIONAL,
  PARTS_TABLE_FROM,
  REF,
  REF_MIN_BYTES,
  REFS_FROM,
  WORDS_FROM,
  recordCheck,
} from "./journal-format";
import type { JournalClick } from "./packed";

/** The records of one journal segment, in order, and whether it ended in a damaged (torn) record. */
export interface DecodedSegment {
  records: JournalClick[];
  /** bytes of the segment that hold whole records */
  end: number;
  /** a record was started but is not whole (cut short, or its checksum is wrong): it and what follows are ignored */
  torn: boolean;
}

/**
 * Reads a segment's records one at a time, from its start, and can go on later from where it
 * stopped: given a shared mapping of the file that is still being written, `next` sees the records
 * appended since. Null at the end of what is written (or at a torn record).
 */
export class SegmentReader {
  private readonly buf: Buffer;
  private readonly view: DataView;
  private readonly table: string[] = [];
  private off = 0;
  constructor(bytes: Uint8Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  next(): JournalClick | null {
    if (this.off + HEADER > this.buf.length) return null;
    const size = this.buf.readUInt32LE(this.off);
    if (size < HEADER + 1 || this.off + size > this.buf.length) return null;
    const record = decodeRecord(this.buf, this.view, this.off, size, this.table);
    if (record) this.off += size;
    return record;
  }
  /** Whether `next` stopped at a record that is not whole (a torn one) rather than at the end mark. */
  get torn(): boolean {
    if (this.off + HEADER > this.buf.length) return this.off < this.buf.length;
    return this.buf.readUInt32LE(this.off) !== 0;
  }
}

/**
 * Reads the records of a segment up to its end mark (a zero size), or up to the first record that
 * is not whole: one whose size runs past the bytes there are, whose checksum does not match, or
 * whose version is unknown. A process killed while appending leaves at most that one last record,
 * and its visitor was never answered (the record is whole before the redirect is sent).
 */
export function decodeSegment(bytes: Uint8Array): DecodedSegment {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: JournalClick[] = [];
  /** the segment's string table, rebuilt as the writer built it */
  const table: string[] = [];
  let off = 0;
  while (off + HEADER <= buf.length) {
    const size = buf.readUInt32LE(off);
    if (size === 0) return { records, end: off, torn: false };
    const record = size >= HEADER + 1 && off + size <= buf.length ? decodeRecord(buf, view, off, size, table) : null;
    if (!record) return { records, end: off, torn: true };
    records.push(record);
    off += size;
  }
  return { records, end: off, torn: off < buf.length };
}

/** A string field's text after its u16 `n` (at `p`): a reference to the segment's table, or written in full (and entered in it); null when it runs past the record. */
function readStr(body: Buffer, p: number, n: number, refs: boolean, table: string[]): { s: string; p: number } | null {
  if (refs && n === REF) {
    if (p + 2 > body.length) return null;
    const id = body.readUInt16LE(p);
    return id < table.length ? { s: table[id]!, p: p + 2 } : null;
  }
  if (p + n > body.length) return null;
  const s = body.toString("utf8", p, p + n);
  if (refs && n > REF_MIN_BYTES && table.length < MAX_TABLE) table.push(s);
  return { s, p: p + n };
}

function decodeRecord(buf: Buffer, view: DataView, off: number, size: number, table: string[]): JournalClick | null {
  const body = buf.subarray(off + HEADER, off + size);
  const version = body[0]!;
  const fields = JOURNAL_FIELDS[version as keyof typeof JOURNAL_FIELDS];
  if (!fields) return null;
  const words = version >= WORDS_FROM;
  const check = words ? (size % 4 === 0 ? recordCheck(view, off + HEADER, off + size) : -1) : Bun.hash.crc32(body) >>> 0;
  if (check !== buf.readUInt32LE(off + 4)) return null;
  const refs = version >= REFS_FROM;
  const out: Record<string, unknown> = {};
  let p = 1;
  for (const [name, type] of fields) {
    if (type === "f64") {
      if (p + 8 > body.length) return null;
      const v = body.readDoubleLE(p);
      out[name] = Number.isNaN(v) ? null : v;
      p += 8;
    } else if (type === "u8") {
      if (p + 1 > body.length) return null;
      out[name] = body[p++];
    } else {
      if (p + 2 > body.length) return null;
      const n = body.readUInt16LE(p);
      p += 2;
      if (n === NULL_STR) out[name] = null;
      else if (type === "parts") {
        // the prefix (or a whole id), then the number
        const at = readStr(body, p, n, refs, table);
        if (!at) return null;
        p = at.p;
        if (p + 8 > body.length) return null;
        const no = body.readDoubleLE(p);
        p += 8;
        // from PARTS_TABLE_FROM a prefix written in full enters the table whatever its length (a whole id never does)
        if (version >= PARTS_TABLE_FROM && !Number.isNaN(no) && n <= REF_MIN_BYTES && table.length < MAX_TABLE) table.push(at.s);
        // version 6's visitors were sent the id with its counter unpadded: a replayed click keeps that spelling
        const idOf = version >= PARTS_TABLE_FROM ? clickIdOf : unpaddedClickIdOf;
        out[name] = Number.isNaN(no) ? at.s : idOf(out.linkId as number, at.s, no);
      } else if (type === "id") {
        if (p + n > body.length) return null;
        out[name] = body.toString("utf8", p, p + n);
        p += n;
      } else {
        const at = readStr(body, p, n, refs, table);
        if (!at) return null;
        out[name] = at.s;
        p = at.p;
      }
    }
  }
  // what follows the fields: nothing, or from version 4 the zero bytes up to a whole word
  if (p > body.length || (words ? body.length - p > 3 || body.subarray(p).some((b) => b !== 0) : p !== body.length)) return null;
  // the optional facts only when set (a record of an older version has none), as unpackClicks gives them
  for (const name of OPTIONAL) if (out[name] === null) delete out[name];
  return { ...out, clickedAt: new Date(out.clickedAt as number), isBot: out.isBot === 1 } as JournalClick;
}
