import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { invalidateTrackerIndex } from "../../../core/tracking/index-cache";
import { ingestPost, markPostsDeleted } from "../../../core/tracking/ingest";
import { setSourceMetadata, upsertSource, type ChatInfo } from "../../../core/tracking/sources";
import { createTracker, deleteTracker, setTrackerEnabled, updateTracker, type TrackerInput } from "../../../core/tracking/trackers";
import { BURST_WINDOW_MS, flushTrackerNotifications } from "../../../core/tracking/notify";
import { upsertEmailUser, upsertTelegramUser } from "../../../core/accounts/users";
import { mergeAccounts } from "../../../core/accounts/merge";
import { markMatchRangeRead } from "../../../core/tracking/matches";
import { recordBotMembership } from "../../../core/channels/ownership";
import { chatOwnersTelegram } from "../../helpers/chat-owners";
import { flushTrackerDigests } from "../../../core/tracking/digests";
import { updateSettings } from "../../../core/reports/settings";

let t: TestApp;
let userId: number;
let telegram: ReturnType<typeof chatOwnersTelegram>;
beforeEach(async () => {
  telegram = chatOwnersTelegram();
  t = createTestApp({ env: { PLAN_LIMITS: '{"free":{"trackers":50}}', ...telegram.env } });
  userId = (await upsertTelegramUser(t.deps, { id: 42, username: "alice", firstName: "Alice" })).id;
  // the private chats below are alice's channels (she made the bot an administrator there)
  for (const chat of [group, basicGroup]) {
    await recordBotMembership(t.deps, chat, { id: 42 }, { isAdmin: true, canInvite: true }, 10);
    telegram.runs(chat.chatId, 42);
  }
});
afterEach(async () => {
  t.close();
  await telegram.stop();
});

const channel: ChatInfo = { chatId: "-1001000000001", type: "channel", title: "Crypto <News>", username: "cryptonews" };
const group: ChatInfo = { chatId: "-1001000000002", type: "supergroup", title: "Traders chat", username: null };
const basicGroup: ChatInfo = { chatId: "-4000000003", type: "group", title: "Old group", username: null };

const track = (input: TrackerInput) => createTracker(t.deps, userId, { name: input.keyword ?? "t", ...input });
const ids = async (text: string, chat = channel, messageId = 1) =>
  (await ingestPost(t.deps, { chat, messageId, text })).map((m) => m.trackerId).sort();
const notifications = async () =>
  await t.deps.asyncDb
    .select()
    .from(t.deps.asyncDb.tables.outbox)
    .where(eq(t.deps.asyncDb.tables.outbox.topic, "tracker_notify"))
    .orderBy(asc(t.deps.asyncDb.tables.outbox.id));

describe("sources and filters", () => {
  test("search_channels / search_chats select by chat type", async () => {
    const onlyChannels = await track({ keyword: "eth", search_chats: false });
    const onlyChats = await track({ keyword: "eth", search_channels: false });
    expect(await ids("ETH to the moon", channel)).toEqual([onlyChannels.id]);
    expect(await ids("ETH to the moon", group)).toEqual([onlyChats.id]);
    expect(await ids("ETH to the moon", basicGroup, 2)).toEqual([onlyChats.id]);
  });

  test("include and exclude sources by @username, id or t.me link", async () => {
    const byName = await track({ keyword: "sol", include_sources: ["@CryptoNews"] });
    const byLink = await track({ keyword: "sol", include_sources: ["https://t.me/c/1000000002/77"] });
    const byId = await track({ keyword: "sol", include_sources: ["-1001000000001"] });
    const excluded = await track({ keyword: "sol", exclude_sources: ["t.me/cryptonews"] });
    expect(await ids("SOL pumps", channel)).toEqual([byName.id, byId.id]);
    expect(await ids("SOL pumps", group)).toEqual([byLink.id, excluded.id]);
  });

  test("min subscribers, geo and category use source metadata; unknown metadata does not match", async () => {
    const big = await track({ keyword: "ton", filter_min_subscribers: 1000 });
    const ru = await track({ keyword: "ton", filter_geo: "RU" });
    const tech = await track({ keyword: "ton", filter_category: "tech" });
    expect(await ids("TON news", channel, 1)).toEqual([]); // nothing known about the channel yet
    await ids("no keyword here", group, 1); // a chat joined before tracking existed is recorded on any message
    expect(
      (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources)).map((s) => [s.chatId, s.type, s.memberCount]),
    ).toEqual([
      [channel.chatId, "channel", null],
      [group.chatId, "supergroup", null],
    ]);
    await upsertSource(t.deps, channel, { memberCount: 999 });
    await setSourceMetadata(t.deps, "@cryptonews", { geo: "ru", category: "crypto" });
    expect(await ids("TON news", channel, 2)).toEqual([ru.id]);
    await upsertSource(t.deps, channel, { memberCount: 1000 });
    await setSourceMetadata(t.deps, "https://t.me/cryptonews", { category: "tech" });
    expect(await ids("TON news", channel, 3)).toEqual([big.id, ru.id, tech.id]);
    await expect(setSourceMetadata(t.deps, "@cryptonews", { geo: "XX" })).rejects.toThrow("ISO 3166-1");
    await expect(setSourceMetadata(t.deps, "@unknownchat", { geo: "RU" })).rejects.toThrow("Source not found");
  });

  test("filter_language detects the message language", async () => {
    const en = await track({ keyword: "bitcoin", filter_language: "en" });
    const ru = await track({ keyword: "bitcoin", filter_language: "ru" });
    expect(await ids("Bitcoin climbed again today as investors bought the dip", channel, 1)).toEqual([en.id]);
    expect(await ids("Bitcoin снова вырос сегодня, инвесторы скупают на просадке", channel, 2)).toEqual([ru.id]);
    expect(await ids("bitcoin", channel, 3)).toEqual([]); // too short to tell: no language filter matches
  });
});

