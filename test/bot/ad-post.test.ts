/**
 * One post, one placement, in the bot: a forwarded post (or a pasted one with several links) asks
 * where it runs and what it cost, and two answers later the post comes back rewritten for the new
 * placement, formatting and buttons kept, with Copy and Share buttons; a bad answer says the rule and
 * asks again; /adpost asks for the post first; a photo post is copied with its new caption. In English
 * and in Russian.
 */
import { afterEach, expect, test, setDefaultTimeout } from "bun:test";
import { unitBot } from "./unit";
import { listLinks } from "../../core/links/list";
import { createLink } from "../../core/links/links";
import { findUserByIdentity, upsertTelegramUser } from "../../core/accounts/users";
import { listPlacements } from "../../core/placements/placements";
import { addChannel } from "../../core/channels/channels";
import { updateSettings } from "../../core/reports/settings";

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

async function setUp(language: "en" | "ru" = "en") {
  b = unitBot({}, { language_code: language });
  await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice", appLanguage: language });
}
const userId = async () => (await findUserByIdentity(b.t.deps, "telegram", "42"))!.id;
const sent = () => b.calls.filter((c) => c.method === "sendMessage");
const lastText = () => sent().at(-1)!.params.text as string;
const forwarded = {
  forward_origin: { type: "channel", chat: { id: -100777, type: "channel", title: "Shop news" }, message_id: 9, date: 0 },
};
const SALE = "Spring sale! shop.example/spring — details inside";
const saleExtra = {
  ...forwarded,
  entities: [
    { type: "bold", offset: 0, length: 12 },
    { type: "url", offset: 13, length: 19 },
  ],
  reply_markup: { inline_keyboard: [[{ text: "Open shop", url: "https://shop.example/spring" }]] },
};

test("a forwarded post: where, then the price, and the post comes back rewritten, with Copy, Share and the placement (2 answers)", async () => {
  await setUp();
  await b.send(SALE, saleExtra);
  expect(lastText()).toStartWith("This post has 1 link. Where will it run?");
  expect(await listLinks(b.t.deps, await userId())).toEqual([]); // nothing made before the answers
  let answers = 0;
  await b.send("@bigchannel", {}), answers++;
  expect(lastText()).toStartWith("What did it cost? For example <code>5 000 ₽</code>");
  expect(lastText()).toContain("a number alone in USD");
  await b.send("5 000 ₽"), answers++;
  expect(answers).toBeLessThanOrEqual(3);

  const [placement] = await listPlacements(b.t.deps, await userId(), { period: "all" });
  expect(placement).toMatchObject({ venue: { kind: "telegram", username: "bigchannel" }, cost: { amount: 5000, currency: "RUB" } });
  const [made] = await listLinks(b.t.deps, await userId());
  expect(made!.original_url).toBe("https://shop.example/spring");
  // each new link is titled after the placement and its target's host, and bound to the placement
  expect(made!.title).toBe(`${placement!.name} · shop.example`);
  expect(placement!.links.map((l) => l.id)).toEqual([made!.id]);
  const [copy, summary] = sent().slice(-2);
  expect(copy!.params.text).toBe(`Spring sale! ${made!.trackingUrl} — details inside`);
  expect(copy!.params.entities).toEqual([
    { type: "bold", offset: 0, length: 12 },
    { type: "url", offset: 13, length: made!.trackingUrl.length },
  ]);
  expect(copy!.params.reply_markup).toEqual({ inline_keyboard: [[{ text: "Open shop", url: made!.trackingUrl }]] });
  expect(summary!.params.text).toBe(
    `✅ Placement <b>${placement!.name}</b>: 1 new tracking link. Send the post above to the channel's admin; its figures are in 📢 Ads.`,
  );
  const [row, open] = summary!.params.reply_markup.inline_keyboard;
  expect(row[0]).toEqual({ text: "📋 Copy post", copy_text: { text: copy!.params.text } });
  expect(row[1].text).toBe("↗️ Share");
  expect(row[1].url).toStartWith(`https://t.me/share/url?url=${encodeURIComponent(made!.trackingUrl)}&text=`);
  expect(open[0].text).toBe("📢 Open the placement");
  // the button opens the placement's screen below
  await b.press("📢 Open the placement");
  expect(lastText()).toStartWith(`📢 <b>${placement!.name}</b>\nWhere: @bigchannel`);
});

