/**
 * No text a user controls can stall the service: a free account's two query trackers of 15 NEAR
 * pairs each, and posts of 1,023 a's, an x and 1,023 b's in that account's own group, while /livez
 * is asked over real HTTP on loopback all along; then the tracker's card, whose live preview
 * matches the last 100 such posts again.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";
import { FakeBotApi, BOT_ADMIN, FAKE_BOT, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { createBot } from "../../bot/bot";
import { eventually } from "../helpers/eventually";
import { deliveryWorker } from "../../app/delivery-routes";
import { privateChatOwners } from "../../core/channels/ownership";

let fake: FakeBotApi;
let t: TestApp;
let bot: ReturnType<typeof createBot>;
let running: Promise<void>;

beforeEach(() => {
  fake = new FakeBotApi().start();
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url }, listen: true });
  bot = createBot({ ...t.deps, config: { ...t.config, botToken: FAKE_BOT_TOKEN } });
  running = bot.start().catch(() => {});
});
afterEach(async () => {
  await bot.stop();
  await running;
  await fake.stop();
  t.close();
});

const GROUP = { id: -1009999000002, type: "supergroup", title: "Alice's group" };
const ALICE = { id: 42, is_bot: false, first_name: "Alice", username: "alice" };
const ADMIN = BOT_ADMIN;
const HOSTILE = `${"a ".repeat(1023)}x ${"b ".repeat(1023)}`;
const pairs = (pair: string) => Array.from({ length: 15 }, () => pair).join(" ");
const now = () => Math.floor(Date.now() / 1000);
const PROBE = new URL("../helpers/livez-probe.ts", import.meta.url).pathname;

/** Starts asking /livez over real HTTP from another process; `stop` gives the answer times in ms. */
async function probeLivez(origin: string) {
  const proc = Bun.spawn(["bun", PROBE, origin], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let out = "";
  const more = async () => {
    const { value, done } = await reader.read();
    if (!done) out += decoder.decode(value, { stream: true });
    return !done;
  };
  while (!out.includes("probing")) if (!(await more())) throw new Error(`the probe ended: ${out}`);
  const rest = (async () => {
    while (await more());
  })();
  return {
    async stop() {
      proc.stdin.end();
      await proc.exited;
      await rest;
      return JSON.parse(out.trim().split("\n").at(-1)!) as number[];
    },
  };
}

test("two trackers of 15 NEAR pairs and 4,094-character posts in the owner's group: /livez answers under 100 ms throughout, the trackers are skipped and the owner told once; the card's preview of 100 such posts too", async () => {
  const origin = `http://127.0.0.1:${t.app.server!.port}`;
  const { user, token } = await t.telegramUser(42, "alice");
  // alice makes the bot an administrator of her private group: it is her channel, a source for her trackers
  fake.pushUpdate({
    my_chat_member: { chat: GROUP, from: ALICE, date: now(), old_chat_member: { status: "left", user: FAKE_BOT }, new_chat_member: ADMIN },
  });
  await eventually(async () => (await privateChatOwners(t.deps, String(GROUP.id))).has(user.id), "the group is alice's");
  const created = [];
  // the free plan's two trackers
  for (const [name, keyword] of [
    ["near one", pairs("a NEAR/1 b")],
    ["near two", pairs("b NEAR/1 a")],
  ]) {
    const res = await t.request("POST", "/api/tracking", { token, body: { name, keyword, syntax: "query" } });
    expect(res.status).toBe(201);
    created.push(res.json);
  }
  const [nearOne, nearTwo] = created;
  const matchesOf = async (id: number) => (await t.request("GET", `/api/tracking/${id}/matches`, { token })).json.total as number;
  const notices = async () =>
    (
      await t.deps.asyncDb
        .select()
        .from(t.deps.asyncDb.tables.outbox)
        .where(and(eq(t.deps.asyncDb.tables.outbox.topic, "notice"), eq(t.deps.asyncDb.tables.outbox.userId, user.id)))
    ).filter((r) => String((r.payload as { text?: string }).text).includes("too costly"));
  // a running service: the matcher's thread started and has its index (an ordinary post went through)
  fake.pushUpdate({ message: { message_id: 100_000, date: now(), chat: GROUP, from: ALICE, text: "good morning" } });
  await fake.handledAll(20_000);
  expect((await fetch(`${origin}/livez`)).status).toBe(200);
  Bun.gc(true);

  const probe = await probeLivez(origin);
  for (let i = 1; i <= 2; i++) fake.pushUpdate({ message: { message_id: i, date: now(), chat: GROUP, from: ALICE, text: HOSTILE } });
  // both posts were matched (the bot handles updates one after the other): the query trackers were skipped
  await fake.handledAll(20_000);
  expect(t.deps.trackerIndex.recent.list().map((p) => p.text)).toEqual(["good morning", HOSTILE, HOSTILE]);
  expect(await matchesOf(nearOne.id)).toBe(0);
  expect(await matchesOf(nearTwo.id)).toBe(0);
  // told once per tracker, not per post
  expect((await notices()).map((n) => n.refId).sort()).toEqual([nearOne.id, nearTwo.id].sort());
  await deliveryWorker(t.deps).drain();
  const told = fake.callsOf("sendMessage").filter((c) => String(c.params.text).includes("too costly"));
  expect(told.map((c) => [c.params.chat_id, c.params.text]).sort()).toEqual(
    [nearOne, nearTwo]
      .map((tr) => [
        42,
        `⚠️ Tracker <b>${tr.name}</b>: a post was too costly to check with this query, so it was skipped for this tracker. Posts like it will be skipped too, and you will not be told again. A query with fewer NEAR pairs or with rarer words costs less.`,
      ])
      .sort(),
  );

  // the card as alice saw it before (the service has shown cards before: its code is warm)
  let before = fake.calls.length;
  fake.pushCallback(`go:tracker_${nearOne.id}`);
  const first = await fake.waitFor("sendMessage", (c) => fake.calls.indexOf(c) >= before && String(c.params.text).includes("near one"));
  expect(String(first.params.text)).toContain("⏳ 2 posts were too costly to check with this query and were skipped.");
  // a full ring of such posts: the live preview matches the last 100 again when the card opens
  for (let i = 3; i <= 100; i++) fake.pushUpdate({ message: { message_id: i, date: now(), chat: GROUP, from: ALICE, text: HOSTILE } });
  await fake.handledAll(60_000);
  expect(t.deps.trackerIndex.recent.list()).toHaveLength(100);
  // /livez was asked throughout: the two posts, the notices, the first card and the ring of 98 more
  const times = await probe.stop();
  expect(times.length).toBeGreaterThan(10);
  expect(Math.max(...times)).toBeLessThan(100);
  expect(await notices()).toHaveLength(2);
  expect(await matchesOf(nearOne.id)).toBe(0);
  before = fake.calls.length;
  // the garbage the setup left (100 posts through the bot) is collected now, not while the card is measured
  Bun.gc(true);
  const cardProbe = await probeLivez(origin);
  fake.pushCallback(`go:tracker_${nearOne.id}`);
  const card = await fake.waitFor(
    "sendMessage",
    (c) => fake.calls.indexOf(c) >= before && String(c.params.text).includes("near one"),
    20_000,
  );
  const cardTimes = await cardProbe.stop();
  expect(cardTimes.length).toBeGreaterThan(0);
  expect(Math.max(...cardTimes)).toBeLessThan(100);
  expect(String(card.params.text)).toContain("👀 This query would have matched these 0 of the last 100 posts.");
  expect(String(card.params.text)).toContain("⏳ 100 posts were too costly to check with this query and were skipped.");
}, 180_000);
