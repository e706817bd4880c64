/**
 * An ad post in, an ad post out (core/ads/post.ts): each link of a post (URL text, text link,
 * button) becomes a new tracking link of the placement; the text, its formatting and its buttons
 * come back as they were, offsets shifted in UTF-16 units.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { MessageEntity } from "grammy/types";
import { linksOf, rewritePost, type Post } from "../../../core/ads/post";
import { createPlacement, listPlacements } from "../../../core/placements/placements";
import { createLink } from "../../../core/links/links";
import { urlProblem } from "../../../core/links/validate";
import { createTestApp, type TestApp } from "../../helpers/app";

const e = (type: MessageEntity["type"], offset: number, length: number, extra: Record<string, unknown> = {}) =>
  ({ type, offset, length, ...extra }) as MessageEntity;

describe("rewritePost", () => {
  test("URL text is replaced and later entities shift; an entity around the URL grows with it; text links and buttons get the new URL", () => {
    // "🔥 Sale: shop.example/a now! Details" — the emoji is two UTF-16 units, as Telegram counts
    const text = "🔥 Sale: shop.example/a now! Details";
    const urlAt = text.indexOf("shop.example/a");
    const post: Post = {
      text,
      entities: [
        e("bold", 0, 7),
        e("italic", urlAt, 14),
        e("url", urlAt, 14),
        e("text_link", text.indexOf("Details"), 7, { url: "https://docs.example/x" }),
        e("bold", text.indexOf("now!"), 4),
      ],
      buttons: {
        inline_keyboard: [
          [
            { text: "Buy", url: "https://shop.example/a" },
            { text: "Other", callback_data: "x" },
          ],
        ],
      },
    };
    const found = linksOf(post);
    expect(found.map((f) => [f.url, f.spots.map((s) => s.kind)])).toEqual([
      ["https://shop.example/a", ["text", "button"]],
      ["https://docs.example/x", ["text_link"]],
    ]);
    const out = rewritePost(
      post,
      found,
      new Map([
        ["https://shop.example/a", "https://s.example/abc1"],
        ["https://docs.example/x", "https://s.example/d2"],
      ]),
    );
    expect(out.text).toBe("🔥 Sale: https://s.example/abc1 now! Details");
    const slice = (x: MessageEntity) => out.text.slice(x.offset, x.offset + x.length);
    expect(out.entities.map(slice)).toEqual(["🔥 Sale", "https://s.example/abc1", "https://s.example/abc1", "Details", "now!"]);
    expect((out.entities[3] as MessageEntity.TextLinkMessageEntity).url).toBe("https://s.example/d2");
    expect(out.buttons!.inline_keyboard[0]).toEqual([
      { text: "Buy", url: "https://s.example/abc1" },
      { text: "Other", callback_data: "x" },
    ]);
    // the input is not changed
    expect(post.text).toBe(text);
    expect(post.buttons!.inline_keyboard[0]![0]).toEqual({ text: "Buy", url: "https://shop.example/a" });
  });

  test("two URL texts: both replaced, each entity on its own new text", () => {
    const text = "a.example and b.example/long/path";
    const post: Post = { text, entities: [e("url", 0, 9), e("url", 14, 19)] };
    const out = rewritePost(
      post,
      linksOf(post),
      new Map([
        ["https://a.example", "https://s.example/A"],
        ["https://b.example/long/path", "https://s.example/B"],
      ]),
    );
    expect(out.text).toBe("https://s.example/A and https://s.example/B");
    expect(out.entities.map((x) => out.text.slice(x.offset, x.offset + x.length))).toEqual(["https://s.example/A", "https://s.example/B"]);
  });
});

describe("an ad post through createPlacement", () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp({ env: { PLAN_LIMITS: JSON.stringify({ free: { links: 20 } }) } });
  });
  afterAll(() => t?.close());

  test("a new link per distinct URL, titled `<placement> · <host>` and bound to it; own short links and non-targets are left and reported", async () => {
    const { user, token } = await t.telegramUser(4242, "ann");
    const mine = await createLink(t.deps, user, { url: "https://mine.example/" });
    const text = `Join: t.me/+AbCdEf and shop.example/x, ${mine.trackingUrl} and http://127.0.0.1/admin`;
    const at = (s: string) => [text.indexOf(s), s.length] as const;
    const post: Post = {
      text,
      entities: [
        e("url", ...at("t.me/+AbCdEf")),
        e("url", ...at("shop.example/x")),
        e("url", ...at(mine.trackingUrl)),
        e("url", ...at("http://127.0.0.1/admin")),
        e("text_link", 0, 4, { url: "https://shop.example/x" }),
      ],
      buttons: { inline_keyboard: [[{ text: "Go", url: "https://t.me/+AbCdEf" }]] },
    };
    const out = await createPlacement(t.deps, user, { venue: "@bigchannel", name: "  @bigchannel 25.11 ", post });
    expect(out.name).toBe("@bigchannel 25.11");
    expect(out.venue).toEqual({ kind: "telegram", username: "bigchannel" });
    // an invite link the account does not know is a plain link to track
    expect(out.links.map((l) => l.original_url)).toEqual(["https://t.me/+AbCdEf", "https://shop.example/x"]);
    expect(out.skipped).toEqual([
      { url: mine.trackingUrl, reason: "already a short link of this service" },
      { url: "http://127.0.0.1/admin", reason: `cannot be a target: it ${await urlProblem(t.deps, "http://127.0.0.1/admin")}` },
    ]);
    const [invite, shop] = out.links;
    expect(out.post!.text).toBe(`Join: ${invite!.trackingUrl} and ${shop!.trackingUrl}, ${mine.trackingUrl} and http://127.0.0.1/admin`);
    expect((out.post!.entities[4] as MessageEntity.TextLinkMessageEntity).url).toBe(shop!.trackingUrl);
    expect(out.post!.buttons!.inline_keyboard[0]![0]).toEqual({ text: "Go", url: invite!.trackingUrl });
    // each link is titled by the placement and the host it leads to
    const { json: listed } = await t.request("GET", "/api/links", { token });
    expect(listed.map((l: { title: string; original_url: string }) => [l.title, l.original_url]).sort()).toEqual([
      [null, "https://mine.example/"],
      ["@bigchannel 25.11 · shop.example", "https://shop.example/x"],
      ["@bigchannel 25.11 · t.me", "https://t.me/+AbCdEf"],
    ]);

    // a second placement from the same post makes new links of its own
    const again = await createPlacement(t.deps, user, {
      venue: "@other_channel",
      post: { text: "shop.example/x", entities: [e("url", 0, 14)] },
    });
    expect(again.links[0]!.id).not.toBe(shop!.id);
    expect(again.name).toMatch(/^@other_channel \d\d\.\d\d$/);
  });

  test("bad input is a clear 400 and creates nothing", async () => {
    const { user, token } = await t.telegramUser(4242, "ann");
    const links = { text: "shop.example", entities: [e("url", 0, 12)] };
    const cases: [Post, string, string][] = [
      [links, " ", "validation_error"],
      [links, "x".repeat(101), "validation_error"],
      [{ text: "no links here", entities: [] }, "ad", "no_links"],
      [{ text: "http://127.0.0.1/", entities: [e("url", 0, 17)] }, "ad", "no_links"],
    ];
    for (const [post, venue, code] of cases)
      await expect(createPlacement(t.deps, user, { venue, post })).rejects.toMatchObject({ status: 400, code });
    // more links than the plan has room for: none are made
    const many = Array.from({ length: 25 }, (_, i) => `s${i}.example`);
    const text = many.join(" ");
    const crowded = { text, entities: many.map((u) => e("url", text.indexOf(u), u.length)) };
    await expect(createPlacement(t.deps, user, { venue: "ad", post: crowded })).rejects.toMatchObject({ status: 403, code: "plan_limit" });
    expect((await t.request("GET", "/api/links", { token })).json).toEqual([]);
    expect(await listPlacements(t.deps, user.id, { period: "all" })).toEqual([]);
  });
});
