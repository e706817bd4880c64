/**
 * The flows of docs/bot.md that reach into nested objects, driven from where the table starts them
 * (`/start`, or a URL of the user's own pasted into the chat), counting the taps: each is at most 3,
 * plus the “Yes” that confirms a delete.
 */
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import type { InlineKeyboardButton } from "grammy/types";
import { unitBot } from "./unit";
import { upsertTelegramUser } from "../../core/accounts/users";
import { createFolder } from "../../core/secure/folders";
import { createFile, listFiles } from "../../core/secure/files";
import { createShareLink as createShare, getShareLink as getShare, listFileShareLinks as listShares } from "../../core/secure/share-links";
import { createRequest, getRequest, listRequests } from "../../core/secure/requests";
import { createLink } from "../../core/links/links";
import { insertLink } from "../helpers/clicks";
import { createTag, listTags } from "../../core/catalog/tags";
import { listPlacements } from "../../core/placements/placements";

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;

/** Alice with a folder holding two text files, the first shared once; a request link into the folder. */
async function setup() {
  b = unitBot({ SHORT_URL: "https://s.example" });
  const deps = b.t.deps;
  const user = await upsertTelegramUser(deps, { id: 42, username: "alice", firstName: "Alice" });
  const folder = await createFolder(deps, user.id, { name: "Contracts" });
  const memo = await createFile(deps, user.id, { folderId: folder.id, name: "memo", contentType: "text", textContent: "hi" });
  const notes = await createFile(deps, user.id, { folderId: folder.id, name: "notes", contentType: "text", textContent: "ho" });
  const share = await createShare(deps, user.id, { fileId: memo.id, expiresInHours: 24, maxViews: 5 });
  const request = await createRequest(deps, user.id, { folderId: folder.id, title: "Scans" });
  return { deps, user, folder, memo, notes, share, request };
}

/** Counts the taps of a flow. */
function counter() {
  let taps = 0;
  return {
    press: async (label: string | RegExp) => (taps++, b.press(label)),
    /** taps `label` on the row of the newest keyboard whose first button matches `row` */
    pressInRow: async (row: RegExp, label: string) => {
      taps++;
      for (let i = b.calls.length - 1; i >= 0; i--) {
        const rows = b.calls[i]!.params.reply_markup?.inline_keyboard as InlineKeyboardButton[][] | undefined;
        const line = rows?.find((r) => row.test(r[0]?.text ?? ""));
        const button = line?.find((x) => x.text === label) as InlineKeyboardButton.CallbackButton | undefined;
        if (button) return b.tap(button.callback_data, Number(b.calls[i]!.params.message_id ?? b.calls[i]!.result?.message_id));
      }
      throw new Error(`no ${label} on a row ${row}`);
    },
    get taps() {
      return taps;
    },
  };
}

/** What a stranger opening the share link gets now. */
const publicStatus = async (code: string) => (await b.t.request("GET", `/api/secure/view/${code}`)).status;

