/** The one codec of what bot buttons and t.me start links ask for. */
import { describe, expect, test } from "bun:test";
import {
  callbackData,
  decodeCallback,
  decodeStart,
  decodeTarget,
  encodeTarget,
  hasStartLinks,
  resolveStartLinks,
  type BotTarget,
} from "../../core/deep-link";
import { keyboardRefusal } from "../helpers/fake-bot-api";

const BIG = 999_999_999_999_999; // 15 digits: more than any id a table will reach
const ALL: BotTarget[] = [
  { kind: "link", id: 12 },
  { kind: "share", id: 3 },
  { kind: "sharelink", id: 4 },
  { kind: "tracker", id: 5 },
  { kind: "channel", id: 6 },
  { kind: "invite", id: 7 },
  { kind: "read", id: 8 },
  { kind: "readr", from: 9, to: 11 },
  { kind: "revoke", id: 10 },
  { kind: "links" },
  { kind: "settings" },
  { kind: "trackers" },
];

describe("deep-link codec", () => {
  test("payloads keep the forms old messages carry", () => {
    expect(ALL.map(encodeTarget)).toEqual([
      "link_12",
      "share_3",
      "sharelink_4",
      "tracker_5",
      "channel_6",
      "invite_7",
      "read_8",
      "readr_9-11",
      "revoke_10",
      "links",
      "settings",
      "trackers",
    ]);
  });

  test("every target comes back as it went, as a payload and as callback data", () => {
    for (const target of ALL) {
      expect(decodeTarget(encodeTarget(target))).toEqual(target);
      expect(decodeCallback(callbackData(target))).toEqual(target);
    }
  });

  test("anything else is no target", () => {
    for (const p of [
      "",
      "link_",
      "link_x",
      "link_0",
      "link_012",
      "link_12_3",
      "readr_5-3",
      "readr_1",
      "unknown_3",
      "LINK_3",
      "link_1234567890123456",
      "settings_1",
      "go:link_1",
    ])
      expect(decodeTarget(p)).toBeNull();
    expect(decodeCallback("link_1")).toBeNull(); // another button's data
    expect(decodeCallback("main/0/0//abc")).toBeNull();
  });

  test("a start link may open and mark read, but not revoke: a link someone sends must not act", () => {
    expect(decodeStart("read_8")).toEqual({ kind: "read", id: 8 });
    expect(decodeStart(" link_12 ")).toEqual({ kind: "link", id: 12 });
    expect(decodeStart("revoke_10")).toBeNull();
    expect(decodeCallback("go:revoke_10")).toEqual({ kind: "revoke", id: 10 });
  });

  test("the longest callback data stays within Telegram's 64 bytes, which the fake Bot API enforces", () => {
    const longest = callbackData({ kind: "readr", from: BIG - 1, to: BIG });
    expect(Buffer.byteLength(longest)).toBeLessThanOrEqual(64);
    for (const target of ALL)
      expect(keyboardRefusal({ reply_markup: { inline_keyboard: [[{ text: "x", callback_data: callbackData(target) }]] } })).toBeNull();
    expect(keyboardRefusal({ reply_markup: { inline_keyboard: [[{ text: "x", callback_data: "x".repeat(65) }]] } })).toBe(
      "Bad Request: BUTTON_DATA_INVALID",
    );
  });

  test("a row queued by an earlier release is sent with its start links written out", () => {
    const queued = {
      text: "x",
      reply_markup: {
        inline_keyboard: [
          [
            { text: "✓ Mark read", url: "bot-start:read_8" },
            { text: "Open post", url: "https://t.me/c/1" },
          ],
        ],
      },
    };
    expect(hasStartLinks(queued)).toBe(true);
    expect(
      hasStartLinks({
        text: "x",
        reply_markup: { inline_keyboard: [[{ text: "✓ Mark read", callback_data: callbackData({ kind: "read", id: 8 }) }]] },
      }),
    ).toBe(false);
    expect(resolveStartLinks(queued, "test_bot").reply_markup.inline_keyboard).toEqual([
      [
        { text: "✓ Mark read", url: "https://t.me/test_bot?start=read_8" },
        { text: "Open post", url: "https://t.me/c/1" },
      ],
    ]);
  });
});
