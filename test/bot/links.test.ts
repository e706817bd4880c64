import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FakeBotApi, RecordedCall } from "../helpers/fake-bot-api";
import type { TestApp } from "../helpers/app";
import type { createBot } from "../../bot/bot";
import { startBotApp } from "./helpers";
import { listLinks } from "../../core/links/list";
import { findUserByIdentity } from "../../core/accounts/users";
import { LINK_CARD_EXTRAS } from "../../bot/menus/link-card";

let fake: FakeBotApi;
let t: TestApp;
let bot: ReturnType<typeof createBot>;

let app: Awaited<ReturnType<typeof startBotApp>>;
beforeEach(async () => {
  app = await startBotApp({ PLAN_LIMITS: JSON.stringify({ free: { links: 12 } }) });
  ({ fake, t, bot } = app);
});
afterEach(() => app.stop());

const userId = () => findUserByIdentity(t.deps, "telegram", "42")!.id;
const buttons = (c: RecordedCall): { text: string; callback_data: string }[] => (c.params.reply_markup?.inline_keyboard ?? []).flat();
let seen = 0;
/** The next bot call of `method` after the ones already looked at. */
async function next(method: string, pred: (c: RecordedCall) => boolean = () => true) {
  const call = await fake.waitFor(method, (c) => fake.calls.indexOf(c) >= seen && pred(c));
  seen = fake.calls.indexOf(call) + 1;
  return call;
}
beforeEach(() => (seen = 0));