test("a price that is not one says the rule and asks again; a number alone takes the account's currency; /skip leaves no price", async () => {
  await setUp();
  await b.send("a.example and b.example", {
    entities: [
      { type: "url", offset: 0, length: 9 },
      { type: "url", offset: 14, length: 9 },
    ],
  });
  expect(lastText()).toStartWith("This post has 2 different links.");
  await b.send("x".repeat(120));
  expect(lastText()).toBe(
    "Where it runs is a channel's @name or t.me link, or up to 100 characters of text (<code>@bigchannel</code>, <code>VK group Cats</code>). Where will it run?",
  );
  await b.send("Telegram ads bot");
  await b.send("five thousand");
  expect(lastText()).toBe(
    "A price is a number with or without a currency: <code>5000</code> (in USD), <code>5 000 ₽</code>, <code>5000 RUB</code>, <code>$50</code>, <code>50 EUR</code>. What did it cost? (/skip if it was free)",
  );
  await b.send("120");
  const [p] = await listPlacements(b.t.deps, await userId(), { period: "all" });
  expect(p).toMatchObject({ venue: { kind: "other", title: "Telegram ads bot" }, cost: { amount: 120, currency: "USD" } });
  const links = await listLinks(b.t.deps, await userId());
  expect(links.map((l) => l.original_url).sort()).toEqual(["https://a.example", "https://b.example"]);
  expect(sent().at(-2)!.params.text).toBe(
    `${links.find((l) => l.original_url === "https://a.example")!.trackingUrl} and ${links.find((l) => l.original_url === "https://b.example")!.trackingUrl}`,
  );

  await b.send(SALE, saleExtra);
  await b.send("@other");
  await b.send("/skip");
  const all = await listPlacements(b.t.deps, await userId(), { period: "all" });
  expect(all.find((x) => x.venue.kind === "telegram")!.cost).toBeNull();
});

test("/adpost asks for the post; a message without links is refused with what to send; a photo post is copied with its new caption", async () => {
  await setUp();
  await b.send("/adpost");
  expect(lastText()).toContain("Forward the ad post here");
  await b.send("no links at all");
  expect(lastText()).toBe("That post has no links to track. Forward a post with links, or /cancel.");
  await b.update({
    message: {
      message_id: 77,
      date: 0,
      chat: { id: 42, type: "private", first_name: "Alice" },
      from: { id: 42, is_bot: false, first_name: "Alice" },
      photo: [{ file_id: "p1", file_unique_id: "u1", width: 10, height: 10 }],
      caption: "Buy: shop.example",
      caption_entities: [{ type: "url", offset: 5, length: 12 }],
    },
  });
  await b.send("vk ads");
  await b.send("$50");
  const [made] = await listLinks(b.t.deps, await userId());
  const copy = b.calls.findLast((c) => c.method === "copyMessage")!;
  expect(copy.params).toMatchObject({
    chat_id: 42,
    from_chat_id: 42,
    message_id: 77,
    caption: `Buy: ${made!.trackingUrl}`,
    caption_entities: [{ type: "url", offset: 5, length: made!.trackingUrl.length }],
  });
  expect((await listPlacements(b.t.deps, await userId(), { period: "all" }))[0]!.cost).toEqual({ amount: 50, currency: "USD" });
});

test("a single pasted URL still makes one plain link, and /cancel leaves the dialog without making anything", async () => {
  await setUp();
  await b.send("https://example.com/one");
  expect((await listLinks(b.t.deps, await userId())).map((l) => l.title)).toEqual([null]);
  await b.send("Buy at shop.example", { ...forwarded, entities: [{ type: "url", offset: 7, length: 12 }] });
  await b.send("@bigchannel");
  await b.send("/cancel");
  expect(await listLinks(b.t.deps, await userId())).toHaveLength(1);
  expect(await listPlacements(b.t.deps, await userId(), { period: "all" })).toEqual([]);
});

