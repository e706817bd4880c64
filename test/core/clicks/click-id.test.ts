import { afterEach, beforeEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { clickParams, linkOfClickId, newClickId, paramsOf } from "../../../core/clicks/click-id";
import { StringTable, decodeSegment, encodeRecord, recordBuffer } from "../../../core/clicks/journal-format";
import type { PendingClick } from "../../../core/clicks/packed";
import { queryParams } from "../../../core/links/routing";
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

test("a journal record keeps the click id and the parameters; click ids never fill the segment's string table", () => {
  const out = recordBuffer(Buffer.alloc(64 * 1024));
  const table = new StringTable();
  const base: PendingClick = {
    linkId: 9,
    clickedAt: new Date(1_700_000_000_000),
    ip: "198.51.100.7",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0",
    referer: null,
    isBot: false,
    botName: null,
  };
  let off = 0;
  const written: PendingClick[] = [];
  for (let i = 0; i < 50; i++) {
    const c: PendingClick = { ...base, clickId: newClickId(9), params: i % 2 ? "net-a\n\n\n\n\nIwAR0" : null };
    off += encodeRecord(out, off, i + 1, c, table);
    written.push(c);
  }
  const records = decodeSegment(out.bytes).records;
  expect(records.map((r) => [r.clickId, r.params ?? null])).toEqual(written.map((c) => [c.clickId, c.params]));
  // the agent, the address and the one parameter string: 50 distinct click ids took no place
  expect(table.ids.size).toBe(3);
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