describe("links in the bot", () => {
  test("pasting a URL creates a link and answers with the tracking URL and the card", async () => {
    fake.pushMessage("https://example.com/spring?x=1");
    const reply = await next("sendMessage");
    const [link] = listLinks(t.deps, userId());
    expect(link!.original_url).toBe("https://example.com/spring?x=1");
    expect(reply.params.text).toContain(link!.trackingUrl);
    expect(reply.params.text).toContain("Clicks: <b>0</b>");
    expect(reply.params.parse_mode).toBe("HTML");
    // the link's own buttons, the analytics row (no webhook rows: the link has no webhook), back to the list
    const id = link!.id;
    expect(buttons(reply).map((b) => b.callback_data)).toEqual([`ln:tog:${id}`, `ln:edit:${id}`, `ln:del:${id}`, `an:s:${id}:30d`, `an:c:${id}:30d`, `an:e:${id}`, `an:q:${id}`, "ln:list:0:0"]);

    // toggle off, then delete with confirmation
    fake.pushCallback(`ln:tog:${link!.id}`);
    const toggled = await next("editMessageText");
    expect(toggled.params.text).toContain("Inactive");
    expect(listLinks(t.deps, userId())[0]!.is_active).toBe(false);
    fake.pushCallback(`ln:del:${link!.id}`);
    const confirm = await next("editMessageText");
    expect(confirm.params.text).toContain("Delete");
    expect(buttons(confirm).map((b) => b.callback_data)).toEqual([`ln:delok:${link!.id}`, `ln:card:${link!.id}`]);
    expect(listLinks(t.deps, userId())).toHaveLength(1);
    fake.pushCallback(`ln:delok:${link!.id}`);
    await next("editMessageText", (c) => c.params.text.includes("No links yet"));
    expect(listLinks(t.deps, userId())).toHaveLength(0);
  });

  test("text that is not a URL is left to other features; invalid URL is not taken", async () => {
    fake.pushMessage("hello there");
    // plain text goes to the secure feature, which offers to store it as a note
    expect((await next("sendMessage")).params.text).toContain("Store this text as a secure note?");
    fake.pushMessage("https://example.com/ok");
    const reply = await next("sendMessage");
    expect(reply.params.text).toContain("Your tracking link");
    expect(listLinks(t.deps, userId()).map((l) => l.original_url)).toEqual(["https://example.com/ok"]);
  });

  test("card extras registered by other features are appended as rows", async () => {
    const extra = (l: { id: number }) => [{ text: "📊 Stats", callback_data: `an:stats:${l.id}` }];
    LINK_CARD_EXTRAS.push(extra);
    try {
      fake.pushMessage("https://example.com/x");
      const reply = await next("sendMessage");
      const rows = reply.params.reply_markup.inline_keyboard as { callback_data: string }[][];
      expect(rows.map((r) => r.map((b) => b.callback_data))).toContainEqual([`an:stats:${listLinks(t.deps, userId())[0]!.id}`]);
    } finally {
      LINK_CARD_EXTRAS.splice(LINK_CARD_EXTRAS.indexOf(extra), 1);
    }
  });

  test("/links pages through the links and filters by tag; menu:links answers too", async () => {
    for (let i = 0; i < 10; i++) fake.pushMessage(`https://example.com/${i}`);
    await fake.waitFor("sendMessage", () => fake.callsOf("sendMessage").length === 10);
    seen = fake.calls.length;
    fake.pushMessage("/links");
    const page1 = await next("sendMessage");
    expect(page1.params.text).toContain("(10)");
    const names = buttons(page1).map((b) => b.text);
    expect(names.filter((n) => n.startsWith("example.com/"))).toHaveLength(8);
    expect(names).toContain("1/2");
    fake.pushCallback("ln:list:1:0");
    const page2 = await next("editMessageText");
    expect(buttons(page2).filter((b) => b.callback_data.startsWith("ln:card:"))).toHaveLength(2);
    // a button of a page that no longer exists (links deleted since) shows the last page
    fake.pushCallback("ln:list:5:0");
    const past = await next("editMessageText");
    expect(buttons(past).map((b) => b.text)).toContain("2/2");
    expect(buttons(past).filter((b) => b.callback_data.startsWith("ln:card:"))).toHaveLength(2);

    const tag = await t.request("POST", "/api/tags", { token: (await t.telegramUser(42, "alice")).token, body: { name: "promo" } });
    const id = listLinks(t.deps, userId())[0]!.id;
    await t.request("PATCH", `/api/links/${id}`, { token: (await t.telegramUser(42, "alice")).token, body: { tagIds: [tag.json.id] } });
    fake.pushCallback("menu:links");
    const menu = await next("editMessageText");
    expect(buttons(menu).map((b) => b.callback_data)).toContain(`ln:list:0:${tag.json.id}`);
    fake.pushCallback(`ln:list:0:${tag.json.id}`);
    const filtered = await next("editMessageText");
    expect(filtered.params.text).toContain("promo");
    expect(buttons(filtered).filter((b) => b.callback_data.startsWith("ln:card:")).map((b) => b.callback_data)).toEqual([`ln:card:${id}`]);
  });

  test("the options conversation validates each step, creates the link, and /cancel stops", async () => {
    fake.pushMessage("/new");
    expect((await next("sendMessage")).params.text).toContain("Send the link");
    fake.pushMessage("not a link");
    expect((await next("sendMessage")).params.text).toContain("not a valid link");
    fake.pushMessage("https://shop.example/sale");
    expect((await next("sendMessage")).params.text).toContain("Title");
    fake.pushMessage("Sale");
    expect((await next("sendMessage")).params.text).toContain("expire");
    fake.pushMessage("yesterday");
    expect((await next("sendMessage")).params.text).toContain("could not read");
    fake.pushMessage("2020-01-01");
    expect((await next("sendMessage")).params.text).toContain("already passed");
    fake.pushMessage("3d");
    expect((await next("sendMessage")).params.text).toContain("start");
    fake.pushMessage("4d");
    expect((await next("sendMessage")).params.text).toContain("earlier than the expiry");
    fake.pushMessage("/skip");
    expect((await next("sendMessage")).params.text).toContain("Click cap");
    fake.pushMessage("0");
    expect((await next("sendMessage")).params.text).toContain("greater than 0");
    fake.pushMessage("100");
    expect((await next("sendMessage")).params.text).toContain("Password");
    fake.pushMessage("hunter2");
    await next("deleteMessage"); // the password does not stay in the chat
    expect((await next("sendMessage")).params.text).toContain("iPhone");
    fake.pushMessage("https://apps.apple.com/app/1");
    expect((await next("sendMessage")).params.text).toContain("Android");
    fake.pushMessage("/skip");
    expect((await next("sendMessage")).params.text).toContain("desktop");
    fake.pushMessage("/skip");
    expect((await next("sendMessage")).params.text).toContain("Tags");
    fake.pushMessage("promo, spring");
    const done = await next("sendMessage");
    expect(done.params.text).toContain("Created");
    expect(done.params.text).toContain("Click cap 100");
    expect(done.params.text).toContain("promo, spring");
    expect(done.params.text).toContain("Password protected");
    const [link] = listLinks(t.deps, userId());
    const full = (await t.request("GET", `/api/links/${link!.id}`, { token: (await t.telegramUser(42, "alice")).token })).json;
    expect(full).toMatchObject({ original_url: "https://shop.example/sale", title: "Sale", max_clicks: 100, ios_url: "https://apps.apple.com/app/1", expires_at: new Date(t.clock.now().getTime() + 3 * 86400000).toISOString() });

    // edit: /cancel leaves it unchanged
    fake.pushCallback(`ln:edit:${link!.id}`);
    expect((await next("sendMessage")).params.text).toContain("Title");
    fake.pushMessage("/cancel");
    // the bot-wide /cancel (start feature) leaves every dialog
    expect((await next("sendMessage")).params.text).toContain("Cancelled. Nothing was saved.");
    expect(listLinks(t.deps, userId()).find((l) => l.id === link!.id)!.title).toBe("Sale");
    fake.pushMessage("https://example.com/after-cancel");
    expect((await next("sendMessage")).params.text).toContain("Your tracking link");
  });

  test("/new: long titles and passwords, a bad platform link and bad tags are asked again; /cancel saves nothing", async () => {
    fake.pushMessage("/new");
    await next("sendMessage");
    fake.pushMessage("https://shop.example/a");
    expect((await next("sendMessage")).params.text).toContain("Title");
    fake.pushMessage("T".repeat(201));
    expect((await next("sendMessage")).params.text).toContain("A title is at most 200 characters.");
    fake.pushMessage("Fine");
    for (const step of ["expire", "start", "Click cap"]) {
      expect((await next("sendMessage")).params.text).toContain(step);
      fake.pushMessage("/skip");
    }
    expect((await next("sendMessage")).params.text).toContain("Password");
    fake.pushMessage("p".repeat(201));
    await next("deleteMessage"); // even a refused password does not stay in the chat
    expect((await next("sendMessage")).params.text).toContain("A password is at most 200 characters.");
    fake.pushMessage("/skip");
    expect((await next("sendMessage")).params.text).toContain("iPhone");
    fake.pushMessage("apps.apple.com/app/1");
    expect((await next("sendMessage")).params.text).toContain("That is not a valid link");
    fake.pushMessage("/skip");
    for (const step of ["Android", "desktop"]) {
      expect((await next("sendMessage")).params.text).toContain(step);
      fake.pushMessage("/skip");
    }
    expect((await next("sendMessage")).params.text).toContain("Tags");
    fake.pushMessage(`ok, ${"x".repeat(51)}`);
    expect((await next("sendMessage")).params.text).toContain("Send names of at most 50 characters");
    fake.pushMessage("/cancel");
    expect((await next("sendMessage")).params.text).toContain("Cancelled. Nothing was saved.");
    expect(listLinks(t.deps, userId())).toEqual([]);
    const token = (await t.telegramUser(42, "alice")).token;
    expect((await t.request("GET", "/api/tags", { token })).json).toEqual([]);
  });

  test("a link that cannot be saved at the end (the plan filled up meanwhile) leaves no new tags behind", async () => {
    const token = (await t.telegramUser(42, "alice")).token;
    for (let i = 0; i < 11; i++) expect((await t.request("POST", "/api/links", { token, body: { url: `https://have${i}.example/` } })).status).toBe(201);
    fake.pushMessage("/new");
    await next("sendMessage");
    fake.pushMessage("https://shop.example/last");
    for (const step of ["Title", "expire", "start", "Click cap", "Password", "iPhone", "Android", "desktop"]) {
      expect((await next("sendMessage")).params.text).toContain(step);
      fake.pushMessage("/skip");
    }
    expect((await next("sendMessage")).params.text).toContain("Tags");
    expect((await t.request("POST", "/api/links", { token, body: { url: "https://meanwhile.example/" } })).status).toBe(201); // the 12th of 12
    fake.pushMessage("fresh, newer");
    expect((await next("sendMessage")).params.text).toContain("Could not save the link");
    expect((await t.request("GET", "/api/tags", { token })).json).toEqual([]);
    expect(listLinks(t.deps, userId())).toHaveLength(12);
  });

  test("editing options: /skip keeps values, /clear removes them, the card shows the result", async () => {
    fake.pushMessage("https://example.com/edit-me");
    await next("sendMessage");
    const id = listLinks(t.deps, userId())[0]!.id;
    const token = (await t.telegramUser(42, "alice")).token;
    await t.request("PATCH", `/api/links/${id}`, { token, body: { max_clicks: 5, title: "Old" } });
    fake.pushCallback(`ln:edit:${id}`);
    const first = await next("sendMessage");
    expect(first.params.text).toContain("Now: Old");
    expect(first.params.text).toContain("/clear");
    fake.pushMessage("New title");
    for (const step of ["expire", "start", "Click cap"]) {
      const prompt = await next("sendMessage");
      expect(prompt.params.text).toContain(step);
      fake.pushMessage(step === "Click cap" ? "/clear" : "/skip");
    }
    for (const step of ["Password", "iPhone", "Android", "desktop", "Tags"]) {
      expect((await next("sendMessage")).params.text).toContain(step);
      fake.pushMessage("/skip");
    }
    const saved = await next("sendMessage");
    expect(saved.params.text).toContain("Saved");
    expect(saved.params.text).toContain("New title");
    expect(saved.params.text).not.toContain("Click cap");
    const full = (await t.request("GET", `/api/links/${id}`, { token })).json;
    expect(full).toMatchObject({ title: "New title", max_clicks: null, original_url: "https://example.com/edit-me" });
  });

  test("tags typed twice in one answer (any case) become one tag", async () => {
    fake.pushMessage("https://example.com/tagged");
    await next("sendMessage");
    const id = listLinks(t.deps, userId())[0]!.id;
    fake.pushCallback(`ln:edit:${id}`);
    for (const step of ["Title", "expire", "start", "Click cap", "Password", "iPhone", "Android", "desktop"]) {
      expect((await next("sendMessage")).params.text).toContain(step);
      fake.pushMessage("/skip");
    }
    expect((await next("sendMessage")).params.text).toContain("Tags");
    fake.pushMessage("News, news , promo, NEWS");
    const saved = await next("sendMessage");
    expect(saved.params.text).toContain("Saved");
    expect(saved.params.text).toContain("🏷 News, promo");
    const token = (await t.telegramUser(42, "alice")).token;
    expect((await t.request("GET", "/api/tags", { token })).json.map((x: { name: string }) => x.name)).toEqual(["News", "promo"]);
  });

  test("long titles and tag names with emoji are shortened without breaking a character", async () => {
    const token = (await t.telegramUser(42, "alice")).token;
    const tag = await t.request("POST", "/api/tags", { token, body: { name: `${"t".repeat(26)}🔥🔥🔥` } });
    const title = `${"x".repeat(39)}🔥${"y".repeat(37)}🔥${"z".repeat(20)}`; // emoji across the cuts at 40 (list) and 79 (card)
    const l = await t.request("POST", "/api/links", { token, body: { url: "https://example.com/emoji", title, tagIds: [tag.json.id] } });
    fake.pushMessage("/links");
    const list = await next("sendMessage");
    const labels = buttons(list).map((b) => b.text);
    expect(labels.some((x) => x.startsWith("x".repeat(39)))).toBe(true);
    expect(labels.some((x) => x.includes("t".repeat(26)))).toBe(true);
    for (const text of labels) expect({ text, wellFormed: text.isWellFormed() }).toEqual({ text, wellFormed: true });
    fake.pushCallback(`ln:card:${l.json.id}`);
    const card = await next("editMessageText");
    expect(card.params.text).toContain("x".repeat(39));
    expect(card.params.text.isWellFormed()).toBe(true);
  });

  test("/new on a full plan says so at once instead of after every question", async () => {
    const token = (await t.telegramUser(42, "alice")).token;
    for (let i = 0; i < 12; i++) expect((await t.request("POST", "/api/links", { token, body: { url: `https://example.com/${i}` } })).status).toBe(201);
    fake.pushMessage("/new");
    const answer = await next("sendMessage");
    expect(answer.params.text).toContain("plan allows 12 links");
    expect(answer.params.text).not.toContain("Send the link");
    fake.pushMessage("https://example.com/pasted");
    expect((await next("sendMessage")).params.text).toContain("plan allows 12 links"); // no conversation is waiting
  });
});