test("in Russian: the questions, the rule and the summary in Russian; 5000 руб read as RUB, a bare number in RUB", async () => {
  await setUp("ru");
  await b.send(SALE, saleExtra);
  expect(lastText()).toStartWith("В этом посте 1 ссылка. Где он выйдет?");
  await b.send("t.me/bigchannel");
  expect(lastText()).toContain("или просто число в RUB");
  await b.send("пять тысяч");
  expect(lastText()).toStartWith("Цена — число с валютой или без: <code>5000</code> (в RUB)");
  await b.send("5000 руб");
  const [p] = await listPlacements(b.t.deps, await userId(), { period: "all" });
  expect(p!.cost).toEqual({ amount: 5000, currency: "RUB" });
  expect(lastText()).toBe(
    `✅ Размещение <b>${p!.name}</b>: 1 новая трекинговая ссылка. Отправьте пост выше админу канала; его цифры — в 📢 Рекламе.`,
  );
  expect(b.findButton("📢 Открыть размещение")).not.toBeNull();

  await b.send("a.example and b.example", {
    entities: [
      { type: "url", offset: 0, length: 9 },
      { type: "url", offset: 14, length: 9 },
    ],
  });
  await b.send("@cheap");
  await b.send("3000");
  const cheap = (await listPlacements(b.t.deps, await userId(), { period: "all" })).find(
    (x) => x.venue.kind === "telegram" && x.venue.username === "cheap",
  )!;
  expect(cheap.cost).toEqual({ amount: 3000, currency: "RUB" });
});

test("the user's own short link in the post stays as it is, and the summary lists it with why", async () => {
  await setUp();
  const user = (await findUserByIdentity(b.t.deps, "telegram", "42"))!;
  const own = await createLink(b.t.deps, user, { url: "https://example.com/own" });
  const text = `Buy shop.example or ${own.trackingUrl}`;
  await b.send(text, {
    ...forwarded,
    entities: [
      { type: "url", offset: 4, length: 12 },
      { type: "url", offset: 20, length: own.trackingUrl.length },
    ],
  });
  await b.send("@bigchannel");
  await b.send("/skip");
  const copy = sent().at(-2)!.params.text as string;
  expect(copy.endsWith(` or ${own.trackingUrl}`)).toBe(true);
  expect(lastText()).toEndWith(`Left as they were:\n• ${own.trackingUrl}: already a short link of this service`);
});

test("an ad of the user's own channel alone (no other link): Copy and Share still, Share sending the new invite", async () => {
  await setUp();
  const channel = { id: -1001110001, type: "channel", title: "My channel", username: "mychannel" };
  b.fake.addChat(channel);
  b.fake.members.set(`${channel.id}:42`, { status: "creator" });
  await addChannel(b.t.deps, await userId(), "@mychannel");
  const text = "Подписывайтесь: t.me/mychannel";
  await b.send(text, { ...forwarded, entities: [{ type: "url", offset: 16, length: 14 }] });
  await b.send("@bigchannel");
  await b.send("/skip");
  const [placement] = await listPlacements(b.t.deps, await userId(), { period: "all" });
  expect(placement!.links).toEqual([]);
  const invite = placement!.invites[0]!.invite_link;
  const [copy, summary] = sent().slice(-2);
  expect(copy!.params.text).toBe(`Подписывайтесь: ${invite}`);
  const [row] = summary!.params.reply_markup.inline_keyboard;
  expect(row[0]).toEqual({ text: "📋 Copy post", copy_text: { text: copy!.params.text } });
  expect(row[1].text).toBe("↗️ Share");
  expect(row[1].url).toStartWith(`https://t.me/share/url?url=${encodeURIComponent(invite)}&text=`);
});

