import { afterEach, beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../../helpers/app";
import { createMtprotoSource, type MtprotoChat, type MtprotoClient, type MtprotoPost } from "../../../core/tracking/mtproto";
import { createTracker } from "../../../core/tracking/trackers";
import { upsertTelegramUser } from "../../../core/accounts/users";

/** A fake user client: the test plays Telegram's side through `emit`. */
class FakeMtprotoClient implements MtprotoClient {
  connected = false;
  chats: MtprotoChat[] = [];
  private handlers?: { post(p: MtprotoPost): void | Promise<void>; deleted(chatId: string, ids: number[]): void | Promise<void> };
  async connect() {
    this.connected = true;
  }
  async disconnect() {
    this.connected = false;
  }
  async listChats() {
    return this.chats;
  }
  subscribe(h: NonNullable<FakeMtprotoClient["handlers"]>) {
    this.handlers = h;
  }
  /** resolves once the source has taken the post in (as the real client, it does not wait itself) */
  post(p: MtprotoPost) {
    return this.handlers!.post(p);
  }
  delete(chatId: string, ids: number[]) {
    return this.handlers!.deleted(chatId, ids);
  }
}

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

test("followed channels become sources; posts match; edits update; deletions mark is_deleted and notify", async () => {
  const user = await upsertTelegramUser(t.deps, { id: 42, username: "alice", firstName: "Alice" });
  await createTracker(t.deps, user.id, { name: "Leaks", keyword: "leak", notify_on_delete: true, filter_min_subscribers: 10000 });
  const client = new FakeMtprotoClient();
  client.chats = [
    { chatId: "-1007000000001", type: "channel", title: "Big Public", username: "bigpublic", memberCount: 250000 },
    { chatId: "-1007000000002", type: "channel", title: "Small", username: null, memberCount: 40 },
  ];
  const source = createMtprotoSource(t.deps, client);
  await source.start();
  expect(client.connected).toBe(true);
  expect((await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackingSources)).map((s) => [s.chatId, s.via, s.memberCount])).toEqual([
    ["-1007000000001", "mtproto", 250000],
    ["-1007000000002", "mtproto", 40],
  ]);

  await client.post({ chatId: "-1007000000001", messageId: 10, text: "Huge data LEAK reported" });
  await client.post({ chatId: "-1007000000002", messageId: 11, text: "leak in a small channel" }); // under filter_min_subscribers
  await client.post({ chatId: "-1009999999999", messageId: 12, text: "leak in a chat we do not follow" });
  let matches = await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches);
  expect(matches.map((m) => [m.sourceChatId, m.sourceMessageId, m.matchedKeyword, m.postUrl])).toEqual([
    ["-1007000000001", 10, "LEAK", "https://t.me/bigpublic/10"],
  ]);

  await client.post({ chatId: "-1007000000001", messageId: 10, text: "Update: the leak was smaller" });
  expect((await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches))[0]!.textSnippet).toBe("Update: the leak was smaller");

  await client.delete("-1007000000001", [10, 99]);
  matches = await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.trackerMatches);
  expect(matches.map((m) => m.isDeleted)).toEqual([true]);
  const deletedMsg = (
    await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox).where(eq(t.deps.asyncDb.tables.outbox.topic, "tracker_deleted"))
  )[0]!;
  expect(deletedMsg).toMatchObject({ userId: user.id, target: "42", refId: matches[0]!.id });
  expect((deletedMsg.payload as { text: string }).text).toBe(
    "🗑 <b>Leaks</b>: a matched post was deleted\n📣 Big Public (@bigpublic)\n\nUpdate: the <b>leak</b> was smaller",
  );

  await source.stop();
  expect(client.connected).toBe(false);
});
