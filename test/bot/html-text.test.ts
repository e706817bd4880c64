/**
 * Every message is HTML, so text from outside (a link's title, a tracker's keyword, a file's name)
 * must reach the person exactly as it was typed: escaped once in what is sent, read back by the
 * fake Bot API as Telegram reads it (a tag it cannot read is refused, as Telegram refuses it).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { plainOf, type RecordedCall } from "../helpers/fake-bot-api";
import { findUserByIdentity } from "../../core/accounts/users";
import { createTracker } from "../../core/tracking/trackers";

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const TITLE = "<b>Tom & Jerry</b> <script>";
const KEYWORD = "a<b & c";
const FILE = "R&D <draft> &amp; notes.pdf";

/** The messages the user was shown (sent or edited), as they read them. */
const shown = () =>
  b.calls
    .filter((c: RecordedCall) => /^(sendMessage|editMessageText)$/.test(c.method))
    .map((c) => {
      expect({ method: c.method, parse_mode: c.params.parse_mode }).toEqual({ method: c.method, parse_mode: "HTML" });
      return plainOf(c.params).text!;
    });
const refused = () => b.calls.filter((c) => /can't parse entities/.test(c.result?.description ?? ""));

describe.each([
  ["en", "Where should I store"],
  ["ru", "Куда сохранить"],
])("user text shown as typed (%s)", (lang, storeQuestion) => {
  test("a link's title with tags and an ampersand", async () => {
    b = unitBot({}, { language_code: lang });
    await b.send("https://example.com/cartoons");
    await b.press(/^✏️/);
    await b.send(TITLE);
    expect(shown().at(-1)).toContain(TITLE);
    expect(refused()).toEqual([]);
  });

  test("a tracker's keyword with < and &", async () => {
    b = unitBot({}, { language_code: lang });
    await b.send("/start");
    const me = await findUserByIdentity(b.t.deps, "telegram", "42");
    const tracker = await createTracker(b.t.deps, me!.id, { name: "Cartoons", keyword: KEYWORD });
    await b.send(`/start tracker_${tracker.id}`);
    expect(shown().at(-1)).toContain(KEYWORD);
    expect(refused()).toEqual([]);
  });

  test("a file's name with & and < (and an entity typed as text)", async () => {
    b = unitBot({}, { language_code: lang });
    await b.send("/start");
    await b.update({
      message: {
        message_id: 77,
        date: 0,
        chat: { id: 42, type: "private", first_name: "Alice" },
        from: { id: 42, is_bot: false, first_name: "Alice", language_code: lang },
        document: { file_id: "doc-1", file_unique_id: "u1", file_name: FILE, file_size: 100, mime_type: "application/pdf" },
      },
    });
    const question = shown().at(-1)!;
    expect(question).toContain(storeQuestion);
    expect(question).toContain(FILE);
    expect(refused()).toEqual([]);
  });
});