describe("flows within 3 taps from /start", () => {
  test("revoke, restore and delete a share link from the flat list under Secure sharing", async () => {
    const { user, share } = await setup();
    const flow = counter();
    await b.send("/start");
    await flow.press("🔒 Secure sharing");
    await flow.press("🔗 Share links");
    expect(lastText()).toContain("🔗 <b>Share links</b> (1)");
    await flow.pressInRow(/memo · /, "⛔");
    expect(flow.taps).toBe(3);
    expect(lastText()).toContain(`⛔ Revoked ${share.url}`);
    expect((await getShare(b.t.deps, user.id, share.id)).state).toBe("revoked");
    expect(await publicStatus(share.code)).toBe(403);

    const again = counter();
    await again.pressInRow(/memo · /, "♻️");
    expect((await getShare(b.t.deps, user.id, share.id)).state).toBe("active");
    await again.pressInRow(/memo · /, "🗑");
    expect(lastText()).toContain(`Delete the share link ${share.url}?`);
    await b.press("Keep it");
    expect(lastText()).toContain("🔗 <b>Share links</b> (1)");
    await again.pressInRow(/memo · /, "🗑");
    await b.press("🗑 Yes, delete");
    expect(lastText()).toContain("🗑 Share link deleted.");
    expect(lastText()).toContain("none yet");
    expect(await listShares(b.t.deps, user.id, share.fileId)).toHaveLength(0);
  });

  test("a tap on a share link in the list opens its screen, with its options", async () => {
    const { share } = await setup();
    const flow = counter();
    await b.send("/start");
    await flow.press("🔒 Secure sharing");
    await flow.press("🔗 Share links");
    await flow.press(/memo · /);
    expect(flow.taps).toBe(3);
    expect(lastText()).toContain(share.url);
    expect(lastText()).toContain("Views: 0 of 5");
    expect(b.findButton("🔒 Set password")).not.toBeNull();
    // the URL is copied by a button (a tap on the URL itself would open it and count a view)
    const copy = b.calls
      .findLast((c) => c.params.reply_markup)!
      .params.reply_markup.inline_keyboard.flat()
      .find((x: { copy_text?: unknown }) => x.copy_text);
    expect(copy).toEqual({ text: "📋 Copy link", copy_text: { text: share.url } });
  });

  test("share or delete a file from its row in the folder", async () => {
    const { user, folder } = await setup();
    const flow = counter();
    await b.send("/start");
    await flow.press("🔒 Secure sharing");
    await flow.press(/Contracts/);
    await flow.pressInRow(/notes · text/, "🔗");
    expect(flow.taps).toBe(3);
    expect(lastText()).toContain("How long should the link work?");
    await b.send("/cancel");

    const del = counter();
    await b.send("/start");
    await del.press("🔒 Secure sharing");
    await del.press(/Contracts/);
    await del.pressInRow(/notes · text/, "🗑");
    expect(del.taps).toBe(3);
    expect(lastText()).toContain("Delete “notes” and its 0 share links?");
    await b.press("Keep it");
    expect(lastText()).toContain("📁 <b>Contracts</b>");
    expect(await listFiles(b.t.deps, user.id, folder.id)).toHaveLength(2);
    await del.pressInRow(/notes · text/, "🗑");
    await b.press("🗑 Yes, delete");
    expect(lastText()).toContain("🗑 File deleted.");
    expect((await listFiles(b.t.deps, user.id, folder.id)).map((f) => f.name)).toEqual(["memo"]);
  });

  test("turn a request link off and on, or delete it, from its row in the list", async () => {
    const { user, request } = await setup();
    const flow = counter();
    await b.send("/start");
    await flow.press("🔒 Secure sharing");
    await flow.press("📥 Request links");
    await flow.pressInRow(/Scans/, "⏸");
    expect(flow.taps).toBe(3);
    expect(lastText()).toContain("⏸ Turned off: Scans");
    expect((await getRequest(b.t.deps, user.id, request.id)).state).toBe("inactive");
    const refused = await b.t.request("POST", `/api/secure/requests/${request.code}/upload`, { body: { text: "late" } });
    expect(refused.status).toBe(410);
    await flow.pressInRow(/Scans/, "▶️");
    expect((await getRequest(b.t.deps, user.id, request.id)).state).toBe("active");
    await flow.pressInRow(/Scans/, "🗑");
    expect(lastText()).toMatch(/^Delete the request link https:\/\/s\.example\/r\//);
    await b.press("Keep it");
    expect(lastText()).toContain("📥 <b>Request links</b>");
    await flow.pressInRow(/Scans/, "🗑");
    await b.press("🗑 Yes, delete");
    expect(await listRequests(b.t.deps, user.id)).toHaveLength(0);
  });
});

test("delete a tag: ⚙️ Settings → 🏷 Tags → the tag, then Yes", async () => {
  const { user } = await setup();
  await createTag(b.t.deps, user.id, "spring");
  const flow = counter();
  await b.send("/start");
  await flow.press("⚙️ Settings");
  await flow.press("🏷 Tags");
  await flow.press("🗑 spring");
  expect(flow.taps).toBe(3);
  expect(lastText()).toContain("Delete the tag “spring”?");
  await b.press("🗑 Yes, remove");
  expect(await listTags(b.t.deps, user.id)).toEqual([]);
});

describe("a pasted URL of the user's own opens its screen", () => {
  test("a short link opens its card; the webhook secret is rotated in 2 taps plus the Yes", async () => {
    await setup();
    const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
    const made = await insertLink(b.t.deps, user.id, {
      url: "https://example.com/spring",
      webhookUrl: "https://hooks.example/clicks",
      webhookEnabled: true,
    });
    await b.send(`https://s.example/${made.code}`);
    expect(lastText()).toContain("https://example.com/spring");
    expect(lastText()).not.toContain("cannot be a target");
    const flow = counter();
    await flow.press(/🔔 Webhook: test/);
    await flow.press("🔑 Rotate secret");
    expect(flow.taps).toBe(2);
    expect(b.findButton("🔑 Yes, rotate")).not.toBeNull();
  });

  test("a share link's URL opens its screen, and ⛔ Revoke is the one tap", async () => {
    const { user, share } = await setup();
    await b.send(`Here it is: ${share.url}`, { entities: [{ type: "url", offset: 12, length: share.url.length }] });
    expect(lastText()).toContain("Views: 0 of 5");
    await b.press("⛔ Revoke");
    expect((await getShare(b.t.deps, user.id, share.id)).state).toBe("revoked");
  });

  test("a request link's URL opens its screen", async () => {
    const { request } = await setup();
    await b.send(request.url);
    expect(lastText()).toContain("📥 <b>Scans</b>");
    expect(lastText()).toContain("State: 🟢 open");
  });

  test("someone else's short link, or an unknown code, is still refused as a target", async () => {
    const { deps } = await setup();
    const bob = await upsertTelegramUser(deps, { id: 77, username: "bob", firstName: "Bob" });
    const his = await createLink(deps, bob, { url: "https://example.com/bob" });
    await b.send(his.trackingUrl);
    expect(lastText()).toContain("That cannot be a target");
    await b.send("https://s.example/nosuchcode");
    expect(lastText()).toContain("That cannot be a target");
  });
});

describe("ads: a placement in at most 3 answers after the forward, its screen in 2 taps", () => {
  test("forward an ad post, answer where and what it cost: the placement exists after 2 answers, and 📢 Ads → the placement shows it", async () => {
    const { user } = await setup();
    await b.send("Sale: shop.example", {
      forward_origin: { type: "channel", chat: { id: -100555, type: "channel", title: "Shop" }, message_id: 3, date: 0 },
      entities: [{ type: "url", offset: 6, length: 12 }],
    });
    let answers = 0;
    const answer = async (text: string) => (answers++, b.send(text));
    await answer("@bigchannel");
    await answer("5000 руб");
    expect(answers).toBeLessThanOrEqual(3);
    const [made] = await listPlacements(b.t.deps, user.id, { period: "all" });
    expect(made).toMatchObject({ venue: { kind: "telegram", username: "bigchannel" }, cost: { amount: 5000, currency: "RUB" } });
    expect(lastText()).toStartWith(`✅ Placement <b>${made!.name}</b>: 1 new tracking link.`);

    const flow = counter();
    await b.send("/start");
    await flow.press("📢 Ads");
    expect(lastText()).toContain(`1. <b>${made!.name}</b> · ₽5,000`);
    await flow.press(`1. ${made!.name}`);
    expect(flow.taps).toBe(2);
    expect(lastText()).toContain("👆 Clicks: 0, unique 0 · CPC —");
    await flow.press("👁 Views");
    expect(flow.taps).toBe(3);
    await b.send("10 000");
    expect(lastText()).toContain("👁 Views: 10,000 · CPM ₽500");
  });
});

describe("a keyword tracker within 3 taps (`/track <keyword>`, then the choices; the typed questions skipped)", () => {
  const posts = async (keyword: string, texts: string[]) => {
    const { TrackerIndex } = await import("../../core/tracking/matcher");
    const { listTrackers } = await import("../../core/tracking/trackers");
    const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
    const [t] = await listTrackers(b.t.deps, user.id);
    expect(t?.keyword).toBe(keyword);
    const index = new TrackerIndex([t!]);
    return texts.map((text) => index.match(text).hits.length === 1);
  };

  for (const lang of ["en", "ru"] as const)
    test(`${lang}: a plain keyword in 3 taps (whole words, where, how to be told); a query in 2 (no whole-words question)`, async () => {
      b = unitBot({}, { language_code: lang });
      const L =
        lang === "en"
          ? { whole: "Whole words", where: "Channels and chats", bot: "Message from this bot", created: "✅ Tracker created" }
          : { whole: "Целые слова", where: "В каналах и чатах", bot: "Сообщением от этого бота", created: "✅ Трекер создан" };
      await b.send("/start");
      const plain = counter();
      await b.send(lang === "en" ? "/track bitcoin" : "/track скидка");
      await plain.press(L.whole);
      await b.send("/skip");
      await plain.press(L.where);
      await b.send("/skip");
      await plain.press(L.bot);
      expect(lastText()).toStartWith(L.created);
      expect(plain.taps).toBe(3);
      // the Russian keyword got word forms: the forms of the misses match
      if (lang === "ru")
        expect(await posts("скидка", ["Скидок больше нет", "скидки до пятницы", "скидочный"])).toEqual([true, true, false]);
      else expect(await posts("bitcoin", ["Bitcoin is up", "bitcoins"])).toEqual([true, false]);
      await b.send("/trackers");
      await b.press(lang === "en" ? /bitcoin/ : /скидка/);
      await b.press(lang === "en" ? "🗑 Delete" : "🗑 Удалить");
      await b.press(lang === "en" ? /Yes/ : /Да/);

      const query = counter();
      await b.send(lang === "en" ? "/track bitcoin | ether NOT scam" : "/track биткоин OR эфир -скам");
      await b.send("/skip");
      await query.press(L.where);
      await b.send("/skip");
      await query.press(L.bot);
      expect(lastText()).toStartWith(L.created);
      expect(query.taps).toBe(2);
      // the query, not a phrase that matches nothing: either word, never with the minus word
      if (lang === "ru")
        expect(
          await posts("биткоин OR эфир -скам", ["Эфир дорожает", "курс биткоина", "эфир — это скам", "биткоин OR эфир -скам"]),
        ).toEqual([true, true, false, false]);
      else
        expect(await posts("bitcoin | ether NOT scam", ["ether rallies", "BITCOIN", "ether scam", "nothing"])).toEqual([
          true,
          true,
          false,
          false,
        ]);
    });
});
