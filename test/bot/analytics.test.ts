import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import sharp from "sharp";
import QRCode from "qrcode";
import type { Bot } from "grammy";
import { createBot } from "../../bot/bot";
import type { UpdateContext } from "../../bot/context";
import { createTestApp, type TestApp } from "../helpers/app";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { seedFixture } from "../helpers/analytics-fixture";
import { insertLink, recordClicks } from "../helpers/clicks";

let fake: FakeBotApi;
let t: TestApp;
let bot: Bot<UpdateContext>;
let f: Awaited<ReturnType<typeof seedFixture>>;
let polling: Promise<void>;
beforeEach(async () => {
  fake = new FakeBotApi().start();
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  f = await seedFixture(t);
  bot = createBot({ ...t.deps, config: { ...t.deps.config, botToken: FAKE_BOT_TOKEN } });
  await new Promise<void>((started) => (polling = bot.start({ onStart: () => started() })));
});
afterEach(async () => {
  await bot.stop();
  await polling;
  await fake.stop();
  t.close();
});

/** Opens the card of link `id` through its deep link. */
async function card(id: number) {
  const n = fake.calls.length;
  fake.pushMessage(`/start link_${id}`);
  return fake.waitFor("sendMessage", (c) => fake.calls.indexOf(c) >= n && /Clicks:|not found/.test(String(c.params.text)));
}
const fileOf = (call: { files: Record<string, { name: string; bytes: Uint8Array }> }) => Object.values(call.files)[0]!;
const buttons = (call: { params: Record<string, any> }) =>
  (call.params.reply_markup.inline_keyboard as { text: string; callback_data: string }[][]).flat();

test("the link card has a row of analytics buttons", async () => {
  fake.pushMessage(`/start link_${f.link.id}`);
  const card = await fake.waitFor("sendMessage", (c) => String(c.params.text).includes("Clicks:"));
  expect((card.params.reply_markup.inline_keyboard as { text: string }[][]).map((r) => r.map((b) => b.text))).toContainEqual([
    "📊 Stats",
    "📈 Chart",
    "📤 Export",
    "🔳 QR",
  ]);
});

