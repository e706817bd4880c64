import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { unitBot } from "./unit";
import { plainOf } from "../helpers/fake-bot-api";
import { COMMANDS } from "../../bot/commands";
import { listLinks } from "../../core/links/list";
import { createTracker, getTracker } from "../../core/tracking/trackers";
import { ingestPost } from "../../core/tracking/ingest";
import { recordBotMembership } from "../../core/channels/ownership";

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;
/** the newest message as the user reads it (HTML entities read) */
const lastSeen = () => plainOf(b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params).text;
const userId = async () => (await b.t.deps.asyncDb.select().from(b.t.deps.asyncDb.tables.users))[0]!.id;
const FROM = { id: 42, is_bot: false, first_name: "Alice", username: "alice" };

describe("commands, help and deep links", () => {
  test("the command list holds every command the bot answers, and /help shows them all", async () => {
    const names = COMMANDS.map((c) => c.command);
    for (const c of ["start", "new", "links", "summary", "secure", "track", "trackers", "settings", "help", "cancel"])
      expect(names).toContain(c);
    b = unitBot();
    await b.send("/help");
    for (const c of names) expect(lastText()).toContain(`/${c} — `);
    expect(lastText()).toContain("@test_bot");
  });

  test("an unknown start payload gets the normal greeting", async () => {
    b = unitBot();
    await b.send("/start nonsense_12");
    expect(lastText()).toStartWith("👋 Welcome, Alice!");
  });
});

describe("inline mode", () => {
  const ask = (query: string) => b.update({ inline_query: { id: "q1", from: FROM, query, offset: "" } });
  const choose = (query: string, resultId = "new") =>
    b.update({ chosen_inline_result: { result_id: resultId, from: FROM, query, inline_message_id: "im-1" } });

  test("typing stores nothing: each pause offers the URL; sending the result creates one link and edits the message to it", async () => {
    b = unitBot();
    for (const partial of ["example.co", "example.com/in", "example.com/inline"]) await ask(partial);
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(0);
    const offer = b.last("answerInlineQuery");
    expect(offer.params.is_personal).toBe(true);
    expect(offer.params.results[0]).toMatchObject({
      type: "article",
      id: "new",
      title: "Shorten https://example.com/inline",
      input_message_content: { message_text: "https://example.com/inline" },
      reply_markup: { inline_keyboard: [[{ text: "⏳ Making the short link…", url: "https://t.me/test_bot" }]] },
    });

    await choose("example.com/inline");
    const [link] = await listLinks(b.t.deps, await userId());
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(1);
    expect(link!.original_url).toBe("https://example.com/inline");
    const edit = b.last("editMessageText");
    expect(edit.params).toMatchObject({ inline_message_id: "im-1", text: link!.trackingUrl });
    // everyone in that chat sees the message: no owner-only button (the edit takes the ⏳ one away)
    expect(edit.params.reply_markup).toBeUndefined();

    // an empty query lists the user's recent links, newest first
    await b.send("https://example.com/second");
    await ask("");
    const [second] = await listLinks(b.t.deps, await userId());
    expect(
      b
        .last("answerInlineQuery")
        .params.results.map((r: { id: string; title: string; input_message_content: { message_text: string } }) => [
          r.id,
          r.title,
          r.input_message_content.message_text,
        ]),
    ).toEqual([
      [`link-${second!.id}`, "https://example.com/second", second!.trackingUrl],
      [`link-${link!.id}`, "https://example.com/inline", link!.trackingUrl],
    ]);

    // the same URL again: the existing link is offered as it is, and nothing new is made
    await ask("https://example.com/inline");
    expect(b.last("answerInlineQuery").params.results[0]).toMatchObject({
      id: `link-${link!.id}`,
      input_message_content: { message_text: link!.trackingUrl },
    });
    await choose("https://example.com/inline");
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(2); // the two above, nothing new;
  });

  test("a bad URL says why; an empty query of someone without links offers nothing; an existing link's result creates nothing when sent", async () => {
    b = unitBot();
    await ask("https://example.com/a b");
    expect(b.last("answerInlineQuery").params.results[0].title).toBe("This cannot be shortened");
    await ask("");
    expect(b.last("answerInlineQuery").params.results).toEqual([]);
    await choose("https://example.com/x", "link-5");
    expect(await b.t.deps.asyncDb.select().from(b.t.deps.asyncDb.tables.links)).toHaveLength(0);
  });

  test("a plan that is full: the sent message keeps the plain URL and the sender is told why", async () => {
    b = unitBot({ PLAN_LIMITS: JSON.stringify({ free: { links: 1 } }) });
    await choose("example.com/one");
    await choose("example.com/two");
    expect((await listLinks(b.t.deps, await userId())).map((l) => l.original_url)).toEqual(["https://example.com/one"]);
    expect(b.last("editMessageText").params).toMatchObject({ inline_message_id: "im-1", text: "https://example.com/two" });
    expect(b.last("sendMessage").params).toMatchObject({
      chat_id: FROM.id,
      text: expect.stringContaining("⚠️ I could not shorten https://example.com/two:"),
    });
  });
});