describe("recording matches", () => {
  test("one match per tracker and message; an edit that keeps it updates the snippet; one that adds it creates it", async () => {
    const btc = await track({ keyword: "bitcoin" });
    const eth = await track({ keyword: "ethereum" });
    await ingestPost(t.deps, { chat: channel, messageId: 5, text: "Bitcoin up, bitcoin again" });
    await ingestPost(t.deps, { chat: channel, messageId: 5, text: "Bitcoin up, bitcoin again" }); // redelivered
    let rows = await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      trackerId: btc.id,
      textSnippet: "Bitcoin up, bitcoin again",
      matchedKeyword: "Bitcoin",
      postUrl: "https://t.me/cryptonews/5",
    });
    await ingestPost(t.deps, { chat: channel, messageId: 5, text: "Edited: BITCOIN and Ethereum" });
    rows = await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches).orderBy(asc(t.deps.asyncDb.tables.trackerMatches.id));
    expect(rows.map((r) => [r.trackerId, r.textSnippet, r.matchedKeyword])).toEqual([
      [btc.id, "Edited: BITCOIN and Ethereum", "BITCOIN"],
      [eth.id, "Edited: BITCOIN and Ethereum", "Ethereum"],
    ]);
    expect(await notifications()).toHaveLength(1); // the edit-added match waits in the burst window
  });

  test("snippet and matched_keyword are the text as the author wrote it, not its NFKC form", async () => {
    await track({ keyword: "telegram" });
    await track({ keyword: "café" });
    const text = "Скоро… ＴＥＬＥＧＲＡＭ ﬁnance №1 at the cafe\u0301!";
    const rows = await ingestPost(t.deps, { chat: channel, messageId: 40, text });
    expect(rows.map((r) => [r.matchedKeyword, r.textSnippet])).toEqual([
      ["ＴＥＬＥＧＲＡＭ", text],
      ["cafe\u0301", text],
    ]);
  });

  test("post_url uses t.me/c for private supergroups and is null for basic groups", async () => {
    await track({ keyword: "deal" });
    expect((await ingestPost(t.deps, { chat: group, messageId: 9, text: "deal" }))[0]!.postUrl).toBe("https://t.me/c/1000000002/9");
    expect((await ingestPost(t.deps, { chat: basicGroup, messageId: 9, text: "deal" }))[0]!.postUrl).toBeNull();
  });

  test("the index follows tracker changes: create, edit, disable, delete", async () => {
    const tr = await track({ keyword: "alpha" });
    expect(await ids("alpha", channel, 1)).toEqual([tr.id]);
    await updateTracker(t.deps, userId, tr.id, { keyword: "beta" });
    expect(await ids("alpha", channel, 2)).toEqual([]);
    expect(await ids("beta", channel, 3)).toEqual([tr.id]);
    await setTrackerEnabled(t.deps, userId, tr.id, false);
    expect(await ids("beta", channel, 4)).toEqual([]);
    await setTrackerEnabled(t.deps, userId, tr.id, true);
    expect(await ids("beta", channel, 5)).toEqual([tr.id]);
    await deleteTracker(t.deps, userId, tr.id);
    expect(await ids("beta", channel, 6)).toEqual([]);
  });

  test("after an account merge, matches of the moved trackers notify the surviving account", async () => {
    const tr = await track({ keyword: "merge" });
    expect(await ids("merge one", channel, 1)).toEqual([tr.id]); // the index is built with the old owner's tracker
    const target = await upsertEmailUser(t.deps, "target@example.com");
    await mergeAccounts(t.deps, userId, target.id);
    t.clock.advance(BURST_WINDOW_MS + 1);
    expect(await ids("merge two", channel, 2)).toEqual([tr.id]);
    expect((await notifications()).at(-1)).toMatchObject({
      userId: target.id,
      target: "42",
      refId: (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches)).at(-1)!.id,
    });
  });

  test("changes made behind core's back are picked up after a full invalidation", async () => {
    const tr = await track({ keyword: "gamma" });
    expect(await ids("gamma", channel, 1)).toEqual([tr.id]);
    await t.deps.asyncDb
      .update(t.deps.asyncDb.tables.trackers)
      .set({ keyword: "delta" })
      .where(eq(t.deps.asyncDb.tables.trackers.id, tr.id)); // e.g. a data migration
    expect(await ids("delta", channel, 2)).toEqual([]);
    await invalidateTrackerIndex(t.deps);
    expect(await ids("delta", channel, 3)).toEqual([tr.id]);
  });
});

