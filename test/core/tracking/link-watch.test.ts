/**
 * watch_links (posts carrying the owner's short links and invite links, and where they were posted)
 * and the pruning of skip_reposts texts, on SQLite and on a real PostgreSQL.
 */
import { expect, test } from "bun:test";
import type { Deps } from "../../../core/deps";
import { ManualClock } from "../../../core/clock";
import { silentLogger } from "../../../core/log";
import { createMatchHost } from "../../../core/tracking/match-host";
import { ingestPost, pruneSeenTexts, type IncomingPost } from "../../../core/tracking/ingest";
import { invitePlacements, linkPlacements } from "../../../core/tracking/link-watch";
import { createTracker } from "../../../core/tracking/trackers";
import type { ChatInfo } from "../../../core/tracking/sources";
import { JOBS } from "../../../jobs";
import { onBothDatabases } from "../../helpers/async-engines";

const channel: ChatInfo = { chatId: "-1001000000001", type: "channel", title: "Crypto News", username: "cryptonews" };
const other: ChatInfo = { chatId: "-1001000000002", type: "channel", title: "Deals <daily>", username: "dealsdaily" };

onBothDatabases((open) => {
  async function setup() {
    const { db } = await open();
    const clock = new ManualClock("2026-03-20T10:00:00Z");
    const deps = {
      asyncDb: db,
      clock,
      log: silentLogger,
      trackerIndex: createMatchHost(() => db, silentLogger),
      config: { shortUrl: "https://sho.rt", baseUrl: "https://app.example.com", planLimits: { free: { trackers: 50 } } },
      cluster: { nodeId: "test", bus: { publish: async () => {} } },
    } as unknown as Deps;
    const user = async (username: string) => (await db.insert(db.tables.users).values({ username }).returning())[0]!;
    const ada = await user("ada");
    const bob = await user("bob");
    const link = async (userId: number, code: string, domainId: number | null = null) =>
      (
        await db
          .insert(db.tables.links)
          .values({ userId, code, url: `https://example.org/${code}`, domainId })
          .returning()
      )[0]!;
    const post = (messageId: number, text: string, extra: Partial<IncomingPost> = {}, chat = channel) =>
      ingestPost(deps, { chat, messageId, text, ...extra });
    return { db, deps, clock, ada, bob, link, post };
  }

  test("a post carrying the owner's link in its text, behind a text link or on a button matches the watch_links tracker with that link; a stranger's does not", async () => {
    const { db, deps, ada, bob, link, post } = await setup();
    const promo = await link(ada.id, "promo");
    const spring = await link(ada.id, "spring");
    const bobs = await link(bob.id, "bobs");
    const [domain] = await db
      .insert(db.tables.domains)
      .values({ userId: ada.id, hostname: "go.ada.shop", verificationToken: "t", verifiedAt: new Date("2026-03-01T00:00:00Z") })
      .returning();
    const onDomain = await link(ada.id, "sale", domain!.id);
    const [ch] = await db
      .insert(db.tables.channels)
      .values({ userId: ada.id, chatId: "-100777", type: "channel", title: "Ada's channel" })
      .returning();
    const [invite] = await db
      .insert(db.tables.channelInvites)
      .values({ userId: ada.id, channelId: ch!.id, chatId: "-100777", name: "Spring ad", inviteLink: "https://t.me/+AbCdEf123" })
      .returning();
    const watcher = await createTracker(deps, ada.id, { name: "My links", keyword: "zzzunlikely", watch_links: true });
    const keywordOnly = await createTracker(deps, ada.id, { name: "Deals", keyword: "deal" });

    // in the text, without a scheme, followed by a full stop
    const [m1] = await post(1, "Best deal of the week: sho.rt/promo. Don't miss it");
    // only the keyword tracker matched the word, the watcher matched the link and says which
    const byTracker = async (messageId: number) =>
      (await db.select().from(db.tables.trackerMatches))
        .filter((m) => m.sourceMessageId === messageId)
        .sort((a, b) => a.trackerId - b.trackerId);
    expect((await byTracker(1)).map((m) => [m.trackerId, m.matchedKeyword, m.linkId, m.inviteId])).toEqual([
      [watcher.id, "sho.rt/promo", promo.id, null],
      [keywordOnly.id, "deal", null, null],
    ]);
    expect(m1).toBeDefined();
    expect((await byTracker(1))[0]!.textSnippet).toBe("Best deal of the week: sho.rt/promo. Don't miss it");
    // behind a text link (entity positions in the text)
    const text = "Spring sale starts today, read more here";
    await post(2, text, { carriedUrls: [{ url: "https://sho.rt/spring?utm_source=tg", start: text.indexOf("here"), end: text.length }] });
    expect((await byTracker(2)).map((m) => [m.matchedKeyword, m.linkId, m.textSnippet])).toEqual([
      ["https://sho.rt/spring?utm_source=tg", spring.id, text],
    ]);
    // on a button, in another channel; and on the owner's custom domain
    await post(3, "New collection", { carriedUrls: [{ url: "https://sho.rt/promo" }] }, other);
    await post(4, "Shop now: https://go.ada.shop/sale 🚀");
    expect((await byTracker(3)).map((m) => [m.matchedKeyword, m.linkId])).toEqual([["https://sho.rt/promo", promo.id]]);
    expect((await byTracker(4)).map((m) => [m.matchedKeyword, m.linkId])).toEqual([["https://go.ada.shop/sale", onDomain.id]]);
    // an invite link, in either of Telegram's spellings
    await post(5, "Join us: t.me/joinchat/AbCdEf123");
    expect((await byTracker(5)).map((m) => [m.matchedKeyword, m.linkId, m.inviteId])).toEqual([
      ["t.me/joinchat/AbCdEf123", null, invite!.id],
    ]);

    // a stranger's link, an unknown code, another host with ada's code, a code on ada's domain that is bob's: nothing
    expect(
      await post(6, "sho.rt/bobs and sho.rt/nosuch and https://other.io/promo", { carriedUrls: [{ url: "https://go.ada.shop/bobs" }] }),
    ).toEqual([]);
    expect(bobs.userId).toBe(bob.id);
    // bob watching links sees his own link, never ada's
    const bobWatcher = await createTracker(deps, bob.id, { name: "Bob's links", keyword: "qqqunlikely", watch_links: true });
    await post(7, "sho.rt/promo sho.rt/bobs");
    expect((await byTracker(7)).map((m) => [m.trackerId, m.linkId])).toEqual([
      [watcher.id, promo.id],
      [bobWatcher.id, bobs.id],
    ]);

    // where the link was posted: one item per post, newest first, and the distinct chats
    const placed = await linkPlacements(deps, ada.id, promo.id);
    expect([placed.channels, placed.posts]).toEqual([2, 3]);
    expect(placed.items.map((p) => [p.source_title, p.source_message_id, p.post_url])).toEqual([
      ["Crypto News", 7, "https://t.me/cryptonews/7"],
      ["Deals <daily>", 3, "https://t.me/dealsdaily/3"],
      ["Crypto News", 1, "https://t.me/cryptonews/1"],
    ]);
    const invited = await invitePlacements(deps, ada.id, invite!.id);
    expect([invited.channels, invited.posts, invited.items.map((p) => p.post_url)]).toEqual([1, 1, ["https://t.me/cryptonews/5"]]);
    await expect(invitePlacements(deps, bob.id, invite!.id)).rejects.toThrow("not found");
    await expect(linkPlacements(deps, bob.id, promo.id)).rejects.toThrow("not found");
  });

  test("tracker_seen_texts older than 24 h are pruned by the hourly job; the copy matches again after the window", async () => {
    const { db, deps, clock, ada, post } = await setup();
    const skipping = await createTracker(deps, ada.id, { name: "BTC", keyword: "bitcoin", skip_reposts: true });
    expect((await post(1, "Bitcoin hits a new high")).map((m) => m.trackerId)).toEqual([skipping.id]);
    clock.advance(3600_000);
    expect(await post(2, "BITCOIN  hits a new high", {}, other)).toEqual([]); // a copy, within the window
    expect(await pruneSeenTexts(deps)).toBe(0);
    expect(await db.select().from(db.tables.trackerSeenTexts)).toHaveLength(1);
    clock.advance(23 * 3600_000 - 1);
    expect(await pruneSeenTexts(deps)).toBe(0); // 24 h less a millisecond
    clock.advance(1);
    const job = JOBS.find((j) => j.name === "prune-seen-texts")!;
    expect(job.pattern).toBe("23 * * * *");
    expect(await job.run(deps)).toBe(1);
    expect(await db.select().from(db.tables.trackerSeenTexts)).toEqual([]);
    expect((await post(3, "Bitcoin hits a new high", {}, other)).map((m) => m.trackerId)).toEqual([skipping.id]);
  });
});
