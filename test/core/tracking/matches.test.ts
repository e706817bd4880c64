/** Keyword matches (core/tracking/matches.ts) on SQLite and on a real PostgreSQL. */
import { expect, test } from "bun:test";
import type { Deps } from "../../../core/deps";
import { listMatches, markAllRead, markMatchRangeRead, markMatchesRead, unreadCount } from "../../../core/tracking/matches";
import { onBothDatabases } from "../../helpers/async-engines";

onBothDatabases((open) => {
  test("a tracker's feed newest first with its total; unread counts; read by id (own only), by a notification's range (bot trackers only) and all at once", async () => {
    const { db } = await open();
    const at = new Date("2026-03-01T09:30:00Z");
    const [ada] = await db.insert(db.tables.users).values({ username: "ada" }).returning();
    const [bob] = await db.insert(db.tables.users).values({ username: "bob" }).returning();
    const tracker = async (userId: number, notifyVia: "bot" | "webhook") =>
      (await db.insert(db.tables.trackers).values({ userId, name: "t", keyword: "deal", notifyVia, createdAt: at }).returning())[0]!;
    const botT = await tracker(ada!.id, "bot");
    const hookT = await tracker(ada!.id, "webhook");
    const match = async (trackerId: number, n: number) =>
      (
        await db
          .insert(db.tables.trackerMatches)
          .values({ trackerId, sourceChatId: "-100", sourceMessageId: n, textSnippet: `deal ${n}`, matchedKeyword: "deal", detectedAt: at })
          .returning()
      )[0]!;
    const m1 = await match(botT.id, 1);
    const m2 = await match(hookT.id, 2);
    const m3 = await match(botT.id, 3);
    const deps = { asyncDb: db } as unknown as Deps;
    const page = await listMatches(deps, ada!.id, botT.id, 1, 0);
    expect([page.total, page.items.map((m) => m.text_snippet)]).toEqual([2, ["deal 3"]]);
    expect((await listMatches(deps, ada!.id, botT.id, 5, 1)).items.map((m) => m.id)).toEqual([m1.id]);
    await expect(listMatches(deps, bob!.id, botT.id)).rejects.toThrow("Tracker not found");
    expect(await unreadCount(deps, ada!.id, botT.id)).toBe(2);
    expect(await markMatchesRead(deps, ada!.id, [m1.id])).toBe(1);
    await expect(markMatchesRead(deps, bob!.id, [m3.id])).rejects.toThrow("Match not found");
    expect(await unreadCount(deps, ada!.id, botT.id)).toBe(1);
    // the range of a bot notification: the webhook tracker's match inside it is left alone
    expect(await markMatchRangeRead(deps, ada!.id, m1.id, m3.id)).toBe(2);
    expect(await unreadCount(deps, ada!.id, hookT.id)).toBe(1);
    await markAllRead(deps, ada!.id, hookT.id);
    expect(await unreadCount(deps, ada!.id, hookT.id)).toBe(0);
    expect(m2.isRead).toBe(false);
  });
});
