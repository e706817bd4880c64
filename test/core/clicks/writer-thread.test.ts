import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../../helpers/app";
import type { ClickSink } from "../../../core/clicks/sink";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import { CLICK_WRITER_THREAD } from "../../../app";
import { createTestSink } from "../../helpers/clicks";
import { clicks, links, type ClickRow } from "../../../db/schema";
import { ClickPacker, unpackClicks } from "../../../core/clicks/packed";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

async function until<T>(what: string, get: () => T, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await Bun.sleep(10);
  }
}

test("a batch crosses to the writer thread unchanged", () => {
  const batch = [
    {
      linkId: 7,
      clickedAt: new Date(1_700_000_000_123),
      ip: "203.0.113.5",
      userAgent: CHROME,
      referer: "https://t.me/x",
      isBot: false,
      botName: null,
    },
    { linkId: 9, clickedAt: new Date(1_700_000_000_456), ip: null, userAgent: null, referer: null, isBot: true, botName: "TelegramBot" },
    // a click sent by rule 3, and one of variant 0 stored under PRIVACY_IP=truncate (visitor hash and geo made on the request)
    {
      linkId: 9,
      clickedAt: new Date(1_700_000_000_789),
      ip: "203.0.113.0",
      userAgent: CHROME,
      referer: null,
      isBot: false,
      botName: null,
      rule: 3,
    },
    {
      linkId: 9,
      clickedAt: new Date(1_700_000_000_999),
      ip: null,
      userAgent: CHROME,
      referer: null,
      isBot: false,
      botName: null,
      variant: 0,
      visitor: "ab12",
      geo: "DE\nBerlin",
    },
  ];
  const packer = new ClickPacker();
  for (const c of batch) packer.add(c);
  expect(unpackClicks(structuredClone(packer.take()))).toStrictEqual(batch.map((c) => ({ ...c, seq: 0 })));
});

test("the packer grows past its first capacity, keeps each distinct string once, and starts empty after take()", () => {
  const p = new ClickPacker();
  const batch = Array.from({ length: 2500 }, (_, i) => ({
    linkId: 1 + (i % 3),
    clickedAt: new Date(1_700_000_000_000 + i),
    ip: `198.51.100.${i % 7}`,
    userAgent: i % 2 ? CHROME : null,
    referer: i % 5 ? null : `https://ref.example/${i % 10}`,
    isBot: i % 11 === 0,
    botName: i % 11 === 0 ? "curl" : null,
  }));
  for (const c of batch) p.add(c);
  expect(p.length).toBe(2500);
  const packed = p.take();
  expect(packed.strings.length).toBe(7 + 1 + 2 + 1); // addresses, the one agent, two referers, one bot name
  expect(unpackClicks(structuredClone(packed))).toEqual(batch.map((c) => ({ ...c, seq: 0 })));
  expect(p.length).toBe(0);
  p.add(batch[3]!);
  expect(unpackClicks(p.take())).toEqual([{ ...batch[3]!, seq: 0 }]);
});

type Setup = { t: TestApp; recorder: ClickSink; l: { id: number; code: string }; rowsOf: () => ClickRow[] };

/** A test app with one link and a click recorder (the app's own unless `make` builds one); stopped and closed after `body`. */
async function withLink(body: (s: Setup) => Promise<void>, opts: { listen?: boolean; make?: (deps: TestApp["deps"]) => ClickSink } = {}) {
  const t = createTestApp({ listen: opts.listen });
  const recorder = opts.make?.(t.deps) ?? t.deps.clicks;
  try {
    const { token } = await t.telegramUser();
    const l = (await t.request("POST", "/api/links", { token, body: { url: "https://ok.example/" } })).json;
    await body({ t, recorder, l, rowsOf: () => t.deps.db.select().from(clicks).where(eq(clicks.linkId, l.id)).all() });
  } finally {
    await recorder.stop();
    t.close();
  }
}

test("off the request thread: a worker writes the batches (counters and hooks included); stop() writes what is pending before it resolves", () =>
  withLink(
    async ({ t, recorder, l, rowsOf }) => {
      await recorder.start({ offThread: true });
      const visit = async (i: number) => {
        const res = await t.request("GET", `/${l.code}`, { headers: { "user-agent": `${CHROME} v${i}`, referer: "https://t.me/channel" } });
        expect(res.status).toBe(302);
      };
      for (let i = 0; i < 20; i++) await visit(i);
      const rows = await until("20 clicks written by the worker", rowsOf, (r) => r.length === 20);
      expect(rows[0]).toMatchObject({
        ip: "127.0.0.1",
        device: "desktop",
        browser: "Chrome",
        os: "Windows",
        referer: "https://t.me/channel",
        isBot: false,
        isUnique: true,
      });
      expect(t.deps.db.select().from(links).where(eq(links.id, l.id)).get()).toMatchObject({ totalClicks: 20, uniqueClicks: 20 });
      const rolledUp = () =>
        t.deps.db.$client
          .query("select coalesce(sum(clicks), 0) as n from link_stats_time where link_id = ? and span = 3600000")
          .get(l.id) as { n: number };
      expect(rolledUp().n).toBe(20); // the analytics hook ran in the worker's transaction

      // shutdown with clicks still queued on this thread or held by the worker: none is lost
      await Promise.all(Array.from({ length: 30 }, (_, i) => visit(100 + i)));
      const flushed = await recorder.stop();
      expect(flushed).toBeLessThanOrEqual(30);
      expect(rowsOf()).toHaveLength(50);
      expect(t.deps.db.select({ n: sql<number>`count(*)` }).from(clicks).get()!.n).toBe(50);
      expect(rolledUp().n).toBe(50);
    },
    { listen: true },
  ));

