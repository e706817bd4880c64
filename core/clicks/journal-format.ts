import { clickNoOf, type PendingClick } from "./packed";
import { recordCheck } from "./record-check";

export { recordCheck };

/**
 * The byte layout of one click in the click journal. A record is
 *
 *   u32 size    bytes of the whole record, this field included; written last, so 0 marks the end
 *   u32 check   of the bytes after this field up to `size` (see recordCheck)
 *   u8  version which field list follows (JOURNAL_FIELDS)
 *   the fields of that version, in order: `f64` a number (NaN = null), `u8` 0/1, `str` a u16 byte
 *   length (0xFFFF = null) and that many UTF-8 bytes, `id` a string written as `str` that is never a
 *   reference nor enters the string table (a click id: every click has its own); `parts` a click id
 *   in parts (click-id.ts): its prefix as `str` (null: no id), then unless null an `f64` number (NaN:
 *   the string is a whole id that is not in parts)
 *   from version 4: zero bytes up to a multiple of 4 (so the check reads whole 32-bit words)
 *
 * From version 3 a string may instead be a reference to one written earlier in the same segment
 * (0xFFFE, then its u16 index): each string written out in full with more than REF_MIN_BYTES bytes
 * takes the next index of the segment's string table, until it holds MAX_TABLE. User agents,
 * addresses and referrers repeat from click to click, so most records carry their numbers and a
 * few indexes; a segment is read from its start, so the reader rebuilds the same table.
 *
 * Up to version 3 the check is a CRC-32 (Bun.hash.crc32), which took 0.1 µs of a 0.25 µs append:
 * the native call and the view of the record it needs. From version 4 it is MurmurHash3 (x86,
 * 32-bit) over the record's 32-bit words, computed in JavaScript through the segment's DataView, with
 * no call and no allocation (about 15 ns for a 70-byte record). Both catch a torn or damaged record
 * with the same odds (one in 2^32 for random bytes).
 *
 * To add a field: a new entry of JOURNAL_FIELDS that is the previous list plus the field, the field
 * written at the end of encodeRecord, the property on PendingClick (optional: OPTIONAL below), and
 * JOURNAL_VERSION bumped. Records written by an older version are still read (the new field is
 * absent from them), so a journal left by the previous release replays. Version 2 is version 1 plus
 * rule, variant, visitor and geo, added so.
 */
const FIELDS_V1 = [
  ["seq", "f64"],
  ["linkId", "f64"],
  ["clickedAt", "f64"],
  ["isBot", "u8"],
  ["ip", "str"],
  ["userAgent", "str"],
  ["referer", "str"],
  ["botName", "str"],
] as const;

export const JOURNAL_FIELDS = {
  1: FIELDS_V1,
  // v2: which redirect rule and A/B variant sent the visitor, and under PRIVACY_IP truncate/none the
  // keyed visitor hash and the `country\ncity` worked out on the request (the address is not kept)
  2: [...FIELDS_V1, ["rule", "f64"], ["variant", "f64"], ["visitor", "str"], ["geo", "str"]],
  // v3: the fields of v2; strings may be references to the segment's string table
  3: [...FIELDS_V1, ["rule", "f64"], ["variant", "f64"], ["visitor", "str"], ["geo", "str"]],
  // v4: the fields of v3, padded to whole words, checked by recordCheck instead of CRC-32
  4: [...FIELDS_V1, ["rule", "f64"], ["variant", "f64"], ["visitor", "str"], ["geo", "str"]],
  // v5: the fields of v4, then the click id (fixed at the redirect, so a replayed click keeps it) and
  // the short link's sub1…sub5 and fbclid parameters (PendingClick.params)
  5: [...FIELDS_V1, ["rule", "f64"], ["variant", "f64"], ["visitor", "str"], ["geo", "str"], ["clickId", "id"], ["params", "str"]],
  // v6: the fields of v5, the click id in parts (`parts`; click-id.ts)
  6: [...FIELDS_V1, ["rule", "f64"], ["variant", "f64"], ["visitor", "str"], ["geo", "str"], ["clickId", "parts"], ["params", "str"]],
  // v7: the fields of v6, then the short link's raw query (the writer reads the sub parameters from
  // it; `params` only for a query too long to keep); the click id's counter has all 8 digits
  // (click-id.ts), and the prefix of a `parts` field enters the string table whatever its length (PARTS_TABLE_FROM)
  7: [
    ...FIELDS_V1,
    ["rule", "f64"],
    ["variant", "f64"],
    ["visitor", "str"],
    ["geo", "str"],
    ["clickId", "parts"],
    ["params", "str"],
    ["query", "str"],
  ],
} as const satisfies Record<number, readonly (readonly [string, "f64" | "u8" | "str" | "id" | "parts"])[]>;

