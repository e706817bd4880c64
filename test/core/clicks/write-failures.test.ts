import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import { rowsInto, type ClickListener } from "../../../core/clicks/listeners";
import { webhookRow } from "../../../core/delivery/outbox";
import { clicks, links, outbox } from "../../../db/schema";

/** what writing the rows of the first test's failing listener meets: its second row's delivery id is taken */
const POISON = /UNIQUE constraint failed: outbox\.delivery_id/;
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

let t: TestApp;
let token: string;
/** the listeners of this test's app: the service's table plus what the test adds */
let listeners: ClickListener[];
beforeEach(async () => {
  listeners = [...CLICK_LISTENERS];
  t = createTestApp({ clickListeners: listeners });
  token = (await t.telegramUser()).token;
});
afterEach(() => t.close());

/** Adds a listener to this test's table. */
function addHook(hook: ClickListener) {
  listeners.push(hook);
}
async function newLink(title: string) {
  return (await t.request("POST", "/api/links", { token, body: { url: "https://ok.example/", title } })).json as {
    id: number;
    code: string;
  };
}
async function visit(code: string, n = 1, headers: Record<string, string> = {}) {
  for (let i = 0; i < n; i++)
    expect((await t.request("GET", `/${code}`, { headers: { "user-agent": CHROME, ...headers } })).status).toBe(302);
}
const clickCount = (id: number) => t.deps.db.select().from(clicks).where(eq(clicks.linkId, id)).all().length;
const linkRow = (id: number) => t.deps.db.select().from(links).where(eq(links.id, id)).get()!;
/** Clicks the analytics roll-up (a real click listener) counted for the link, per span. */
const rolledUp = (id: number) =>
  t.deps.db.$client.query("select span, sum(clicks) as n from link_stats_time where link_id = ? group by span order by span").all(id) as {
    span: number;
    n: number;
  }[];

