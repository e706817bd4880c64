/**
 * A screen is drawn from one load: the link card's text, its Copy/Share row and its option buttons
 * are drawn from the link read once per draw, and a press that changes the link draws the card anew
 * (never from the model read before the change).
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { unitBot } from "./unit";
import { linkCard } from "../../bot/menus/link-card";

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
});
