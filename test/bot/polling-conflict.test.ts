import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { createBot } from "../../bot/bot";
import { botRunner } from "../../bot/runtime";
import { createLogger } from "../../core/log";

let fake: FakeBotApi;
let t: TestApp;
beforeEach(() => {
  fake = new FakeBotApi().start();
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
});
afterEach(async () => {
  await fake.stop();
  t.close();
});

test("a 409 Conflict from getUpdates pauses polling and starts it again, with one log line per kind of error", async () => {
  const logged: string[] = [];
  const log = createLogger("info", (line) => logged.push(line));
  const bot = createBot({ ...t.deps, log, config: { ...t.config, botToken: FAKE_BOT_TOKEN } });
  const runner = botRunner(bot, { config: t.config, log }, { firstMs: 20, maxMs: 80 });
  // another getUpdates (a second deploy, a developer's laptop) holds the bot for three rounds
  fake.failNext.set("getUpdates", {
    error_code: 409,
    description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    times: 3,
  });
  await runner.init();
  runner.startPolling();
  try {
    fake.pushMessage("/help");
    await fake.waitFor("sendMessage", (c) => c.params.chat_id === 42, 10_000);
    expect(logged.filter((l) => l.includes("bot polling stopped with an error"))).toHaveLength(1);
    expect(logged.some((l) => l.includes("is polling"))).toBe(true);
  } finally {
    await runner.stop();
  }
});