export const JOURNAL_VERSION = 7;
/** The first version whose strings may be references. */
export const REFS_FROM = 3;
/** The first version padded to whole words and checked by recordCheck (earlier ones: CRC-32). */
export const WORDS_FROM = 4;
/**
 * The first version whose `parts` prefix written in full always enters the table (a whole id never
 * does): the prefix (7 characters) was under REF_MIN_BYTES, so every record wrote it out again, a
 * native call of the append's; now it is a 4-byte reference after its first record in a segment.
 */
export const PARTS_TABLE_FROM = 7;
export const REF = 0xfffe;
/** Strings of at most this many bytes are always written in full (a reference takes 4). */
export const REF_MIN_BYTES = 8;
/** Strings a segment's table holds at most; later ones are written in full. */
export const MAX_TABLE = 0xfff0;

/** The strings a segment has written in full so far, by index (the writer's side). */
export class StringTable {
  readonly ids = new Map<string, number>();
}
/** PendingClick's optional fields: left out of a decoded click when null. */
export const OPTIONAL = ["rule", "variant", "visitor", "geo", "clickId", "params", "query"] as const;
export const HEADER = 8;
export const NULL_STR = 0xffff;

/** The longest string kept per field (in UTF-16 units, as String.prototype.slice counts); the writer stores no more of them. */
export const MAX_CHARS = {
  ip: 64,
  userAgent: 1024,
  referer: 2048,
  botName: 256,
  visitor: 128,
  geo: 512,
  clickId: 24,
  params: 1536,
  query: 2048,
} as const;
/** No record is longer (every string at its bound, 3 UTF-8 bytes per unit, and 3 bytes of padding): a segment with less room left is closed. */
export const MAX_RECORD =
  HEADER +
  1 +
  6 * 8 +
  1 +
  9 * 2 +
  3 +
  3 *
    (MAX_CHARS.ip +
      MAX_CHARS.userAgent +
      MAX_CHARS.referer +
      MAX_CHARS.botName +
      MAX_CHARS.visitor +
      MAX_CHARS.geo +
      MAX_CHARS.clickId +
      MAX_CHARS.params +
      MAX_CHARS.query);

const cut = (s: string | null, max: number) => (s !== null && s.length > max ? s.slice(0, max) : s);

/**
 * The click with its strings cut to MAX_CHARS (UTF-16 units, as String.prototype.slice counts): what
 * the journal holds and the writer stores, so a replayed click is stored exactly like a live one.
 */
export function cutClick(c: PendingClick): PendingClick {
  if (
    (c.userAgent?.length ?? 0) <= MAX_CHARS.userAgent &&
    (c.referer?.length ?? 0) <= MAX_CHARS.referer &&
    (c.ip?.length ?? 0) <= MAX_CHARS.ip &&
    (c.botName?.length ?? 0) <= MAX_CHARS.botName &&
    (c.visitor?.length ?? 0) <= MAX_CHARS.visitor &&
    (c.geo?.length ?? 0) <= MAX_CHARS.geo &&
    (c.clickId?.length ?? 0) <= MAX_CHARS.clickId &&
    (c.params?.length ?? 0) <= MAX_CHARS.params &&
    (c.query?.length ?? 0) <= MAX_CHARS.query
  )
    return c;
  const out: PendingClick = {
    ...c,
    ip: cut(c.ip, MAX_CHARS.ip),
    userAgent: cut(c.userAgent, MAX_CHARS.userAgent),
    referer: cut(c.referer, MAX_CHARS.referer),
    botName: cut(c.botName, MAX_CHARS.botName),
  };
  if (c.visitor != null) out.visitor = cut(c.visitor, MAX_CHARS.visitor);
  if (c.geo != null) out.geo = cut(c.geo, MAX_CHARS.geo);
  if (c.clickId != null) out.clickId = cut(c.clickId, MAX_CHARS.clickId);
  if (c.params != null) out.params = cut(c.params, MAX_CHARS.params);
  if (c.query != null) out.query = cut(c.query, MAX_CHARS.query);
  return out;
}