test("clicks recorded before the writer thread starts are handed to it, not left behind", () =>
  withLink(async ({ t, recorder, l, rowsOf }) => {
    for (let i = 0; i < 3; i++) expect((await t.request("GET", `/${l.code}`, { headers: { "user-agent": CHROME } })).status).toBe(302);
    expect(recorder.pending).toBe(3);
    await recorder.start({ offThread: true });
    await until("3 clicks written by the worker", rowsOf, (r) => r.length === 3);
    expect(recorder.pending).toBe(0);
  }));

test("with the writer thread, a burst past threadBatch is handed over at once, not at the next tick", () =>
  withLink(
    async ({ t, recorder, l, rowsOf }) => {
      await recorder.start({ offThread: true });
      const record = () =>
        recorder.record({
          linkId: l.id,
          clickedAt: t.clock.now(),
          ip: "203.0.113.5",
          userAgent: CHROME,
          referer: null,
          isBot: false,
          botName: null,
        });
      for (let i = 0; i < 4; i++) record();
      await Bun.sleep(50); // a tick of the event loop: below the threshold nothing moves before the 60 s timer
      expect(recorder.pending).toBe(4);
      record();
      await until("5 clicks written by the worker", rowsOf, (r) => r.length === 5);
      expect(recorder.pending).toBe(0);
    },
    {
      make: (deps) => createTestSink(deps, CLICK_LISTENERS, { threadIntervalMs: 60_000, threadBatch: 5, threadEntry: CLICK_WRITER_THREAD }),
    },
  ));

test("the writer thread stores each click's rule and variant, and under PRIVACY_IP the request's visitor hash and geo", () =>
  withLink(async ({ t, recorder, l, rowsOf }) => {
    await recorder.start({ offThread: true });
    const at = t.clock.now();
    const base = { linkId: l.id, clickedAt: at, userAgent: CHROME, referer: null, isBot: false, botName: null };
    recorder.record({ ...base, ip: "203.0.113.7", rule: 2 });
    recorder.record({ ...base, ip: "203.0.113.7", variant: 1 });
    // two visitors behind one truncated address (whose own geo, US, is not used), told apart by the keyed hash; the first comes twice
    recorder.record({ ...base, ip: "8.8.8.0", variant: 0, visitor: "k-one", geo: "DE\nBerlin" });
    recorder.record({ ...base, ip: "8.8.8.0", variant: 0, visitor: "k-one", geo: "DE\nBerlin" });
    recorder.record({ ...base, ip: null, variant: 1, visitor: "k-two", geo: "\n" });
    const rows = await until("5 clicks written by the worker", rowsOf, (r) => r.length === 5);
    expect(rows.map((r) => [r.rule, r.variant, r.ip, r.country, r.city, r.isUnique])).toEqual([
      [2, null, "203.0.113.7", null, null, true],
      [null, 1, "203.0.113.7", null, null, false],
      [null, 0, "8.8.8.0", "DE", "Berlin", true],
      [null, 0, "8.8.8.0", "DE", "Berlin", false],
      [null, 1, null, null, null, true],
    ]);
    expect(t.deps.db.select().from(links).where(eq(links.id, l.id)).get()).toMatchObject({ totalClicks: 5, uniqueClicks: 3 });
  }));

test("when the writer thread dies with batches it never wrote, the request side writes them from the journal, each once", () =>
  withLink(
    async ({ t, recorder, l, rowsOf }) => {
      await recorder.start({ offThread: true });
      const record = (i: number) =>
        recorder.record({
          linkId: l.id,
          clickedAt: t.clock.now(),
          ip: `203.0.113.${i}`,
          userAgent: CHROME,
          referer: null,
          isBot: false,
          botName: null,
        });
      for (let i = 0; i < 3; i++) record(i);
      await until(
        "the first batch handed over",
        () => recorder.pending,
        (n) => n === 0,
      ); // the thread takes it and dies
      for (let i = 3; i < 8; i++) record(i);
      const rows = await until("8 clicks written on the request thread", rowsOf, (r) => r.length === 8);
      expect(rows.map((r) => r.ip)).toEqual(Array.from({ length: 8 }, (_, i) => `203.0.113.${i}`));
      expect(t.logs.some((line) => line.includes("click writer thread is gone"))).toBe(true);
      await recorder.stop();
      expect(rowsOf()).toHaveLength(8);
    },
    {
      make: (deps) =>
        createTestSink(deps, CLICK_LISTENERS, {
          journalDir: join(deps.config.dataDir, "click-journal"),
          threadIntervalMs: 20,
          threadEntry: new URL("../../helpers/dying-writer-thread.ts", import.meta.url).href,
        }),
    },
  ));