describe("the bot added to a group or channel", () => {
  test("the person who added or removed it is told; the source is recorded", async () => {
    b = unitBot();
    const group = { id: -100777, type: "supergroup", title: "Deals chat" };
    const member = (status: string) => ({ status, user: { id: 123456789, is_bot: true, first_name: "Test Bot" } });
    await b.update({
      my_chat_member: {
        chat: group,
        from: { id: 7, is_bot: false, first_name: "Owner" },
        date: 0,
        old_chat_member: member("left"),
        new_chat_member: member("member"),
      },
    });
    expect(b.calls.find((c) => c.method === "sendMessage" && c.params.chat_id === 7)!.params.text).toContain(
      "I was added to the group “Deals chat”",
    );
    await b.update({
      my_chat_member: {
        chat: group,
        from: { id: 7, is_bot: false, first_name: "Owner" },
        date: 0,
        old_chat_member: member("member"),
        new_chat_member: member("left"),
      },
    });
    expect(b.calls.findLast((c) => c.method === "sendMessage" && c.params.chat_id === 7)!.params.text).toContain(
      "I was removed from the group “Deals chat”",
    );
  });
});

describe("tracker options (one tap, one answer, validated by core)", () => {
  test("keyword, matching, minus words, where, sources, language and notification target", async () => {
    b = unitBot();
    await b.send("/start");
    const tr = await createTracker(b.t.deps, await userId(), { name: "Deals", keyword: "deal" });
    await b.send(`/start tracker_${tr.id}`);
    const answer = async (label: string, text: string) => {
      await b.press(label);
      await b.send(text);
      return lastText();
    };
    expect(await answer("🔤 Keyword", "hot deal")).toContain("Keyword: <code>hot deal</code>");
    expect(await answer("🎯 Matching", "sometimes")).toContain("Send “whole” or “anywhere”.");
    expect(await b.send("whole").then(lastText)).toContain("(whole words)");
    expect(await answer("➖ Minus words", "в кредит, spam")).toContain("Minus words: в кредит, spam");
    expect(await answer("📍 Where", "channels")).toContain("Searches: channels");
    expect(await answer("✅ Only sources", "@dealsdaily t.me/c/123")).toContain("Only: @dealsdaily, t.me/c/123");
    await answer("🗣 Language", "xx");
    expect(lastSeen()).toContain('The language: "xx" is not an ISO 639-1 language code.');
    expect(await b.send("de").then(lastText)).toContain("Language: de");
    expect(await answer("👥 Min. subscribers", "/clear")).toContain("✅ Saved");
    const rx = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
    try {
      expect(await answer("📬 Notify via", `http://127.0.0.1:${rx.port}/m`)).toContain(
        `Notifies via: webhook http://127.0.0.1:${rx.port}/m`,
      );
    } finally {
      rx.stop(true);
    }
    expect(await getTracker(b.t.deps, await userId(), tr.id)).toMatchObject({
      keyword: "hot deal",
      exactMatch: true,
      minusWords: ["в кредит", "spam"],
      searchChats: false,
      filterLanguage: "de",
      notifyVia: "webhook",
    });
  });

  test("syntax, word forms, reposts, digests and a team chat, each one tap and one answer; the card previews the last posts", async () => {
    b = unitBot();
    await b.send("/start");
    const me = await userId();
    const tr = await createTracker(b.t.deps, me, { name: "Channels", keyword: "канал" });
    const news = { chatId: "-1003000000001", type: "channel" as const, title: "News", username: "news" };
    let id = 0;
    for (const text of ["Новые каналы недели", "Канал о рыбалке", "Ремонт канализации", "Про каналы и скам", "bitcoin ETF"])
      await ingestPost(b.t.deps, { chat: news, messageId: ++id, text });
    const team = { chatId: "-1003000000002", type: "supergroup" as const, title: "Team", username: null };
    await recordBotMembership(b.t.deps, team, { id: FROM.id }, { isAdmin: true, canInvite: true }, 3);
    b.fake.members.set(`${team.chatId}:${FROM.id}`, { status: "creator" }); // Telegram's word: the one who made the bot an administrator runs it
    await ingestPost(b.t.deps, { chat: team, messageId: 1, text: "наш канал растёт" }); // the owner's private group: in the preview
    await b.send(`/start tracker_${tr.id}`);
    // anywhere in words, as plain trackers match by default; the owner's private group counts, newest first, 3 shown
    expect(lastText()).toContain(
      "\n\n👀 This keyword would have matched these 5 of the last 6 posts:\n• Team: наш <b>канал</b> растёт\n• News: Про <b>канал</b>ы и скам\n• News: Ремонт <b>канал</b>изации",
    );
    const answer = async (label: string, text: string) => {
      await b.press(label);
      await b.send(text);
      return lastText();
    };
    expect(await answer("🌿 Word forms", "maybe")).toContain("Send “on” or “off”.");
    const forms = await b.send("on").then(lastText);
    expect(forms).toContain("any word forms");
    expect(forms).toContain(
      "👀 This keyword would have matched these 4 of the last 6 posts:\n• Team: наш <b>канал</b> растёт\n• News: Про <b>каналы</b> и скам\n• News: <b>Канал</b> о рыбалке",
    );
    expect(await answer("🔤 Keyword", "канал -скам")).toContain("would have matched these 0 of the last 6 posts."); // plain: the words as one phrase
    const query = await answer("🧩 Syntax", "query");
    expect(query).toContain("Query: <code>канал -скам</code>");
    expect(query).toContain("👀 This query would have matched these 3 of the last 6 posts:");
    expect(await answer("🔁 Reposts", "skip")).toContain("any word forms, reposts and copies skipped");
    expect(await answer("📍 My links", "maybe")).toContain("Send “on” or “off”.");
    expect(await b.send("on").then(lastText)).toContain("any word forms, reposts and copies skipped, posts with my links too");
    expect(await answer("⏰ How often", "hour")).toContain("Notifies via: this chat, one digest an hour");
    expect(await answer("📬 Notify via", "chat -1009999")).toContain(
      "Notifications can only go to one of your channels or groups where the bot is an administrator",
    );
    expect(await b.send("chat -1003000000002 7").then(lastText)).toContain(
      "Notifies via: chat Team, topic 7, one digest an hour", // the card names the chat
    );
    expect(await answer("🧩 Syntax", "query")).toContain("✅ Saved");
    expect(await answer("🔤 Keyword", "(канал")).toContain("the parenthesis at position 1 is not closed");
    expect(await getTracker(b.t.deps, me, tr.id)).toMatchObject({
      keyword: "канал -скам",
      syntax: "query",
      wordForms: true,
      skipReposts: true,
      watchLinks: true,
      notifyEvery: "hour",
      notifyVia: "chat",
      notifyChatId: team.chatId,
      notifyThreadId: 7,
    });
  });

  test("the tracker limit is said before the first question", async () => {
    b = unitBot({ PLAN_LIMITS: JSON.stringify({ free: { trackers: 1 } }) });
    await b.send("/start");
    await createTracker(b.t.deps, await userId(), { name: "One", keyword: "one" });
    await b.send("/track");
    expect(lastText()).toContain("allows 1 trackers and you have 1");
    expect(b.calls.some((c) => String(c.params.text ?? "").includes("New keyword tracker"))).toBe(false);
    await b.t.deps.asyncDb
      .update(b.t.deps.asyncDb.tables.users)
      .set({ plan: "pro" })
      .where(eq(b.t.deps.asyncDb.tables.users.id, await userId()));
    await b.send("/track");
    expect(lastText()).toContain("New keyword tracker");
  });
});
