import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../../helpers/app";
import { ingestPost } from "../../../core/tracking/ingest";
import { createMatchHost } from "../../../core/tracking/match-host";
import { createTracker, updateTracker } from "../../../core/tracking/trackers";
import { upsertTelegramUser } from "../../../core/accounts/users";
import type { ChatInfo } from "../../../core/tracking/sources";
import { CACHE_FOLLOWERS } from "../../../app/cache-followers";
import { CACHE_TOPICS } from "../../../core/cluster/caches";
import { eq } from "drizzle-orm";

const DYING = new URL("../../helpers/dying-match-thread.ts", import.meta.url).href;
const channel: ChatInfo = { chatId: "-1001000000001", type: "channel", title: "Crypto News", username: "cryptonews" };

let t: TestApp;
let dir: string;
let marker: string;
let userId: number;
beforeEach(async () => {
  t = createTestApp();
  dir = mkdtempSync(join(tmpdir(), "match-thread-"));
  marker = join(dir, "ended");
  // the matcher's thread is one that ends itself on a post saying "end the thread <marker>" (once)
  t.deps.trackerIndex.close();
  t.deps.trackerIndex = createMatchHost(() => t.deps.asyncDb, t.deps.log, DYING);
  userId = (await upsertTelegramUser(t.deps, { id: 42, username: "alice", firstName: "Alice" })).id;
});
afterEach(() => {
  t.close();
  rmSync(dir, { recursive: true, force: true });
});

const matchesOf = async (trackerId: number) =>
  (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches)).filter((m) => m.trackerId === trackerId);

test("a post handed to a thread that ends is matched again by a new one: no match is lost, the posts after it too", async () => {
  const btc = await createTracker(t.deps, userId, { name: "BTC", keyword: "bitcoin" });
  // the thread has the index and has matched a post before it ends
  expect((await ingestPost(t.deps, { chat: channel, messageId: 1, text: "bitcoin at the open" })).length).toBe(1);
  const started = performance.now();
  // three posts in flight at once; the first ends the thread that holds all three
  const results = await Promise.all([
    ingestPost(t.deps, { chat: channel, messageId: 2, text: `bitcoin: end the thread ${marker}` }),
    ingestPost(t.deps, { chat: channel, messageId: 3, text: "more bitcoin" }),
    ingestPost(t.deps, { chat: channel, messageId: 4, text: "nothing here" }),
  ]);
  const restartMs = performance.now() - started;
  expect(t.deps.trackerIndex.restarts).toBe(1);
  expect(results.map((r) => r.length)).toEqual([1, 1, 0]);
  expect((await matchesOf(btc.id)).map((m) => m.sourceMessageId).sort()).toEqual([1, 2, 3]);
  // a new thread and the whole index read again: well under the time a Bot API update may wait
  expect(restartMs).toBeLessThan(5_000);
  // the new thread follows tracker changes as the old one did
  await updateTracker(t.deps, userId, btc.id, { keyword: "ethereum" });
  expect((await ingestPost(t.deps, { chat: channel, messageId: 5, text: "bitcoin and ethereum" })).length).toBe(1);
  expect((await matchesOf(btc.id)).find((m) => m.sourceMessageId === 5)?.matchedKeyword).toBe("ethereum");
});

test("a thread that ends on every attempt fails the post after three, with an error; the next post is matched", async () => {
  await createTracker(t.deps, userId, { name: "BTC", keyword: "bitcoin" });
  const failed = await ingestPost(t.deps, { chat: channel, messageId: 1, text: "bitcoin, end the thread every time" }).catch(
    (e: Error) => e,
  );
  expect(t.deps.trackerIndex.restarts).toBe(3);
  expect(String(failed)).toContain("the matcher thread ended 3 times on this request");
  expect((await ingestPost(t.deps, { chat: channel, messageId: 2, text: "bitcoin" })).length).toBe(1);
});

test("a tracker changed by another node reaches this node's thread through the change bus's follower; a change naming none rebuilds it", async () => {
  const btc = await createTracker(t.deps, userId, { name: "BTC", keyword: "bitcoin" });
  expect((await ingestPost(t.deps, { chat: channel, messageId: 1, text: "bitcoin" })).length).toBe(1);
  const follower = CACHE_FOLLOWERS.find((f) => f.topic === CACHE_TOPICS.trackers)!;
  const { trackers } = t.deps.asyncDb.tables;
  // another node wrote the change and announced the tracker's id
  await t.deps.asyncDb.update(trackers).set({ keyword: "solana" }).where(eq(trackers.id, btc.id));
  await follower.apply(t.deps, String(btc.id));
  expect((await ingestPost(t.deps, { chat: channel, messageId: 2, text: "bitcoin" })).length).toBe(0);
  expect((await ingestPost(t.deps, { chat: channel, messageId: 3, text: "solana" })).length).toBe(1);
  // an announcement naming no tracker (an account merge): the whole index is read again
  await t.deps.asyncDb.update(trackers).set({ keyword: "ton" }).where(eq(trackers.id, btc.id));
  await follower.apply(t.deps, "");
  expect((await ingestPost(t.deps, { chat: channel, messageId: 4, text: "ton" })).length).toBe(1);
  // a node that missed messages drops its index
  await t.deps.asyncDb.update(trackers).set({ keyword: "eth" }).where(eq(trackers.id, btc.id));
  await follower.drop(t.deps);
  expect((await ingestPost(t.deps, { chat: channel, messageId: 5, text: "eth" })).length).toBe(1);
  expect(t.deps.trackerIndex.restarts).toBe(0);
});

test("a tracker over its budget on a post is skipped there: an edit into such a post leaves its match as it was; the owner is told once", async () => {
  const pairs = Array.from({ length: 15 }, () => "a NEAR/1 b").join(" ");
  const near = await createTracker(t.deps, userId, { name: "near", keyword: pairs, syntax: "query" });
  expect((await ingestPost(t.deps, { chat: channel, messageId: 1, text: "a x b" })).length).toBe(1);
  const hostile = `${"a ".repeat(1023)}x ${"b ".repeat(1023)}`;
  expect(await ingestPost(t.deps, { chat: channel, messageId: 1, text: hostile, edited: true })).toEqual([]);
  expect(await ingestPost(t.deps, { chat: channel, messageId: 2, text: hostile })).toEqual([]);
  const [kept] = await matchesOf(near.id);
  expect(kept).toMatchObject({ sourceMessageId: 1, noLongerMatches: false, matchedKeyword: "a" });
  const { outbox } = t.deps.asyncDb.tables;
  const notices = (await t.deps.asyncDb.select().from(outbox)).filter((r) => r.topic === "notice" && r.refId === near.id);
  expect(notices).toHaveLength(1);
  expect(notices[0]!.payload.text).toBe(
    "⚠️ Tracker <b>near</b>: a post was too costly to check with this query, so it was skipped for this tracker. Posts like it will be skipped too, and you will not be told again. A query with fewer NEAR pairs or with rarer words costs less.",
  );
});