describe("bot notifications", () => {
  test("a match queues a message with source, highlighted escaped snippet and deep-link buttons", async () => {
    const tr = await track({ name: "BTC <watch>", keyword: "bitcoin" });
    const [m] = await ingestPost(t.deps, { chat: channel, messageId: 12, text: "Buy <b>now</b>: Bitcoin & more" });
    const [row] = await notifications();
    expect(row).toMatchObject({ userId, kind: "bot", target: "42", method: "sendMessage", refId: m!.id, status: "pending" });
    expect(row!.payload).toEqual({
      text: `🔔 <b>BTC &lt;watch&gt;</b>: new match\n📣 Crypto &lt;News&gt; (@cryptonews)\n\nBuy &lt;b&gt;now&lt;/b&gt;: <b>Bitcoin</b> &amp; more`,
      link_preview_options: { is_disabled: true },
      reply_markup: {
        inline_keyboard: [
          [{ text: "Open post", url: "https://t.me/cryptonews/12" }],
          [
            { text: "✓ Mark read", callback_data: `go:read_${m!.id}` },
            { text: "🔎 Tracker", callback_data: `go:tracker_${tr.id}` },
          ],
        ],
      },
    });
  });

  test("the bold words are the ones that matched: an exact tracker skips the same letters inside a longer word", async () => {
    await track({ name: "Cat", keyword: "кот", exact_match: true });
    await ingestPost(t.deps, { chat: channel, messageId: 30, text: "котёнок и кот." });
    expect(((await notifications())[0]!.payload as { text: string }).text.split("\n").at(-1)).toBe("котёнок и <b>кот</b>.");
  });

  test("a phrase matched across a line break is bold in the one-line snippet", async () => {
    await track({ name: "NY", keyword: "new york", exact_match: true });
    const [m] = await ingestPost(t.deps, { chat: channel, messageId: 31, text: "Flights to New\n  York today" });
    expect([m!.matchedKeyword, m!.textSnippet]).toEqual(["New\n  York", "Flights to New York today"]);
    expect(((await notifications())[0]!.payload as { text: string }).text.split("\n").at(-1)).toBe("Flights to <b>New York</b> today");
  });

  test("a burst becomes one grouped message after the window; pending state survives in the database", async () => {
    await track({ name: "BTC", keyword: "bitcoin" });
    await track({ name: "ETH", keyword: "ethereum" });
    await ingestPost(t.deps, { chat: channel, messageId: 1, text: "bitcoin one" });
    for (let i = 2; i <= 8; i++) await ingestPost(t.deps, { chat: channel, messageId: i, text: i % 2 ? `bitcoin ${i}` : `ethereum ${i}` });
    expect(await notifications()).toHaveLength(1);
    expect(await flushTrackerNotifications(t.deps)).toBe(0); // window still open
    t.clock.advance(BURST_WINDOW_MS + 1);
    expect(await flushTrackerNotifications(t.deps)).toBe(1);
    const grouped = (await notifications())[1]!.payload as { text: string; reply_markup: unknown };
    expect(grouped.text.split("\n")[0]).toBe("🔔 <b>7 new matches</b>");
    expect(grouped.text).toContain(
      '• <b>ETH</b>, Crypto &lt;News&gt; (@cryptonews): <a href="https://t.me/cryptonews/2">open</a>\n<b>ethereum</b> 2',
    );
    expect(grouped.text).toContain("…and 2 more");
    const matchIds = (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches)).map((m) => m.id);
    expect(grouped.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: "✓ Mark these read", callback_data: `go:readr_${matchIds[1]}-${matchIds[7]}` },
          { text: "🔎 My trackers", callback_data: "go:trackers" },
        ],
      ],
    });
    expect(
      await t.deps.asyncDb
        .select()
        .from(t.deps.asyncDb.tables.trackerMatches)
        .where(eq(t.deps.asyncDb.tables.trackerMatches.notifyPending, true)),
    ).toEqual([]);
    expect(await flushTrackerNotifications(t.deps)).toBe(0);
    // after the window a single match is sent at once again
    t.clock.advance(BURST_WINDOW_MS + 1);
    await ingestPost(t.deps, { chat: channel, messageId: 20, text: "bitcoin later" });
    expect(await notifications()).toHaveLength(3);
  });

  test("a match arriving after the window closed, before the flush job ran, goes out together with the waiting ones", async () => {
    await track({ name: "BTC", keyword: "bitcoin" });
    await ingestPost(t.deps, { chat: channel, messageId: 1, text: "bitcoin one" });
    t.clock.advance(30_000);
    await ingestPost(t.deps, { chat: channel, messageId: 2, text: "bitcoin two" }); // waits in the window
    t.clock.advance(BURST_WINDOW_MS - 30_000 + 1);
    await ingestPost(t.deps, { chat: channel, messageId: 3, text: "bitcoin three" }); // the window has closed
    const sent = (await notifications()).map((n) => (n.payload as { text: string }).text);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.split("\n")[0]).toBe("🔔 <b>2 new matches</b>");
    expect(sent[1]).toContain("<b>bitcoin</b> two");
    expect(sent[1]).toContain("<b>bitcoin</b> three");
    expect(sent[1]!.indexOf("two")).toBeLessThan(sent[1]!.indexOf("three"));
    expect(
      await t.deps.asyncDb
        .select()
        .from(t.deps.asyncDb.tables.trackerMatches)
        .where(eq(t.deps.asyncDb.tables.trackerMatches.notifyPending, true)),
    ).toEqual([]);
  });

  test("✓ Mark these read marks the grouped message's matches, not a webhook tracker's matches in between", async () => {
    const r = new (await import("../../helpers/webhook-receiver")).WebhookReceiver().start();
    try {
      await track({ name: "BTC", keyword: "bitcoin" });
      const hook = await track({ keyword: "ether", notify_via: "webhook", webhook_url: r.url });
      await ingestPost(t.deps, { chat: channel, messageId: 1, text: "bitcoin one" });
      await ingestPost(t.deps, { chat: channel, messageId: 2, text: "bitcoin two" });
      const [unseen] = await ingestPost(t.deps, { chat: channel, messageId: 3, text: "ether three" });
      await ingestPost(t.deps, { chat: channel, messageId: 4, text: "bitcoin four" });
      t.clock.advance(BURST_WINDOW_MS + 1);
      expect(await flushTrackerNotifications(t.deps)).toBe(1);
      const button = ((await notifications())[1]!.payload as { reply_markup: { inline_keyboard: { callback_data: string }[][] } })
        .reply_markup.inline_keyboard[0]![0]!.callback_data;
      const [from, to] = button.replace("go:readr_", "").split("-").map(Number);
      expect(await markMatchRangeRead(t.deps, userId, from!, to!)).toBe(2);
      const unread = (
        await t.deps.asyncDb
          .select()
          .from(t.deps.asyncDb.tables.trackerMatches)
          .where(eq(t.deps.asyncDb.tables.trackerMatches.isRead, false))
      ).map((m) => m.id);
      expect(unread).toEqual([
        (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches).orderBy(asc(t.deps.asyncDb.tables.trackerMatches.id)))[0]!
          .id,
        unseen!.id,
      ]);
      expect(unseen!.trackerId).toBe(hook.id);
    } finally {
      r.stop();
    }
  });

  test("a grouped message stays within Telegram's 4096 characters with long keywords; the rest is counted in …and N more", async () => {
    const phrase = Array.from({ length: 200 }, (_, i) => `w${i}xy`)
      .join(" ")
      .slice(0, 790)
      .trim(); // a ~790-character phrase
    await track({ name: "Long", keyword: phrase });
    const context = "c".repeat(70);
    for (let i = 1; i <= 6; i++) await ingestPost(t.deps, { chat: channel, messageId: i, text: `${context} ${phrase} ${context} ${i}` });
    t.clock.advance(BURST_WINDOW_MS + 1);
    expect(await flushTrackerNotifications(t.deps)).toBe(1);
    const text = ((await notifications())[1]!.payload as { text: string }).text;
    const visible = text
      .replace(/<[^>]+>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
    expect(visible.length).toBeLessThanOrEqual(4096);
    expect(text.split("\n")[0]).toBe("🔔 <b>5 new matches</b>");
    const listed = text.split("\n").filter((l) => l.startsWith("• ")).length;
    expect(listed).toBeGreaterThanOrEqual(1);
    expect(text).toContain(`…and ${5 - listed} more`);
  });

  test("deleted posts: is_deleted, and post_deleted only for notify_on_delete trackers", async () => {
    const r = new (await import("../../helpers/webhook-receiver")).WebhookReceiver().start();
    const hook = await track({ keyword: "scam", notify_via: "webhook", webhook_url: r.url, notify_on_delete: true });
    await track({ keyword: "scam" }); // a bot tracker without notify_on_delete: its match is marked, nobody is told
    await ingestPost(t.deps, { chat: channel, messageId: 3, text: "scam alert" });
    expect(await markPostsDeleted(t.deps, channel.chatId, [3, 4])).toBe(2);
    expect(await markPostsDeleted(t.deps, channel.chatId, [3])).toBe(0);
    expect((await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches)).every((m) => m.isDeleted)).toBe(true);
    const hooks = await t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.outbox)
      .where(eq(t.deps.asyncDb.tables.outbox.topic, "tracker_webhook"));
    expect(hooks.map((h) => (h.payload as { event: string }).event)).toEqual(["keyword_match", "post_deleted"]);
    expect((hooks[1]!.payload as { match: { is_deleted: boolean; tracker_id: number } }).match).toMatchObject({
      is_deleted: true,
      tracker_id: hook.id,
    });
    expect(
      await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox).where(eq(t.deps.asyncDb.tables.outbox.topic, "tracker_deleted")),
    ).toEqual([]);
    r.stop();
  });
});

