/**
 * A screen is drawn from one load: the link card's text, its Copy/Share row and its option buttons
 * are drawn from the link read once per draw, and a press that changes the link draws the card anew
 * (never from the model read before the change). The same for a list (the links), a screen of many
 * figures (Settings), a postback with its deliveries, and the card's 📮 button (its count is in the
 * card's model: the buttons read nothing beside it).
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { unitBot } from "./unit";
import { linkCard } from "../../bot/menus/link-card";
import { linkList } from "../../bot/menus/link-list";
import { settingsScreen } from "../../bot/menus/settings";
import { postbackScreen } from "../../bot/menus/postbacks";
import { upsertTelegramUser } from "../../core/accounts/users";
import { createPostback } from "../../core/conversions/postbacks";
import * as postbacks from "../../core/conversions/postbacks";
import { insertLink } from "../helpers/clicks";

let b: ReturnType<typeof unitBot>;
beforeEach(() => (b = unitBot()));
afterEach(() => b.close());

const loads = () => spyOn(linkCard, "load");

describe("one load per draw", () => {
  test("opening the link card from the list loads the link once for its text and all its buttons", async () => {
    await b.send("https://example.com/spring");
    await b.press("⬅️ My links");
    const spy = loads();
    const [drawn] = (await b.press(/example\.com\/spring/)).filter((c) => c.method === "editMessageText");
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    // the one model drew the text and the keyboard
    expect(drawn!.params.text).toContain("example.com/spring");
    expect(b.labels(drawn!).flat()).toEqual(expect.arrayContaining(["📋 Copy link", "⏸ Turn off", "🗑 Delete"]));
  });

  test("a press on the card reads the link once to find the button; a change draws the card from a fresh read", async () => {
    await b.send("https://example.com/spring");
    const spy = loads();
    // the press draws the pressed card (one load, which the tap reads), then the changed link (one more)
    const [drawn] = (await b.press("⏸ Turn off")).filter((c) => c.method === "editMessageText");
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
    expect(drawn!.params.text).toContain("Inactive");
    expect(b.labels(drawn!).flat()).toContain("▶️ Turn on");
  });

  test("a press that leaves the card draws it once (to find the button) and not again", async () => {
    await b.send("https://example.com/spring");
    const spy = loads();
    await b.press("🗑 Delete");
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  test("the link list: its count and a button per link from one read of the page", async () => {
    await b.send("https://example.com/spring");
    await b.send("https://example.com/autumn");
    const spy = spyOn(linkList, "load");
    const [drawn] = (await b.press("⬅️ My links")).filter((c) => c.method === "editMessageText");
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(drawn!.params.text).toStartWith("🔗 <b>Your links</b> (2)\n");
    const labels = b.labels(drawn!).flat();
    expect(labels.filter((l) => /example\.com\/(spring|autumn) · 0$/.test(l))).toHaveLength(2);
  });

  test("Settings: plan, usage, sign-ins, the currency and the workspaces from one read; the marked currency is the text's", async () => {
    const spy = spyOn(settingsScreen, "load");
    await b.send("/settings");
    const drawn = b.calls.findLast((c) => c.method === "sendMessage");
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    const marked = b
      .labels(drawn!)
      .flat()
      .filter((l) => /^• [A-Z]{3} •$/.test(l));
    expect(marked).toHaveLength(1);
    expect(drawn!.params.text).toContain(marked[0]!.slice(2, 5));
  });

  test("a postback: its text (URL, events, deliveries) and its buttons from one read", async () => {
    const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
    await createPostback(b.t.deps, user.id, { url: "https://ads.example/pb?e={event}", events: ["purchase"] });
    await b.send("/settings");
    await b.press("📮 Postbacks");
    const spy = spyOn(postbackScreen, "load");
    const [drawn] = (await b.press(/^📮 1\. /)).filter((c) => c.method === "editMessageText");
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(drawn!.params.text).toContain("GET <code>https://ads.example/pb?e={event}</code>");
    expect(b.labels(drawn!).flat()).toEqual(expect.arrayContaining(["🧪 Send a test", "🗑 Delete"]));
  });

  test("the link card's 📮 button counts the link's postbacks from the card's one read", async () => {
    const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
    const link = await insertLink(b.t.deps, user.id, { title: "Spring sale" });
    await createPostback(b.t.deps, user.id, { url: "https://ads.example/pb?e={event}", events: ["purchase"], link_id: link.id });
    const card = spyOn(linkCard, "load");
    const reads = spyOn(postbacks, "listPostbacks");
    await b.send(`/start link_${link.id}`);
    const drawn = b.calls.findLast((c) => c.method === "sendMessage");
    expect(card).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledTimes(1);
    // the count is the model's, read with the link; the button is drawn from it
    expect(await card.mock.results[0]!.value).toMatchObject({ id: link.id, postbacks: 1 });
    card.mockRestore();
    reads.mockRestore();
    expect(drawn!.params.text).toContain("Spring sale");
    expect(b.labels(drawn!).flat()).toContain("📮 Postbacks: 1");
  });
});
