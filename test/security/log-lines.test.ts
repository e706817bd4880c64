/**
 * The readable log format wrote text from Telegram (a chat's title) raw, so a title holding a
 * newline forged a log entry. Control characters, line separators and bidirectional overrides are
 * now written as escapes: one entry is one line, whatever the text holds.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { FakeBotApi, FAKE_BOT, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { createBot } from "../../bot/bot";
import { eventually } from "../helpers/eventually";
import { createLogger } from "../../core/log";

const FORGED = "Shop\n2026-01-01T00:00:00.000Z ERROR admin password reset by root\r\u2028\u202etxt.exe\u001b[2J";

describe("a chat title with a newline, through the real bot", () => {
  let fake: FakeBotApi;
  let t: TestApp;
  let bot: ReturnType<typeof createBot>;
  let running: Promise<void>;
  beforeEach(() => {
    fake = new FakeBotApi().start();
    t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
    bot = createBot({ ...t.deps, config: { ...t.config, botToken: FAKE_BOT_TOKEN } });
    running = bot.start().catch(() => {});
  });
  afterEach(async () => {
    await bot.stop();
    await running;
    await fake.stop();
    t.close();
  });

  test("is logged on one line, its control characters escaped", async () => {
    await t.telegramUser(7, "owner");
    fake.pushUpdate({
      my_chat_member: {
        chat: { id: -1001234567891, type: "channel", title: FORGED, username: "forged" },
        from: { id: 7, is_bot: false, first_name: "Owner" },
        date: Math.floor(Date.now() / 1000),
        old_chat_member: { status: "left", user: FAKE_BOT },
        new_chat_member: { status: "administrator", user: FAKE_BOT, can_be_edited: false, can_manage_chat: true } as never,
      },
    });
    const line = await eventually(() => t.logs.find((l) => l.includes("tracking: added to channel")), "the log line");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be left
    expect(line).not.toMatch(/[\n\r\u2028\u202e\u001b]/);
    expect(line).toContain("(Shop\\n2026-01-01T00:00:00.000Z ERROR admin password reset by root\\r\\u2028\\u202etxt.exe\\u001b[2J)");
    expect(t.logs.some((l) => l.startsWith("2026-01-01T00:00:00.000Z ERROR"))).toBe(false);
  });
});

describe("the readable format", () => {
  test("escapes the message, the request id and the fields; a stack's lines stay indented under their entry", () => {
    const out: string[] = [];
    const log = createLogger("info", (l) => out.push(l), "pretty");
    log.info(FORGED);
    log.warn("fields", { title: "a\u2028b\u202ec" });
    log.error("failed", new Error(`bad title ${FORGED}`));
    const text = out.join("\n");
    const entries = text.split("\n").filter((l) => /^\d{4}-\d\d-\d\dT/.test(l));
    expect(entries).toHaveLength(3);
    expect(entries.some((l) => l.startsWith("2026-01-01T00:00:00.000Z ERROR"))).toBe(false);
    expect(out[1]).toContain('{"title":"a\\u2028b\\u202ec"}');
    // the stack goes on over several lines, each after the first indented
    expect(
      out[2]!
        .split("\n")
        .slice(1)
        .every((l) => l.startsWith("    ")),
    ).toBe(true);
  });
});