describe("queries, word forms and reposts through ingestPost", () => {
  test("a query tracker and a word-forms tracker record their matches with the words as written", async () => {
    const query = await track({ keyword: '(биткоин OR bitcoin) -скам "spot etf"', syntax: "query", word_forms: true });
    const forms = await track({ keyword: "канал", word_forms: true });
    expect(await ids("Bitcoin SPOT ETFs approved", channel, 1)).toEqual([query.id]);
    expect(await ids("Курс биткоина и spot ETF: скам?", channel, 2)).toEqual([]);
    expect(await ids("Подписывайтесь на наши каналы", channel, 3)).toEqual([forms.id]);
    expect(await ids("Ремонт канализации", channel, 4)).toEqual([]);
    const rows = await t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.trackerMatches)
      .orderBy(asc(t.deps.asyncDb.tables.trackerMatches.id));
    expect(rows.map((r) => [r.trackerId, r.matchedKeyword])).toEqual([
      [query.id, "Bitcoin"],
      [forms.id, "каналы"],
    ]);
  });

  test("skip_reposts: a forwarded post does not match; a copy of a text matched in the last 24 h does not match again", async () => {
    const skipping = await track({ keyword: "bitcoin", skip_reposts: true });
    const all = await track({ keyword: "bitcoin" });
    const forwarded = async (text: string, messageId: number) =>
      (await ingestPost(t.deps, { chat: channel, messageId, text, forwarded: true })).map((m) => m.trackerId);
    expect(await forwarded("Bitcoin hits 100k", 1)).toEqual([all.id]);
    expect(await ids("Bitcoin hits 100k", channel, 2)).toEqual([skipping.id, all.id]); // the first time as an original
    // the same text in another chat, spaced and cased differently: a copy
    expect(await ids("BITCOIN  hits\n100k", group, 3)).toEqual([all.id]);
    t.clock.advance(23 * 3600_000);
    expect(await ids("Bitcoin hits 100k", group, 4)).toEqual([all.id]);
    // an edit of the matched post is still that post (its snippet is updated)
    expect(await ids("Bitcoin hits 100k!", channel, 2)).toEqual([skipping.id, all.id]);
    t.clock.advance(3600_000 + 1);
    expect(await ids("Bitcoin hits 100k", group, 5)).toEqual([skipping.id, all.id]); // a day after it was matched
    expect(await ids("Bitcoin hits 100k", channel, 6)).toEqual([all.id]); // and from then on a copy again
    const table = t.deps.asyncDb.tables.trackers;
    const counts = await t.deps.asyncDb.select({ id: table.id, n: table.totalMatches }).from(table).orderBy(asc(table.id));
    expect(counts).toEqual([
      { id: skipping.id, n: 2 },
      { id: all.id, n: 6 },
    ]);
  });
});