/** Bytes to write records into (a mapped segment), with the DataView the encoder writes through: made once per segment. */
export interface RecordBuffer {
  bytes: Buffer;
  view: DataView;
}
export const recordBuffer = (bytes: Buffer): RecordBuffer => ({
  bytes,
  view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
});

/**
 * Writes `c` (its strings already cut by cutClick) as one record at `off` of `out` (which has
 * MAX_RECORD bytes of room there, `off` a multiple of 4) and returns the record's size (a multiple
 * of 4). The size field goes last, so a process killed in the middle leaves a record that reads as
 * the end of the journal.
 */
export function encodeRecord(out: RecordBuffer, off: number, seq: number, c: PendingClick, table: StringTable): number {
  const { bytes, view } = out;
  let p = off + HEADER;
  bytes[p] = JOURNAL_VERSION;
  view.setFloat64(p + 1, seq, true);
  view.setFloat64(p + 9, c.linkId, true);
  view.setFloat64(p + 17, c.clickedAt.getTime(), true);
  bytes[p + 25] = c.isBot ? 1 : 0;
  p = writeStr(out, p + 26, c.ip, table);
  p = writeStr(out, p, c.userAgent, table);
  p = writeStr(out, p, c.referer, table);
  p = writeStr(out, p, c.botName, table);
  view.setFloat64(p, c.rule ?? NaN, true);
  view.setFloat64(p + 8, c.variant ?? NaN, true);
  p = writeStr(out, p + 16, c.visitor ?? null, table);
  p = writeStr(out, p, c.geo ?? null, table);
  p = writeParts(out, p, c, table);
  p = writeStr(out, p, c.params ?? null, table);
  p = writeStr(out, p, c.query ?? null, table);
  while ((p - off) & 3) bytes[p++] = 0;
  view.setUint32(off + 4, recordCheck(view, off + HEADER, p), true);
  view.setUint32(off, p - off, true);
  return p - off;
}

/** A `parts` field: the click id's prefix as a string (a reference after its first time), then its number; or the whole id and NaN when it is not in parts; null alone when none. */
function writeParts(out: RecordBuffer, p: number, c: PendingClick, table: StringTable): number {
  const id = clickNoOf(c);
  const str = id ? id.clickPrefix : (c.clickId ?? null);
  p = writeStr(out, p, str, table, id !== null);
  if (str === null) return p;
  out.view.setFloat64(p, id ? id.clickNo : NaN, true);
  return p + 8;
}

/**
 * Writes `s` in full or as a reference to the segment's `table`; with no table (an `id` field), always
 * in full and never entered. Written in full, it enters the table when longer than REF_MIN_BYTES, or
 * whatever its length with `always` (a `parts` field's prefix, PARTS_TABLE_FROM).
 */
function writeStr({ bytes, view }: RecordBuffer, p: number, s: string | null, table: StringTable | null, always = false): number {
  if (s === null) {
    view.setUint16(p, NULL_STR, true);
    return p + 2;
  }
  if (table === null) {
    const n = s.length === 0 ? 0 : bytes.write(s, p + 2, "utf8");
    view.setUint16(p, n, true);
    return p + 2 + n;
  }
  const id = table.ids.get(s);
  if (id !== undefined) {
    view.setUint16(p, REF, true);
    view.setUint16(p + 2, id, true);
    return p + 4;
  }
  const n = s.length === 0 ? 0 : bytes.write(s, p + 2, "utf8");
  view.setUint16(p, n, true);
  if ((always || n > REF_MIN_BYTES) && table.ids.size < MAX_TABLE) table.ids.set(s, table.ids.size);
  return p + 2 + n;
}
