/**
 * An ad post in, an ad post out, in the bot: a forwarded post (or one with several links) asks for a
 * placement and comes back with every link replaced by a tracking link tagged with it; /adpost asks
 * for the post first; a photo post is copied with its new caption.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { listLinks } from "../../core/links/list";
import { listPlacements } from "../../core/placements/placements";
import { findUserByIdentity } from "../../core/accounts/users";

let b: ReturnType<typeof unitBot>;
beforeEach(() => (b = unitBot()));
afterEach(() => b.close());

const userId = async () => (await findUserByIdentity(b.t.deps, "telegram", "42"))!.id;
const sent = () => b.calls.filter((c) => c.method === "sendMessage");
const forwarded = {
  forward_origin: { type: "channel", chat: { id: -100777, type: "channel", title: "Shop news" }, message_id: 9, date: 0 },
};

test("a forwarded post: placement asked, then the same text and buttons with tracking links, and a summary naming the tag", async () => {
  const text = "Spring sale! shop.example/spring — details inside";
  await b.send(text, {
    ...forwarded,
    entities: [
      { type: "bold", offset: 0, length: 12 },
      { type: "url", offset: 13, length: 19 },
    ],
    reply_markup: { inline_keyboard: [[{ text: "Open shop", url: "https://shop.example/spring" }]] },
  });
  expect(sent().at(-1)!.params.text).toContain("This post has 1 link. Where will it run?");
  expect(await listLinks(b.t.deps, await userId())).toEqual([]); // nothing made before the placement

  await b.send("@bigchannel 25.11");
  const [made] = await listLinks(b.t.deps, await userId());
  expect(made!.title).toBe("@bigchannel 25.11 · shop.example");
  expect(made!.original_url).toBe("https://shop.example/spring");
  const [copy, summary] = sent().slice(-2);
  expect(copy!.params.text).toBe(`Spring sale! ${made!.trackingUrl} — details inside`);
  expect(copy!.params.entities).toEqual([
    { type: "bold", offset: 0, length: 12 },
    { type: "url", offset: 13, length: made!.trackingUrl.length },
  ]);
  expect(copy!.params.reply_markup).toEqual({ inline_keyboard: [[{ text: "Open shop", url: made!.trackingUrl }]] });
  expect(summary!.params.text).toContain("✅ 1 tracking link for <b>@bigchannel 25.11</b>");
  // the ad is a placement now (no tag): the new link is bound to it
  expect((await listPlacements(b.t.deps, await userId(), { period: "all" })).map((p) => [p.name, p.links.map((l) => l.id)])).toEqual([
    ["@bigchannel 25.11", [made!.id]],
  ]);
});

test("a pasted text with several links is an ad post too; a too-long placement is asked again and the dialog goes on", async () => {
  await b.send("a.example and b.example", {
    entities: [
      { type: "url", offset: 0, length: 9 },
      { type: "url", offset: 14, length: 9 },
    ],
  });
  expect(sent().at(-1)!.params.text).toContain("This post has 2 different links.");
  await b.send("x".repeat(60));
  expect(sent().at(-1)!.params.text).toBe("A placement name is 1 to 50 characters. Send another, or /cancel.");
  await b.send("Telegram ads");
  const links = await listLinks(b.t.deps, await userId());
  expect(links.map((l) => l.original_url).sort()).toEqual(["https://a.example", "https://b.example"]);
  expect(sent().at(-2)!.params.text).toBe(
    `${links.find((l) => l.original_url === "https://a.example")!.trackingUrl} and ${links.find((l) => l.original_url === "https://b.example")!.trackingUrl}`,
  );
});

test("/adpost asks for the post; a message without links is refused with what to send; a photo post is copied with its new caption", async () => {
  await b.send("/adpost");
  expect(sent().at(-1)!.params.text).toContain("Forward the ad post here");
  await b.send("no links at all");
  expect(sent().at(-1)!.params.text).toBe("That post has no links to track. Forward a post with links, or /cancel.");
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
  const [made] = await listLinks(b.t.deps, await userId());
  const copy = b.calls.findLast((c) => c.method === "copyMessage")!;
  expect(copy.params).toMatchObject({
    chat_id: 42,
    from_chat_id: 42,
    message_id: 77,
    caption: `Buy: ${made!.trackingUrl}`,
    caption_entities: [{ type: "url", offset: 5, length: made!.trackingUrl.length }],
  });
});

test("a single pasted URL still makes one plain link, and /cancel leaves the ad-post dialog without making anything", async () => {
  await b.send("https://example.com/one");
  expect((await listLinks(b.t.deps, await userId())).map((l) => l.title)).toEqual([null]);
  await b.send("Buy at shop.example", { ...forwarded, entities: [{ type: "url", offset: 7, length: 12 }] });
  await b.send("/cancel");
  expect(await listLinks(b.t.deps, await userId())).toHaveLength(1);
});
