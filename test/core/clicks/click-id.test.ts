import { afterEach, beforeEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import {
  clickIdOf,
  clickParams,
  clickPrefix,
  linkOfClickId,
  newClickId,
  nextClickNo,
  paramsOf,
  queryParams,
  splitClickId,
} from "../../../core/clicks/click-id";
import { MAX_CHARS, StringTable, encodeRecord, recordBuffer, recordCheck } from "../../../core/clicks/journal-format";
import { readJournal } from "../../../core/clicks/journal";
import { CLICK_JOURNAL_DIR } from "../../../config";
import { decodeSegment } from "../../../core/clicks/journal-decode";
import { packClicks, unpackClicks, type PendingClick } from "../../../core/clicks/packed";
import { clicks } from "../../../db/schema";

test("click ids are URL-safe, at most 24 characters, all different, and name their link", () => {
  const ids = new Set<string>();
  for (let i = 0; i < 100_000; i++) ids.add(newClickId(1 + (i % 7)));
  expect(ids.size).toBe(100_000);
  for (const id of [...ids].slice(0, 1000)) expect(id).toMatch(/^[A-Za-z0-9_-]{1,24}$/);
  const big = newClickId(36 ** 8 - 1);
  expect(big.length).toBeLessThanOrEqual(24);
  expect(linkOfClickId(big)).toBe(36 ** 8 - 1);
  expect(linkOfClickId(newClickId(4242))).toBe(4242);
  for (const bad of ["", "abc", "_x", "ZZ_abcdefgh", "1_short", "a".repeat(30)]) expect(linkOfClickId(bad)).toBeNull();
});

test("sub1…sub5 and fbclid of the short link's query are kept; other parameters are not", () => {
  expect(clickParams(queryParams("utm_source=x&ref=y"))).toBeNull();
  const kept = clickParams(queryParams("sub2=b%0Ac&sub5=%D0%B5&fbclid=IwAR&x=1"));
  expect(paramsOf(kept)).toEqual({ sub1: null, sub2: "b c", sub3: null, sub4: null, sub5: "е", fbclid: "IwAR" });
  expect(paramsOf(clickParams(queryParams(`sub1=${"z".repeat(400)}`))).sub1).toHaveLength(255);
});

/** A plain click on link `linkId`, with no click id. */
const clickOn = (linkId: number): PendingClick => ({
  linkId,
  clickedAt: new Date(1_700_000_000_000),
  ip: "198.51.100.7",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0",
  referer: null,
  isBot: false,
  botName: null,
});

test("a journal record keeps the click id and the parameters; click ids never fill the segment's string table", () => {
  const out = recordBuffer(Buffer.alloc(64 * 1024));
  const table = new StringTable();
  const base = clickOn(9);
  let off = 0;
  const written: PendingClick[] = [];
  for (let i = 0; i < 50; i++) {
    const c: PendingClick = { ...base, clickId: newClickId(9), params: i % 2 ? "net-a\n\n\n\n\nIwAR0" : null };
    off += encodeRecord(out, off, i + 1, c, table);
    written.push(c);
  }
  const records = decodeSegment(out.bytes).records;
  expect(records.map((r) => [r.clickId, r.params ?? null])).toEqual(written.map((c) => [c.clickId, c.params]));
  // the agent, the address, the one parameter string and the prefix the ids share: 50 distinct click ids took no place
  expect(table.ids.size).toBe(4);
});

test("a click recorded in parts (prefix and number) is journaled and packed as them, and reads back as the id clickIdOf makes", () => {
  const base = clickOn(77);
  const clicks = Array.from({ length: 1000 }, (): PendingClick => {
    const clickNo = nextClickNo();
    return { ...base, clickPrefix: clickPrefix(), clickNo };
  });
  const ids = clicks.map((c) => clickIdOf(77, c.clickPrefix!, c.clickNo!));
  expect(new Set(ids).size).toBe(1000);
  for (const id of ids) expect(linkOfClickId(id)).toBe(77);
  // in a batch: one string for all their ids (the prefix), beside the agent and the address
  const packed = packClicks(clicks);
  expect(packed.strings).toHaveLength(3);
  expect(unpackClicks(packed).map((c) => c.clickId)).toEqual(ids);
  // in the journal: the same ids read back
  const out = recordBuffer(Buffer.alloc(256 * 1024));
  let off = 0;
  clicks.forEach((c, i) => (off += encodeRecord(out, off, i + 1, c, new StringTable())));
  expect(decodeSegment(out.bytes).records.map((r) => r.clickId)).toEqual(ids);
  // an id given whole is kept in parts when it is one of ours, and as it is otherwise
  expect(splitClickId(77, ids[5]!)).toEqual({ clickPrefix: clicks[5]!.clickPrefix!, clickNo: clicks[5]!.clickNo! });
  for (const other of [
    "net-42",
    `${ids[5]}-`,
    `77_${clicks[5]!.clickPrefix}0${clicks[5]!.clickNo!.toString(36)}`,
    ids[5]!.replace(/^[^_]+/, "zz"),
  ]) {
    expect(splitClickId(77, other)).toBeNull();
    expect(unpackClicks(packClicks([{ ...base, clickId: other }]))[0]!.clickId).toBe(other);
    const one = recordBuffer(Buffer.alloc(4096));
    encodeRecord(one, 0, 1, { ...base, clickId: other }, new StringTable());
    expect(decodeSegment(one.bytes).records[0]!.clickId).toBe(other);
  }
});

test("a segment written by version 5 (click ids whole) still reads", () => {
  // a version 5 record byte by byte: padded to whole words, checked by recordCheck
  const body: number[] = [5];
  const f64 = (v: number) => body.push(...new Uint8Array(new Float64Array([v]).buffer));
  const str = (s: string | null) => {
    if (s === null) return body.push(0xff, 0xff);
    const bytes = Buffer.from(s, "utf8");
    body.push(bytes.length & 0xff, bytes.length >> 8, ...bytes);
  };
  f64(3);
  f64(9);
  f64(1_700_000_000_000);
  body.push(0);
  str("198.51.100.7");
  str(null);
  str(null);
  str(null);
  f64(NaN);
  f64(NaN);
  str(null);
  str(null);
  str("9_AbCdEfG1z");
  str("net-a\n\n\n\n\nIwAR0");
  while ((body.length + 8) % 4) body.push(0);
  const rec = Buffer.alloc(8 + body.length + 8);
  Buffer.from(body).copy(rec, 8);
  const view = new DataView(rec.buffer, rec.byteOffset, rec.byteLength);
  rec.writeUInt32LE(recordCheck(view, 8, 8 + body.length), 4);
  rec.writeUInt32LE(8 + body.length, 0);
  const [r] = decodeSegment(rec).records;
  expect([r!.seq, r!.linkId, r!.clickId, r!.params]).toEqual([3, 9, "9_AbCdEfG1z", "net-a\n\n\n\n\nIwAR0"]);
});

let t: TestApp;
let dir: string;
beforeEach(() => {
  t = createTestApp();
  dir = t.dataDir;
});
afterEach(() => {
  t.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a click answered but not written when the process dies keeps its click id and sub parameters through the replay", async () => {
  const { token } = await t.telegramUser();
  const link = (await t.request("POST", "/api/links", { token, body: { url: "https://t.me/shop_bot?start={click_id}" } })).json;
  await t.deps.clicks.start();
  const res = await t.request("GET", `/${link.code}?sub1=net%20a&fbclid=IwAR9`);
  const clickId = /start=(.+)$/.exec(res.headers.get("location")!)![1]!;
  // killed now: the click is in the journal only
  t.deps.handle.close();
  t = { ...createTestApp({ env: { DATA_DIR: dir } }), dataDir: dir };
  await t.deps.clicks.start();
  const [row] = await t.deps.asyncDb.select().from(clicks).where(eq(clicks.linkId, link.id));
  expect([row!.clickId, row!.sub1, row!.fbclid]).toEqual([clickId, "net a", "IwAR9"]);
});

test("the journal keeps the short link's query as it came; the writer reads the sub parameters from it, also from a query too long to keep whole", async () => {
  const { token } = await t.telegramUser();
  const link = (await t.request("POST", "/api/links", { token, body: { url: "https://example.com/" } })).json;
  await t.deps.clicks.start();
  const padding = "x".repeat(MAX_CHARS.query + 100);
  await t.request("GET", `/${link.code}?sub1=net%20a&ref=mail&sub3=%D0%B5`);
  await t.request("GET", `/${link.code}?pad=${padding}&sub2=late&fbclid=IwAR1`);
  await t.request("GET", `/${link.code}`);
  const { records } = readJournal(join(dir, CLICK_JOURNAL_DIR));
  expect(records.map((r) => [r.query ?? null, r.params ?? null])).toEqual([
    ["sub1=net%20a&ref=mail&sub3=%D0%B5", null],
    [null, "\nlate\n\n\n\nIwAR1"], // too long for the journal: only its sub parameters, read on the request
    [null, null],
  ]);
  await t.deps.clicks.flush();
  const rows = await t.deps.asyncDb.select().from(clicks).where(eq(clicks.linkId, link.id)).orderBy(clicks.id);
  expect(rows.map((r) => [r.sub1, r.sub2, r.sub3, r.sub4, r.sub5, r.fbclid])).toEqual([
    ["net a", null, "е", null, null, null],
    [null, "late", null, null, null, "IwAR1"],
    [null, null, null, null, null, null],
  ]);
});
