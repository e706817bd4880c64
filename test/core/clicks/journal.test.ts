import { afterEach, beforeEach, expect, test } from "bun:test";
import { appendFileSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { CLICK_JOURNAL_DIR } from "../../../config";
import { journalSegments, openClickJournal, readJournal } from "../../../core/clicks/journal";
import {
  JOURNAL_FIELDS,
  JOURNAL_VERSION,
  MAX_CHARS,
  MAX_RECORD,
  REF_MIN_BYTES,
  StringTable,
  cutClick,
  encodeRecord,
  recordBuffer,
  recordCheck,
} from "../../../core/clicks/journal-format";
import { decodeSegment } from "../../../core/clicks/journal-decode";
import type { PendingClick } from "../../../core/clicks/packed";
import { clickJournal, clicks, links, outbox } from "../../../db/schema";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

let t: TestApp;
let token: string;
let firstDir: string;
beforeEach(async () => {
  t = createTestApp();
  firstDir = t.dataDir;
  token = (await t.telegramUser()).token;
});
afterEach(() => {
  t.close();
  rmSync(firstDir, { recursive: true, force: true });
});

const journalDir = () => join(t.dataDir, CLICK_JOURNAL_DIR);
const newLink = async () =>
  (await t.request("POST", "/api/links", { token, body: { url: "https://ok.example/" } })).json as { id: number; code: string };
const click = (linkId: number, i: number): PendingClick => ({
  linkId,
  clickedAt: new Date(1_700_000_000_000 + i),
  ip: `198.51.100.${i % 250}`,
  userAgent: `${CHROME} ${i}`,
  referer: i % 2 ? "https://t.me/c" : null,
  isBot: false,
  botName: null,
});
const stored = (linkId: number) => t.deps.db.select().from(clicks).where(eq(clicks.linkId, linkId)).orderBy(clicks.id).all();
const mark = () => t.deps.db.select({ journal: clickJournal.journal, seq: clickJournal.seq }).from(clickJournal).all();

/** The service as after a restart on the same DATA_DIR: a new app whose sink starts (and so replays). */
async function restart(): Promise<TestApp> {
  t.app.server?.stop(true);
  t.deps.handle.close();
  t = { ...createTestApp({ env: { DATA_DIR: firstDir } }), dataDir: firstDir };
  await t.deps.clicks.start();
  return t;
}

test("a record holds every field of the click and reads back the same, strings of any script, nulls kept", () => {
  const out = recordBuffer(Buffer.alloc(64 * 1024));
  const buf = out.bytes;
  const c: PendingClick = {
    linkId: 42,
    clickedAt: new Date(1_700_000_123_456),
    ip: "2001:db8::1",
    userAgent: "Агент/1.0 😀",
    referer: null,
    isBot: true,
    botName: "TelegramBot",
  };
  const table = new StringTable();
  const size = encodeRecord(out, 0, 7, c, table);
  expect(size % 4).toBe(0); // padded to whole words
  const seg = decodeSegment(buf);
  expect(seg).toStrictEqual({ records: [{ ...c, seq: 7 }], end: size, torn: false });
  expect(buf[8]).toBe(JOURNAL_VERSION); // the version byte follows the size and the checksum
  // rule, variant and the request-side privacy facts go through too
  const routed: PendingClick = { ...c, ip: "203.0.113.0", rule: 3, variant: 0, visitor: "k-one", geo: "DE\nBerlin" };
  encodeRecord(out, size, 8, routed, table);
  expect(decodeSegment(buf).records[1]).toStrictEqual({ ...routed, seq: 8 });
});

test("a whole record with any one byte changed reads as torn: the check covers every byte after it, the padding too", () => {
  const c: PendingClick = {
    linkId: 3,
    clickedAt: new Date(1_700_000_000_000),
    ip: "198.51.100.23",
    userAgent: CHROME,
    referer: "https://t.me/c",
    isBot: false,
    botName: null,
  };
  const out = recordBuffer(Buffer.alloc(4096));
  const size = encodeRecord(out, 0, 1, c, new StringTable());
  expect(decodeSegment(out.bytes).records).toHaveLength(1);
  for (let at = 4; at < size; at++) {
    const damaged = Buffer.from(out.bytes);
    damaged[at] = damaged[at]! ^ 0x10;
    expect(decodeSegment(damaged)).toMatchObject({ records: [], torn: true });
  }
  // the check is MurmurHash3 (x86, 32-bit, seed 0) of the words: the reference values of that function
  const words = (hex: string) => new DataView(Buffer.from(hex, "hex").buffer);
  expect(recordCheck(words(""), 0, 0)).toBe(0);
  expect(recordCheck(words("21436587"), 0, 4)).toBe(0xf55b516b);
});

test("a string written in full earlier in the segment is written as a reference: records shrink and read back the same", () => {
  const buf = recordBuffer(Buffer.alloc(64 * 1024));
  const table = new StringTable();
  const c = (i: number): PendingClick => ({
    linkId: 1,
    clickedAt: new Date(1_700_000_000_000 + i),
    ip: "198.51.100.23",
    userAgent: CHROME,
    referer: i % 2 ? "https://t.me/somechannel" : null,
    isBot: false,
    botName: null,
    visitor: "v",
    geo: "DE\nBerlin",
  });
  const sizes: number[] = [];
  let off = 0;
  for (let i = 0; i < 4; i++) off += sizes[sizes.push(encodeRecord(buf, off, i + 1, c(i), table)) - 1]!;
  // the first record carries the agent (and the address and place) in full; the second the referrer too; later ones refer to them
  expect(sizes[0]).toBeGreaterThan(CHROME.length);
  expect(sizes[2]).toBeLessThan(80);
  // the fourth refers to the referrer (4 bytes) where the third had none (2); the second had it in full
  expect(sizes[3]! - sizes[2]!).toBeLessThanOrEqual(4);
  expect(sizes[1]! - sizes[3]!).toBeGreaterThanOrEqual("https://t.me/somechannel".length - 4);
  expect(decodeSegment(buf.bytes).records).toStrictEqual([0, 1, 2, 3].map((i) => ({ ...c(i), seq: i + 1 })));
  // short strings ("v") are always written in full: a reference would be no shorter
  expect("v".length).toBeLessThanOrEqual(REF_MIN_BYTES);
  // a reference to an index the segment never wrote reads as a torn record, as does anything after it
  const forged = recordBuffer(Buffer.alloc(64 * 1024));
  const one = encodeRecord(forged, 0, 1, c(0), new StringTable());
  const other = new StringTable();
  for (let i = 0; i < 5; i++) other.ids.set(`unrelated-string-${i}`, i);
  other.ids.set(CHROME, 5);
  encodeRecord(forged, one, 2, c(1), other);
  expect(decodeSegment(forged.bytes)).toMatchObject({ records: [{ seq: 1 }], torn: true });
});

/**
 * A record as a release before version 4 wrote it (CRC-32, not padded), byte by byte: `fields` gets
 * writers for a number, a string (or null) and raw bytes.
 */
function legacyRecord(
  version: number,
  fields: (w: { f64: (v: number) => void; str: (s: string | null) => void; raw: (...b: number[]) => void }) => void,
  framing: "crc32" | "padded" = "crc32",
): Buffer {
  const body: number[] = [version];
  const raw = (...b: number[]) => void body.push(...b);
  fields({
    f64: (v) => raw(...new Uint8Array(new Float64Array([v]).buffer)),
    str: (s) => {
      if (s === null) return raw(0xff, 0xff);
      const bytes = Buffer.from(s, "utf8");
      raw(bytes.length & 0xff, bytes.length >> 8, ...bytes);
    },
    raw,
  });
  // later versions pad a record to whole words and check it with recordCheck instead of CRC-32
  if (framing === "padded") while ((8 + body.length) % 4) raw(0);
  const rec = Buffer.alloc(8 + body.length);
  Buffer.from(body).copy(rec, 8);
  const check =
    framing === "padded"
      ? recordCheck(new DataView(rec.buffer, rec.byteOffset, rec.byteLength), 8, rec.length)
      : Bun.hash.crc32(rec.subarray(8)) >>> 0;
  rec.writeUInt32LE(check, 4);
  rec.writeUInt32LE(rec.length, 0);
  return rec;
}

test("version 2 is version 1 plus four fields, and a record written by version 1 still reads (without them)", () => {
  const v1 = JOURNAL_FIELDS[1].map(([name]) => name);
  expect(v1).toEqual(["seq", "linkId", "clickedAt", "isBot", "ip", "userAgent", "referer", "botName"]);
  expect(JOURNAL_FIELDS[2].map(([name]) => name)).toEqual([...v1, "rule", "variant", "visitor", "geo"]);
  const rec = legacyRecord(1, ({ f64, str, raw }) => {
    f64(5);
    f64(9);
    f64(1_700_000_000_000);
    raw(0);
    str("198.51.100.7");
    str(CHROME);
    str(null);
    str(null);
  });
  expect(decodeSegment(rec).records).toStrictEqual([
    {
      seq: 5,
      linkId: 9,
      clickedAt: new Date(1_700_000_000_000),
      isBot: false,
      ip: "198.51.100.7",
      userAgent: CHROME,
      referer: null,
      botName: null,
    },
  ]);
});

/** The fields every legacy version writes first: seq, link 9, the time, not a bot, an address, the agent in full or by reference, no referer, no bot name. */
function sharedFields(w: Parameters<Parameters<typeof legacyRecord>[1]>[0], seq: number, agent: "full" | "ref"): void {
  w.f64(seq);
  w.f64(9);
  w.f64(1_700_000_000_000 + seq);
  w.raw(0);
  w.str("2001:db8::7");
  if (agent === "full") w.str(CHROME);
  else w.raw(0xfe, 0xff, 1, 0); // index 1: the address took index 0
  w.str(null);
  w.str(null);
}

test("a segment written by version 3 (CRC-32, records not padded, string references) still reads", () => {
  // two version 3 records: the second refers to the first's agent
  const record = (seq: number, agent: "full" | "ref") =>
    legacyRecord(3, (w) => {
      const { f64, str } = w;
      sharedFields(w, seq, agent);
      f64(NaN);
      f64(2);
      str(null);
      str(null);
    });
  const first = record(1, "full");
  const second = record(2, "ref");
  expect(first.length % 4 !== 0 || second.length % 4 !== 0).toBe(true); // unpadded
  const segment = Buffer.concat([first, second, Buffer.alloc(16)]);
  const click = (seq: number) => ({
    seq,
    linkId: 9,
    clickedAt: new Date(1_700_000_000_000 + seq),
    isBot: false,
    ip: "2001:db8::7",
    userAgent: CHROME,
    referer: null,
    botName: null,
    variant: 2,
  });
  expect(decodeSegment(segment)).toStrictEqual({ records: [click(1), click(2)], end: first.length + second.length, torn: false });
});

test("a segment written by version 6 still reads: its click ids keep the unpadded counter their visitors were sent", () => {
  // version 6: padded to words, checked by recordCheck; the click id's prefix (7 bytes) written in full every time, never a reference
  const record = (seq: number, agent: "full" | "ref") =>
    legacyRecord(
      6,
      (w) => {
        const { f64, str } = w;
        sharedFields(w, seq, agent);
        f64(NaN);
        f64(NaN);
        str(null);
        str(null);
        str("AbCdEfG");
        f64(34 + seq);
        str(seq === 2 ? "net-a\n\n\n\n\n" : null);
      },
      "padded",
    );
  const first = record(1, "full");
  const second = record(2, "ref");
  const segment = Buffer.concat([first, second, Buffer.alloc(16)]);
  const click = (seq: number, clickId: string) => ({
    seq,
    linkId: 9,
    clickedAt: new Date(1_700_000_000_000 + seq),
    isBot: false,
    ip: "2001:db8::7",
    userAgent: CHROME,
    referer: null,
    botName: null,
    clickId,
  });
  expect(decodeSegment(segment)).toStrictEqual({
    records: [click(1, "9_AbCdEfGz"), { ...click(2, "9_AbCdEfG10"), params: "net-a\n\n\n\n\n" }],
    end: first.length + second.length,
    torn: false,
  });
});

test("version 7 writes the click id's prefix once per segment (then a reference) and its counter with all 8 digits", () => {
  const out = recordBuffer(Buffer.alloc(4 * MAX_RECORD));
  const table = new StringTable();
  const rec = (seq: number): PendingClick => ({ ...click(9, seq), clickPrefix: "AbCdEfG", clickNo: 34 + seq });
  const one = encodeRecord(out, 0, 1, rec(1), table);
  const two = encodeRecord(out, one, 2, rec(2), table);
  expect(two).toBeLessThan(one); // the prefix's 7 bytes became a 2-byte index
  const { records } = decodeSegment(out.bytes);
  expect(records.map((r) => r.clickId)).toEqual(["9_AbCdEfG0000000z", "9_AbCdEfG00000010"]);
});

test("strings are cut to their bounds before they are journaled, as the writer would store them", () => {
  const long = cutClick({ ...click(1, 1), userAgent: "u".repeat(5000), referer: "r".repeat(5000) });
  expect([long.userAgent!.length, long.referer!.length]).toEqual([MAX_CHARS.userAgent, MAX_CHARS.referer]);
  const plain = click(1, 2);
  expect(cutClick(plain)).toBe(plain); // nothing to cut: the same object, no copy on the hot path
});

test("segments: a new one when the current is full, and those wholly committed are deleted", async () => {
  const dir = journalDir();
  const j = openClickJournal(dir, 1, { segmentBytes: 32 * 1024 }); // the smallest allowed: two records of the longest kind
  for (let i = 0; i < 400; i++) expect(j.append(click(1, i))).toBe(i + 1);
  const segments = journalSegments(dir);
  expect(segments.length).toBeGreaterThan(2);
  expect(readJournal(dir).records.map((r) => r.seq)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
  j.committed(400);
  expect(journalSegments(dir)).toEqual([segments.at(-1)!]); // the open one stays until a restart replays it
  j.close();
  await j.spareReady();
});

test("a segment is mapped a window at a time: records on both sides of every window's edge read back whole, in order", async () => {
  const dir = journalDir();
  const windowBytes = MAX_RECORD + 64 * 1024; // the smallest allowed
  const j = openClickJournal(dir, 1, { segmentBytes: 4 * windowBytes, windowBytes });
  // every click with an agent of its own, written in full: about 200 bytes a record, so windows and segments fill
  const many = Array.from({ length: 3000 }, (_, i) => click(1, i));
  for (const [i, c] of many.entries()) expect(j.append(c)).toBe(i + 1);
  const { records, torn, segments } = readJournal(dir);
  expect(segments.length).toBeGreaterThan(1);
  const perSegment = Math.ceil(records.length / segments.length);
  expect(perSegment * 200).toBeGreaterThan(2 * windowBytes); // each segment spans several windows
  expect(torn).toBe(0);
  expect(records).toStrictEqual(many.map((c, i) => ({ ...c, seq: i + 1 })));
  j.close();
  await j.spareReady();
});

test("the next segment is written out in the background, so appends never land in a hole of a sparse file", async () => {
  const dir = journalDir();
  const bytes = 32 * 1024;
  const j = openClickJournal(dir, 1, { segmentBytes: bytes });
  await j.spareReady(); // the first segment's file, written out before the first click
  j.append(click(1, 0));
  const [first] = journalSegments(dir);
  expect(statSync(first!).blocks * 512).toBeGreaterThanOrEqual(bytes); // allocated, not sparse
  await j.spareReady(); // and the one after it
  for (let i = 1; i < 200; i++) j.append(click(1, i));
  const second = journalSegments(dir)[1]!;
  expect(statSync(second).blocks * 512).toBeGreaterThanOrEqual(bytes);
  expect(readJournal(dir).records).toHaveLength(200); // the spare file itself is never read as a segment
  j.close();
  await j.spareReady();
});

test("a journal cut in the middle of its last record: the whole records are written, the cut one is ignored, nothing twice", async () => {
  const l = await newLink();
  await t.deps.clicks.start(); // journal open (nothing to replay yet)
  for (let i = 0; i < 10; i++) t.deps.clicks.record(click(l.id, i));
  const [segment] = journalSegments(journalDir());
  const whole = decodeSegment(readFileSync(segment!));
  expect(whole.records).toHaveLength(10);
  // the process dies while appending the 10th: its record is only partly there (the file is cut in it)
  truncateSync(segment!, whole.end - 5);

  await restart();
  expect(stored(l.id).map((r) => r.clickedAt.getTime())).toEqual(Array.from({ length: 9 }, (_, i) => 1_700_000_000_000 + i));
  expect(t.logs.some((line) => line.includes("9 clicks written again") && line.includes("torn"))).toBe(true);
  expect(journalSegments(journalDir())).toEqual([]); // the replayed segment is gone; the next click starts a fresh one

  // and a second restart writes nothing more
  await restart();
  expect(stored(l.id)).toHaveLength(9);
});

test("a damaged record (bytes changed after it was whole) ends the replay there; what follows it is not taken for clicks", async () => {
  const l = await newLink();
  await t.deps.clicks.start();
  for (let i = 0; i < 5; i++) t.deps.clicks.record(click(l.id, i));
  const [segment] = journalSegments(journalDir());
  const bytes = readFileSync(segment!);
  const end = decodeSegment(bytes).end;
  // garbage where the next record would go: a size that fits and a wrong checksum
  const junk = Buffer.alloc(40, 0xab);
  junk.writeUInt32LE(40, 0);
  junk.copy(bytes, end);
  writeFileSync(segment!, bytes);
  await restart();
  expect(stored(l.id)).toHaveLength(5);
});

test("a batch that committed while its journal segment stayed behind is not written again at start", async () => {
  const l = await newLink();
  await t.deps.clicks.start();
  for (let i = 0; i < 20; i++) t.deps.clicks.record(click(l.id, i));
  expect(await t.deps.clicks.flush()).toBe(20); // committed with its mark in the same transaction
  expect(mark()).toEqual([{ journal: "local", seq: 20 }]);
  expect(readJournal(journalDir()).records).toHaveLength(20); // the segment still holds them (the process dies before it goes)

  await restart();
  expect(stored(l.id)).toHaveLength(20);
  expect(t.deps.db.select().from(links).where(eq(links.id, l.id)).get()!.totalClicks).toBe(20);
});

test("killed between two batches: the committed one is kept, the queued one is written from the journal, each click once", async () => {
  const l = await newLink();
  const webhook = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
  try {
    expect(
      (await t.request("PATCH", `/api/links/${l.id}`, { token, body: { webhook_url: `http://127.0.0.1:${webhook.port}/hook` } })).status,
    ).toBe(200);
    await t.deps.clicks.start();
    for (let i = 0; i < 12; i++) t.deps.clicks.record(click(l.id, i));
    expect(await t.deps.clicks.flush()).toBe(12);
    for (let i = 12; i < 30; i++) t.deps.clicks.record(click(l.id, i)); // answered, not written: the process is killed now

    await restart();
    expect(stored(l.id).map((r) => r.clickedAt.getTime() - 1_700_000_000_000)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(mark()).toEqual([{ journal: "local", seq: 30 }]);
    // the replayed clicks went through the listeners like live ones: one webhook queued per click, roll-ups counted
    expect(t.deps.db.select().from(outbox).where(eq(outbox.topic, "click_webhook")).all()).toHaveLength(30);
    const rolled = t.deps.db.$client
      .query("select sum(clicks) as n from link_stats_time where link_id = ? and span = 3600000")
      .get(l.id) as { n: number };
    expect(rolled.n).toBe(30);

    // new clicks continue the sequence after the replayed ones
    t.deps.clicks.record(click(l.id, 30));
    expect(await t.deps.clicks.flush()).toBe(1);
    expect(mark()).toEqual([{ journal: "local", seq: 31 }]);
  } finally {
    webhook.stop(true);
  }
});

test("the journal directory and its segments are readable by the service's user only", async () => {
  await t.deps.clicks.start();
  t.deps.clicks.record(click((await newLink()).id, 1));
  expect(statSync(journalDir()).mode & 0o777).toBe(0o700);
  expect(statSync(journalSegments(journalDir())[0]!).mode & 0o777).toBe(0o600);
  appendFileSync(join(journalDir(), "notes.txt"), "x"); // other files there are not segments
  expect(journalSegments(journalDir())).toHaveLength(1);
});

test("under PRIVACY_IP=none and truncate the journal never holds the visitor's full address", async () => {
  for (const mode of ["none", "truncate"]) {
    const app = createTestApp({ env: { PRIVACY_IP: mode, TRUST_PROXY: "true" } });
    try {
      const { token: own } = await app.telegramUser();
      const l = (await app.request("POST", "/api/links", { token: own, body: { url: "https://ok.example/" } })).json as { code: string };
      await app.deps.clicks.start();
      const res = await app.request("GET", `/${l.code}`, { headers: { "user-agent": CHROME, "x-forwarded-for": "203.0.113.77" } });
      expect(res.status).toBe(302);
      const bytes = readFileSync(journalSegments(join(app.dataDir, CLICK_JOURNAL_DIR))[0]!);
      const [record] = decodeSegment(bytes).records;
      expect(record!.ip).toBe(mode === "none" ? null : "203.0.113.0");
      expect(record!.visitor).toMatch(/^[0-9a-f]{32}$/);
      expect(bytes.includes(Buffer.from("203.0.113.77"))).toBe(false);
      await app.deps.clicks.stop();
    } finally {
      app.close();
    }
  }
});

test("the oldest waiting click's time after a quiet spell is that click's, not the last one before the spell", async () => {
  const l = await newLink();
  await t.deps.clicks.start();
  t.deps.clicks.record(click(l.id, 0));
  expect(await t.deps.clicks.flush()).toBe(1);
  expect(t.deps.clicks.backlog()).toEqual({ clicks: 0, oldestAt: null });
  // half an hour later (the click's own time), one click waits: its age starts now
  t.deps.clicks.record(click(l.id, 1_800_000));
  expect(t.deps.clicks.backlog()).toEqual({ clicks: 1, oldestAt: 1_700_000_000_000 + 1_800_000 });
}, 30_000);