describe("link card analytics", () => {
  test("Stats: a text summary with period buttons that edit it in place", async () => {
    const opened = await card(f.link.id);
    fake.press("📊 Stats");
    const msg = await fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("📊"));
    expect(msg.params.chat_id).toBe(42);
    expect(msg.params.message_id).toBe(opened.result.message_id); // in place of the card
    expect(msg.params.text).toContain("last 30 days");
    // the tracking URL as code: a tap copies it, where an auto-linked URL would open it and count a click
    expect(msg.params.text).toMatch(/\n<code>https?:\/\/[^<\s]+\/[A-Za-z0-9_-]+<\/code>\n/);
    expect(opened.params.text).toMatch(/\n<code>https?:\/\/[^<\s]+\/[A-Za-z0-9_-]+<\/code>\n/);
    expect(msg.params.text).toContain("Clicks: 10\nUnique: 6\nBots: 2\nPer day: 0.33");
    expect(msg.params.text).toContain("Top countries: DE 30%, US 30%, GB 20%");
    expect(msg.params.text).toContain("Sources: t.me 70%, direct 30%");
    expect(buttons(msg).map((b) => b.text)).toEqual([
      "1d",
      "7d",
      "• 30d •",
      "90d",
      "1y",
      "all",
      "📈 Chart",
      "🔳 QR",
      "📤 Export",
      "⬅️ Link",
    ]);
    fake.press("7d");
    const edited = await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("last 7 days"));
    expect(edited.params.text).toContain("last 7 days");
    expect(edited.params.text).toContain("Clicks: 8\nUnique: 5\nBots: 2\nPer day: 1.14");
    expect(buttons(edited)[1]!.text).toBe("• 7d •");
  });

  test("Chart: a PNG summary of the link", async () => {
    await card(f.link.id);
    fake.press("📊 Stats");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("last 30 days"));
    fake.press("7d");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).includes("last 7 days"));
    fake.press("📈 Chart");
    const photo = await fake.waitFor("sendPhoto");
    const meta = await sharp(fileOf(photo).bytes).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBe(1080);
    expect(photo.params.caption).toContain("Clicks: 8");
  });

  test("QR: generated from the tracking URL", async () => {
    await card(f.link.id);
    fake.press("🔳 QR");
    const photo = await fake.waitFor("sendPhoto");
    expect(photo.params.caption).toBe("QR code for http://localhost:3999/fixture1");
    const expected = await QRCode.toBuffer("http://localhost:3999/fixture1", {
      type: "png",
      width: 720,
      margin: 2,
      errorCorrectionLevel: "M",
    });
    expect(Buffer.from(fileOf(photo).bytes).equals(new Uint8Array(expected))).toBe(true);
    expect((await sharp(fileOf(photo).bytes).metadata()).width).toBe(720);
    // "Open in the bot" under the photo sends the link's card below it: no /start in the chat
    expect(photo.params.reply_markup).toEqual({ inline_keyboard: [[{ text: "Open in the bot", callback_data: `go:link_${f.link.id}` }]] });
    const n = fake.calls.length;
    fake.press("Open in the bot");
    const again = await fake.waitFor("sendMessage", (c) => fake.calls.indexOf(c) >= n);
    expect(again.params.text).toContain("Clicks:");
    await fake.waitFor("answerCallbackQuery", (c) => fake.calls.indexOf(c) >= n);
    expect(fake.calls.slice(n).map((c) => c.method)).toEqual(["sendMessage", "answerCallbackQuery"]);
  });

  test("QR of a link on a custom domain encodes that domain's URL (the default host answers 404 for it)", async () => {
    const [domain] = await t.deps.asyncDb
      .insert(t.deps.asyncDb.tables.domains)
      .values({ userId: f.alice.user.id, hostname: "go.alice.example" })
      .returning();
    const link = await insertLink(t.deps, f.alice.user.id, { code: "custom1", domainId: domain!.id });
    await card(link.id);
    fake.press("🔳 QR");
    const photo = await fake.waitFor("sendPhoto");
    expect(photo.params.caption).toBe("QR code for http://go.alice.example/custom1");
    const expected = await QRCode.toBuffer("http://go.alice.example/custom1", {
      type: "png",
      width: 720,
      margin: 2,
      errorCorrectionLevel: "M",
    });
    expect(Buffer.from(fileOf(photo).bytes).equals(new Uint8Array(expected))).toBe(true);
  });

  test("Export: format menu, progress message, then the document", async () => {
    await card(f.link.id);
    fake.press("📤 Export");
    const menu = await fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("📤"));
    expect(buttons(menu).map((b) => b.text)).toEqual([
      "CSV · last 30 days",
      "Excel · last 30 days",
      "PDF · last 30 days",
      "CSV · all time",
      "Excel · all time",
      "PDF · all time",
      "⬅️ Link",
    ]);
    fake.press("Excel · last 30 days");
    const progress = await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("⏳"));
    expect(progress.params.text).toBe("⏳ Exporting Excel…");
    const doc = await fake.waitFor("sendDocument");
    expect(fileOf(doc).name).toBe("clicks-fixture1-30d-2026-03-30.xlsx");
    const done = await fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("✅"));
    expect(done.params.text).toBe("✅ Sent clicks-fixture1-30d-2026-03-30.xlsx with 10 clicks to your Telegram chat");
  });

  test("a long export shows its progress", async () => {
    const base = Date.parse("2026-03-30T00:00:00Z");
    await recordClicks(
      t.deps,
      f.link,
      Array.from({ length: 6_000 }, (_, i) => ({ at: base + i * 1000, country: "NL", isBot: false, isUnique: true })),
    );
    await card(f.link.id);
    fake.press("📤 Export");
    await fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("📤"));
    fake.press("CSV · all time");
    await fake.waitFor("sendDocument");
    const edits =
      (await fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("✅")),
      fake.callsOf("editMessageText").map((c) => c.params.text));
    expect(edits.filter((x) => !x.startsWith("📤"))).toEqual([
      "⏳ Exporting CSV… 2,500 of 6,010 rows (41%)",
      "⏳ Exporting CSV… 5,000 of 6,010 rows (83%)",
      "✅ Sent clicks-fixture1-all-2026-03-30.csv with 6,010 clicks to your Telegram chat",
    ]);
  });

  test("someone else's link: not found, nothing sent", async () => {
    const answer = await card(f.bobLink.id);
    expect(answer.params.text).toStartWith("⚠️ Link not found");
    expect(fake.callsOf("sendPhoto")).toHaveLength(0);
  });
});

test("/summary sends the all-links summary", async () => {
  fake.pushMessage("/summary");
  const photo = await fake.waitFor("sendPhoto");
  expect(photo.params.chat_id).toBe(42);
  expect(photo.params.caption).toStartWith("📊 All links — last 30 days\nClicks: 10");
  expect([...fileOf(photo).bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
});

test("/summary takes a period; a wrong one is explained", async () => {
  fake.pushMessage("/summary 7d");
  const photo = await fake.waitFor("sendPhoto");
  expect(photo.params.caption).toStartWith("📊 All links — last 7 days\nClicks: 8");
  const actions = fake.calls.filter((c) => c.method === "sendChatAction").length;
  fake.pushMessage("/summary fortnight");
  const msg = await fake.waitFor("sendMessage", (c) => String(c.params.text).startsWith("⚠️"));
  // the option named in words, not as a field (bot/problem.ts)
  expect(msg.params.text).toBe("⚠️ The period is one of: 1d, 7d, 30d, 90d, 1y, all.");
  // refused before Telegram shows "sending photo…"
  expect(fake.calls.filter((c) => c.method === "sendChatAction")).toHaveLength(actions);
});