describe("a batch whose write keeps failing", () => {
  test("a hook that always throws for one link's clicks: after a whole-batch retry the batch is split, every click is kept", async () => {
    const good = await newLink("good");
    const bad = await newLink("bad");
    const batches: number[] = [];
    addHook((batch, now) => {
      // for the bad link's clicks, two rows of which the second cannot be written: the first must be rolled back
      if (batch.some((b) => b.link.id === bad.id))
        return [
          rowsInto(
            "outbox",
            [1, 2].map(() => ({
              ...webhookRow(now, { userId: null, topic: "half-done", url: "https://x.example/", data: {} }),
              deliveryId: "poison click",
            })),
          ),
        ];
      batches.push(batch.length);
      return [];
    });
    await visit(good.code, 3);
    await visit(bad.code);
    await visit(good.code, 4);
    const recorder = t.deps.clicks;

    // the first failure may be passing: the whole batch stays queued, nothing is written
    await expect(recorder.flush()).rejects.toThrow(POISON);
    expect(recorder.pending).toBe(8);
    expect(clickCount(good.id)).toBe(0);

    // it fails again: the good clicks are written with every hook, the bad one without the failing hook
    expect(await recorder.flush()).toBe(8);
    expect(recorder.pending).toBe(0);
    expect(clickCount(good.id)).toBe(7);
    expect(linkRow(good.id)).toMatchObject({ totalClicks: 7, uniqueClicks: 1 });
    expect(rolledUp(good.id).map((r) => r.n)).toEqual([7, 7, 7]);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(7);
    expect(clickCount(bad.id)).toBe(1);
    expect(linkRow(bad.id)).toMatchObject({ totalClicks: 1, title: "bad" });
    expect(t.deps.db.select().from(outbox).where(eq(outbox.topic, "half-done")).all()).toEqual([]);
    expect(rolledUp(bad.id).map((r) => r.n)).toEqual([7, 7, 7].map(() => 1)); // the other hooks still ran for it
    expect(
      t.logs.some(
        (l) => l.includes("ERROR") && l.includes("without this listener") && l.includes(`link ${bad.id}`) && l.includes("delivery_id"),
      ),
    ).toBe(true);

    // later clicks are not held up: the next batches go through the same way
    await visit(good.code, 2);
    await visit(bad.code, 2);
    await expect(recorder.flush()).rejects.toThrow(POISON);
    expect(await recorder.flush()).toBe(4);
    expect(clickCount(good.id)).toBe(9);
    expect(clickCount(bad.id)).toBe(3);
    await visit(good.code);
    expect(await recorder.flush()).toBe(1);
    expect(clickCount(good.id)).toBe(10);
  });

  test("a transient error met while splitting stops the split; the rest is retried whole, nothing lost or written twice", async () => {
    const good = await newLink("good");
    const bad = await newLink("bad");
    const other = new Database(join(t.dataDir, "app.db"));
    other.exec("pragma busy_timeout = 0");
    let goodBatches = 0;
    let armed = false;
    addHook((batch) => {
      if (batch.some((b) => b.link.id === bad.id)) throw new Error("poison click");
      // the second all-good part written while splitting meets a real SQLITE_BUSY
      if (armed && ++goodBatches === 2) other.exec("begin immediate");
      return [];
    });
    await visit(good.code, 4);
    await visit(bad.code);
    await visit(good.code, 3);
    const recorder = t.deps.clicks;
    try {
      await expect(recorder.flush()).rejects.toThrow("poison click");
      armed = true;
      // split: [4 good] written, [bad, good] → [bad] written without the hook, [good] busy → it and the 2 after it go back
      await expect(recorder.flush()).rejects.toThrow(/locked|busy/i);
      expect(recorder.pending).toBe(3);
      expect([clickCount(good.id), clickCount(bad.id)]).toEqual([4, 1]);
      expect(await recorder.flush()).toBe(3);
      expect([clickCount(good.id), clickCount(bad.id), recorder.pending]).toEqual([7, 1, 0]);
      expect(linkRow(good.id).totalClicks).toBe(7);
    } finally {
      other.close();
    }
  });

  test("the running recorder gets past a poison click on its own", async () => {
    const good = await newLink("good");
    const bad = await newLink("bad");
    addHook((batch) => {
      if (batch.some((b) => b.link.id === bad.id)) throw new Error("poison click");
      return [];
    });
    await visit(bad.code);
    await visit(good.code, 5);
    const recorder = t.deps.clicks;
    await recorder.start();
    const deadline = Date.now() + 8_000; // a failed write is retried a second later
    while (clickCount(good.id) + clickCount(bad.id) < 6 && Date.now() < deadline) await Bun.sleep(20);
    await recorder.stop();
    expect([clickCount(good.id), clickCount(bad.id), recorder.pending]).toEqual([5, 1, 0]);
  }, 10_000);

  test("a graceful shutdown with a poison click pending still writes every click", async () => {
    const good = await newLink("good");
    const bad = await newLink("bad");
    addHook((batch) => {
      if (batch.some((b) => b.link.id === bad.id)) throw new Error("poison click");
      return [];
    });
    await visit(good.code, 2);
    await visit(bad.code);
    const recorder = t.deps.clicks;
    expect(await recorder.stop()).toBe(3);
    expect([clickCount(good.id), clickCount(bad.id), recorder.pending]).toEqual([2, 1, 0]);
  });

  test("a full disk (SQLITE_FULL) is retried with the whole batch intact, never split", async () => {
    const l = await newLink("full");
    const batches: number[] = [];
    addHook((batch) => {
      batches.push(batch.length);
      return [];
    });
    await visit(l.code, 6, { referer: `https://example.com/${"r".repeat(2000)}` }); // 6 × 2 kB: needs new pages
    const sqlite = t.deps.db.$client;
    const pages = (sqlite.query("pragma page_count").get() as { page_count: number }).page_count;
    sqlite.exec(`pragma max_page_count = ${pages}`);
    const recorder = t.deps.clicks;
    for (let i = 0; i < 3; i++) {
      await expect(recorder.flush()).rejects.toThrow(/full/i);
      expect(recorder.pending).toBe(6);
      expect(clickCount(l.id)).toBe(0);
    }
    expect(batches).toEqual([]);
    sqlite.exec("pragma max_page_count = 1073741823");
    expect(await recorder.flush()).toBe(6);
    expect(batches).toEqual([6]);
    expect(linkRow(l.id).totalClicks).toBe(6);
  });

  test("a locked database (SQLITE_BUSY) is retried with the whole batch intact, never split", async () => {
    const l = await newLink("busy");
    const batches: number[] = [];
    addHook((batch) => {
      batches.push(batch.length);
      return [];
    });
    await visit(l.code, 5);
    t.deps.db.$client.exec("pragma busy_timeout = 0");
    const other = new Database(join(t.dataDir, "app.db"));
    other.exec("begin immediate"); // another writer holds the write lock
    const recorder = t.deps.clicks;
    try {
      for (let i = 0; i < 3; i++) {
        await expect(recorder.flush()).rejects.toThrow(/locked|busy/i);
        expect(recorder.pending).toBe(5);
      }
      expect(batches).toEqual([]);
    } finally {
      other.exec("rollback");
      other.close();
    }
    expect(await recorder.flush()).toBe(5);
    expect(batches).toEqual([5]);
    expect(clickCount(l.id)).toBe(5);
  });
});