describe("one message per post per owner", () => {
  test("two trackers matching one post: one message naming both; after the burst window, one grouped entry naming both", async () => {
    const btc = await track({ name: "BTC", keyword: "bitcoin" });
    const etf = await track({ name: "ETF", keyword: "etf OR fund", syntax: "query" });
    const other = await upsertTelegramUser(t.deps, { id: 77, username: "bob", firstName: "Bob" });
    const bobs = await createTracker(t.deps, other.id, { name: "Bob's BTC", keyword: "bitcoin" });
    const made = await ingestPost(t.deps, { chat: channel, messageId: 1, text: "Bitcoin ETF approved" });
    expect(made.map((m) => m.trackerId).sort()).toEqual([btc.id, etf.id, bobs.id].sort());
    const first = await notifications();
    expect(first.map((n) => [n.userId, n.target])).toEqual([
      [userId, "42"],
      [other.id, "77"],
    ]);
    const alice = first[0]!.payload as {
      text: string;
      reply_markup: { inline_keyboard: { text: string; url?: string; callback_data?: string }[][] };
    };
    expect(alice.text).toBe("🔔 <b>BTC</b>, <b>ETF</b>: new match\n📣 Crypto &lt;News&gt; (@cryptonews)\n\n<b>Bitcoin</b> ETF approved");
    const [btcMatch, etfMatch] = made.filter((m) => m.trackerId !== bobs.id).sort((a, b) => a.id - b.id);
    expect(alice.reply_markup.inline_keyboard.at(-1)).toEqual([
      { text: "✓ Mark read", callback_data: `go:readr_${btcMatch!.id}-${etfMatch!.id}` },
      { text: "🔎 My trackers", callback_data: "go:trackers" },
    ]);

    // within the window: two more posts, one matched by both trackers, one by one; they wait and go out as one message
    t.clock.advance(10_000);
    await ingestPost(t.deps, { chat: channel, messageId: 2, text: "Another bitcoin fund" });
    await ingestPost(t.deps, { chat: group, messageId: 3, text: "bitcoin dips" });
    expect(await notifications()).toHaveLength(2);
    t.clock.advance(BURST_WINDOW_MS);
    expect(await flushTrackerNotifications(t.deps)).toBe(2); // alice's and bob's
    const grouped = (await notifications()).filter((n) => n.userId === userId).at(-1)!;
    const text = (grouped.payload as { text: string }).text;
    expect(text.split("\n")[0]).toBe("🔔 <b>2 new matches</b>");
    expect(text).toContain(
      '• <b>BTC</b>, <b>ETF</b>, Crypto &lt;News&gt; (@cryptonews): <a href="https://t.me/cryptonews/2">open</a>\nAnother <b>bitcoin</b> fund',
    );
    expect(text).toContain("• <b>BTC</b>, Traders chat:");
    // each tracker still records its own match
    const rows = await t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.trackerMatches)
      .where(eq(t.deps.asyncDb.tables.trackerMatches.sourceMessageId, 2));
    expect(rows.map((r) => r.trackerId).sort()).toEqual([btc.id, etf.id, bobs.id].sort());
  });
});