test("in Russian: why a link was left as it was, in Russian", async () => {
  await setUp("ru");
  const user = (await findUserByIdentity(b.t.deps, "telegram", "42"))!;
  const own = await createLink(b.t.deps, user, { url: "https://example.com/own" });
  const bad = "https://user@shop.example/x";
  const text = `Купите shop.example, ${own.trackingUrl} или ${bad}`;
  const at = (s: string) => text.indexOf(s);
  await b.send(text, {
    ...forwarded,
    entities: [
      { type: "url", offset: at("shop.example,"), length: 12 },
      { type: "url", offset: at(own.trackingUrl), length: own.trackingUrl.length },
      { type: "url", offset: at(bad), length: bad.length },
    ],
  });
  await b.send("@bigchannel");
  await b.send("/skip");
  expect(lastText()).toEndWith(
    `Оставлены как были:\n• ${own.trackingUrl}: это уже короткая ссылка сервиса\n• ${bad}: перед адресом сайта стоят имя пользователя или пароль, такую ссылку нельзя сделать целью`,
  );
});

test("the day the ad runs may follow the venue in the same answer, read in the user's time zone (still 2 answers)", async () => {
  await setUp();
  await updateSettings(b.t.deps, await userId(), { time_zone: "Europe/Moscow" });
  b.t.clock.set("2026-11-20T12:00:00Z");
  await b.send(SALE, saleExtra);
  await b.send("@bigchannel 30.11");
  await b.send("/skip");
  const [placement] = await listPlacements(b.t.deps, await userId(), { period: "all" });
  expect(placement!.venue).toEqual({ kind: "telegram", username: "bigchannel" });
  // midnight of 30 November in Moscow
  expect(String(placement!.publish_at)).toStartWith("2026-11-29T21:00:00");
});

test("an ad that already ran: a day without a year is the nearest such day, this year's, not next year's", async () => {
  await setUp();
  await updateSettings(b.t.deps, await userId(), { time_zone: "Europe/Moscow" });
  b.t.clock.set("2026-11-27T12:00:00Z");
  await b.send(SALE, saleExtra);
  await b.send("@bigchannel 25.11");
  await b.send("5000 RUB");
  const [placement] = await listPlacements(b.t.deps, await userId(), { period: "all" });
  // midnight of 25 November 2026 in Moscow
  expect(String(placement!.publish_at)).toStartWith("2026-11-24T21:00:00");
  expect(placement!.name).toBe("@bigchannel 25.11");
});

test("an album: its other photos arrive as messages of their own, are passed over, and the dialog goes on", async () => {
  await setUp();
  const photo = (id: number, extra: Record<string, unknown>) => ({
    message: {
      message_id: id,
      date: 0,
      chat: { id: 42, type: "private", first_name: "Alice" },
      from: { id: 42, is_bot: false, first_name: "Alice" },
      media_group_id: "album-1",
      photo: [{ file_id: `p${id}`, file_unique_id: `u${id}`, width: 10, height: 10 }],
      ...forwarded,
      ...extra,
    },
  });
  await b.update(photo(77, { caption: "Buy: shop.example", caption_entities: [{ type: "url", offset: 5, length: 12 }] }));
  expect(lastText()).toStartWith("This post has 1 link. Where will it run?");
  const asked = sent().length;
  await b.update(photo(78, {}));
  await b.update(photo(79, {}));
  // nothing said about the other photos: no upload offered, no question asked again
  expect(sent().length).toBe(asked);
  await b.send("@bigchannel");
  expect(lastText()).toStartWith("What did it cost?");
  await b.send("5000 RUB");
  const placements = await listPlacements(b.t.deps, await userId(), { period: "all" });
  expect(placements.map((p) => [p.venue, p.cost])).toEqual([
    [
      { kind: "telegram", username: "bigchannel" },
      { amount: 5000, currency: "RUB" },
    ],
  ]);
  expect(b.calls.findLast((c) => c.method === "copyMessage")!.params).toMatchObject({ message_id: 77 });
});