describe("team chats and digests", () => {
  const forum: ChatInfo = { chatId: "-1001000000009", type: "supergroup", title: "Team <forum>", username: null };
  const queued = async (topic: string) =>
    t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.outbox)
      .where(eq(t.deps.asyncDb.tables.outbox.topic, topic))
      .orderBy(asc(t.deps.asyncDb.tables.outbox.id));

  test("notify_via chat posts into the owner's group, in the forum topic; a chat that is not the owner's is refused and nothing changes", async () => {
    await recordBotMembership(t.deps, forum, { id: 42 }, { isAdmin: true, canInvite: true }, 5);
    telegram.runs(forum.chatId, 42);
    const tr = await track({
      name: "BTC",
      keyword: "bitcoin",
      notify_via: "chat",
      notify_chat_id: Number(forum.chatId),
      notify_thread_id: 17,
    });
    expect([tr.notifyVia, tr.notifyChatId, tr.notifyThreadId]).toEqual(["chat", forum.chatId, 17]);
    const eth = await track({ name: "ETH", keyword: "ethereum", notify_via: "chat", notify_chat_id: forum.chatId, notify_thread_id: 17 });
    await ingestPost(t.deps, { chat: channel, messageId: 5, text: "bitcoin and ethereum" });
    const [sent, ...rest] = await queued("tracker_chat");
    expect(rest).toEqual([]); // both trackers, one post, one chat: one message
    expect(sent!.target).toBe(forum.chatId);
    expect(sent!.payload).toEqual({
      text: "🔔 <b>BTC</b>, <b>ETH</b>: new match\n📣 Crypto &lt;News&gt; (@cryptonews)\n\n<b>bitcoin</b> and ethereum",
      link_preview_options: { is_disabled: true },
      reply_markup: { inline_keyboard: [[{ text: "Open post", url: "https://t.me/cryptonews/5" }]] },
      message_thread_id: 17,
    });
    expect(await notifications()).toEqual([]); // nothing to the owner's private chat

    // someone else's group, a group where the bot is no longer an administrator, no chat at all
    const bob = await upsertTelegramUser(t.deps, { id: 77, username: "bob", firstName: "Bob" });
    const bobsGroup: ChatInfo = { chatId: "-1001000000077", type: "supergroup", title: "Bob's", username: null };
    await recordBotMembership(t.deps, bobsGroup, { id: 77 }, { isAdmin: true, canInvite: true }, 5);
    telegram.runs(bobsGroup.chatId, 77);
    await expect(track({ keyword: "x", notify_via: "chat", notify_chat_id: bobsGroup.chatId })).rejects.toMatchObject({
      status: 400,
      code: "chat_not_yours",
    });
    await expect(updateTracker(t.deps, userId, eth.id, { notify_chat_id: bobsGroup.chatId })).rejects.toMatchObject({
      code: "chat_not_yours",
    });
    await expect(
      createTracker(t.deps, bob.id, { name: "y", keyword: "y", notify_via: "chat", notify_chat_id: forum.chatId }),
    ).rejects.toMatchObject({ code: "chat_not_yours" });
    await expect(track({ keyword: "x", notify_via: "chat" })).rejects.toMatchObject({
      status: 400,
      details: [{ field: "notify_chat_id" }],
    });
    await recordBotMembership(t.deps, forum, null, { isAdmin: false, canInvite: false }, 5);
    await expect(updateTracker(t.deps, userId, eth.id, { notify_thread_id: 18 })).rejects.toMatchObject({ code: "chat_not_yours" });
    const rows = await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackers).orderBy(asc(t.deps.asyncDb.tables.trackers.id));
    expect(rows.map((r) => [r.name, r.notifyChatId, r.notifyThreadId])).toEqual([
      ["BTC", forum.chatId, 17],
      ["ETH", forum.chatId, 17],
    ]);
  });

  test("notify_every hour: matches wait in the database and go out as one digest per tracker when the UTC hour ends", async () => {
    await recordBotMembership(t.deps, forum, { id: 42 }, { isAdmin: true, canInvite: true }, 5);
    telegram.runs(forum.chatId, 42);
    t.clock.set(new Date("2026-03-01T10:20:00Z"));
    const hourly = await track({ name: "Hourly BTC", keyword: "bitcoin", notify_every: "hour" });
    const team = await track({
      name: "Team ETH",
      keyword: "ethereum",
      notify_every: "hour",
      notify_via: "chat",
      notify_chat_id: forum.chatId,
      notify_thread_id: 3,
    });
    const daily = await track({ name: "Daily SOL", keyword: "solana", notify_every: "day" });
    await ingestPost(t.deps, { chat: channel, messageId: 1, text: "bitcoin up" });
    t.clock.advance(20 * 60_000);
    await ingestPost(t.deps, { chat: group, messageId: 2, text: "bitcoin, ethereum and solana" });
    expect(await notifications()).toEqual([]);
    expect(await flushTrackerNotifications(t.deps)).toBe(0);
    expect(await flushTrackerDigests(t.deps)).toBe(0); // 10:40: the hour has not ended
    t.clock.set(new Date("2026-03-01T10:59:59Z"));
    expect(await flushTrackerDigests(t.deps)).toBe(0);
    t.clock.set(new Date("2026-03-01T11:00:05Z"));
    await ingestPost(t.deps, { chat: channel, messageId: 3, text: "bitcoin again" }); // belongs to the next hour
    expect(await flushTrackerDigests(t.deps)).toBe(2);
    expect(await flushTrackerDigests(t.deps)).toBe(0); // taken once
    const digests = await queued("tracker_digest");
    expect(digests.map((d) => [d.refId, d.target])).toEqual([
      [hourly.id, "42"],
      [team.id, forum.chatId],
    ]);
    const mine = digests[0]!.payload as { text: string };
    expect(mine.text).toBe(
      '🗓 <b>Hourly BTC</b>: 2 matches in the last hour\n\n• Crypto &lt;News&gt;: <a href="https://t.me/cryptonews/1">open</a>\n<b>bitcoin</b> up\n• Traders chat: <a href="https://t.me/c/1000000002/2">open</a>\n<b>bitcoin</b>, ethereum and solana',
    );
    expect(digests[1]!.payload).toMatchObject({
      text: '🗓 <b>Team ETH</b>: 1 match in the last hour\n\n• Traders chat: <a href="https://t.me/c/1000000002/2">open</a>\nbitcoin, <b>ethereum</b> and solana',
      message_thread_id: 3,
    });
    expect((digests[1]!.payload as { reply_markup?: unknown }).reply_markup).toBeUndefined();
    // the daily one waits for midnight UTC; the 11:00 match for 12:00
    t.clock.set(new Date("2026-03-01T12:00:00Z"));
    expect(await flushTrackerDigests(t.deps)).toBe(1);
    t.clock.set(new Date("2026-03-02T00:00:01Z"));
    expect(await flushTrackerDigests(t.deps)).toBe(1);
    expect((await queued("tracker_digest")).map((d) => d.refId)).toEqual([hourly.id, team.id, hourly.id, daily.id]);
  });

  test("notify_every day: the day ends at midnight in the owner's time zone", async () => {
    await updateSettings(t.deps, userId, { time_zone: "Asia/Kolkata" }); // UTC+05:30
    t.clock.set(new Date("2026-03-01T17:00:00Z")); // 22:30 in Kolkata
    const daily = await track({ name: "Daily SOL", keyword: "solana", notify_every: "day" });
    await ingestPost(t.deps, { chat: channel, messageId: 7, text: "solana news" });
    t.clock.set(new Date("2026-03-01T18:29:59Z")); // 23:59:59 there
    expect(await flushTrackerDigests(t.deps)).toBe(0);
    t.clock.set(new Date("2026-03-01T18:30:01Z")); // the 2nd of March there, still the 1st in UTC
    expect(await flushTrackerDigests(t.deps)).toBe(1);
    expect(await flushTrackerDigests(t.deps)).toBe(0);
    expect((await queued("tracker_digest")).map((d) => d.refId)).toEqual([daily.id]);
  });
});

test("the preview counts an edited post once: an edit takes the place of the post it edits", async () => {
  const { previewTracker } = await import("../../../core/tracking/preview");
  const tracker = await track({ keyword: "скидка" });
  await ingestPost(t.deps, { chat: channel, messageId: 7, text: "Большая скидка сегодня" });
  await ingestPost(t.deps, { chat: channel, messageId: 7, text: "Большая скидка сегодня!", edited: true });
  await ingestPost(t.deps, { chat: channel, messageId: 7, text: "Большая скидка сегодня!!", edited: true });
  await ingestPost(t.deps, { chat: channel, messageId: 8, text: "Другая скидка" });
  const preview = await previewTracker(t.deps, tracker as Parameters<typeof previewTracker>[1]);
  expect(preview.of).toBe(2);
  expect(preview.matched.map((m) => m.snippet)).toEqual(["Другая скидка", "Большая скидка сегодня!!"]);
});
