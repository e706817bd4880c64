import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import sharp from "sharp";
import ExcelJS from "exceljs";
import QRCode from "qrcode";
import { createTestApp, type TestApp } from "../helpers/app";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { seedFixture } from "../helpers/analytics-fixture";
import { pdfPages } from "../helpers/pdf";
import { insertLink, recordClicks } from "../helpers/clicks";
import { summaryCard } from "../../core/analytics/summary";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const HEADER = "Date — UTC,IP,Country,City,Device,OS,Browser,Referer,Bot,Bot name,Unique,Click ID,Sub parameters";

let fake: FakeBotApi;
let t: TestApp;
let f: Awaited<ReturnType<typeof seedFixture>>;
beforeEach(async () => {
  fake = new FakeBotApi().start();
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  f = await seedFixture(t);
});
afterEach(async () => {
  t.close();
  await fake.stop();
});

const post = (path: string, body: unknown, token = f.alice.token) => t.request("POST", `/api/links/${path}`, { token, body });
const onlyFile = (call: { files: Record<string, { name: string; bytes: Uint8Array }> }) => Object.values(call.files)[0]!;

describe("send-summary", () => {
  test("a link's summary arrives in the user's chat as a real PNG", async () => {
    const res = await post("send-summary", { period: "7d", linkId: f.link.id, tz: "Europe/Berlin" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    const [call] = fake.callsOf("sendPhoto");
    expect(call!.params.chat_id).toBe(42);
    expect(call!.params.caption).toContain("Clicks: 8 · Unique: 5 · Bots: 2 · Top country: DE");
    const file = onlyFile(call!);
    expect(file.name).toBe("stats-fixture1-2026-03-30.png");
    expect([...file.bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    const meta = await sharp(file.bytes).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBe(1080);
    expect(meta.height).toBeGreaterThan(1500);
  });

  test("without linkId: all links; dateFrom/dateTo pick an arbitrary range", async () => {
    expect((await post("send-summary", { period: "30d" })).json).toEqual({ ok: true });
    expect(fake.callsOf("sendPhoto")[0]!.params.caption).toStartWith("📊 All links — last 30 days\nClicks: 10 ·");
    const ranged = await post("send-summary", { period: "30d", linkId: f.link.id, dateFrom: "2026-03-28", dateTo: "2026-03-29" });
    expect(ranged.status).toBe(200);
    expect(fake.callsOf("sendPhoto")[1]!.params.caption).toStartWith("📊 Link");
    expect(fake.callsOf("sendPhoto")[1]!.params.caption).toContain("2026-03-28 – 2026-03-29\nClicks: 5 · Unique: 3 · Bots: 1");
  });

  test("errors: bad input 400, someone else's link 404, no Telegram identity 409, blocked bot 409", async () => {
    expect((await post("send-summary", { period: "5d" })).status).toBe(400);
    expect((await post("send-summary", { dateFrom: "yesterday" })).json.details[0].field).toBe("dateFrom");
    expect((await post("send-summary", { dateFrom: "2026-03-29", dateTo: "2026-03-01" })).json.details[0].field).toBe("dateTo");
    expect((await post("send-summary", { linkId: f.bobLink.id })).status).toBe(404);
    const email = await t.emailUser("carol@example.com");
    const noTg = await post("send-summary", {}, email.token);
    expect(noTg.status).toBe(409);
    expect(noTg.json.error).toBe("telegram_not_linked");
    fake.failNext.set("sendPhoto", { error_code: 403, description: "Forbidden: bot was blocked by the user" });
    const blocked = await post("send-summary", { linkId: f.link.id });
    expect(blocked.status).toBe(409);
    expect(blocked.json).toMatchObject({ error: "bot_blocked" });
    expect(blocked.json.message).toContain("blocked the bot");
  });

  test("a 429 from Telegram is retried after retry_after", async () => {
    fake.failNext.set("sendPhoto", { error_code: 429, description: "Too Many Requests: retry after 0", parameters: { retry_after: 0 } });
    const res = await post("send-summary", { linkId: f.link.id });
    expect(res.status).toBe(200);
    expect(fake.callsOf("sendPhoto")).toHaveLength(2);
  });
});

describe("share-qr", () => {
  test("a valid PNG is sent as a photo; anything else is refused", async () => {
    const png = await QRCode.toBuffer("http://localhost:3999/fixture1", { width: 300 });
    const res = await post(`${f.link.id}/share-qr`, { qrImage: png.toString("base64") });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    const call = fake.callsOf("sendPhoto")[0]!;
    expect(call.params.chat_id).toBe(42);
    expect(Buffer.from(onlyFile(call).bytes).equals(new Uint8Array(png))).toBe(true);
    expect((await post(`${f.link.id}/share-qr`, { qrImage: `data:image/png;base64,${png.toString("base64")}` })).status).toBe(200);

    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    const notPng = await post(`${f.link.id}/share-qr`, { qrImage: jpeg.toString("base64") });
    expect(notPng.status).toBe(400);
    expect(notPng.json.details[0]).toEqual({ field: "qrImage", message: "is not a PNG image (wrong signature)" });
    expect((await post(`${f.link.id}/share-qr`, { qrImage: "%%%not base64%%%" })).status).toBe(400);
    const truncated = Buffer.concat([new Uint8Array(png.subarray(0, 8)), new Uint8Array(100)]);
    expect((await post(`${f.link.id}/share-qr`, { qrImage: truncated.toString("base64") })).json.details[0].message).toBe(
      "is not a readable PNG image",
    );
    const huge = Buffer.concat([new Uint8Array(png.subarray(0, 8)), new Uint8Array(600 * 1024)]);
    expect((await post(`${f.link.id}/share-qr`, { qrImage: huge.toString("base64") })).status).toBe(413);
    expect((await post(`${f.bobLink.id}/share-qr`, { qrImage: png.toString("base64") })).status).toBe(404);
    expect(fake.callsOf("sendPhoto")).toHaveLength(2);
  });
});

test("share-qr and the summary card name a custom-domain link by its own tracking URL", async () => {
  const [domain] = await t.deps.asyncDb
    .insert(t.deps.asyncDb.tables.domains)
    .values({ userId: f.alice.user.id, hostname: "go.alice.example" })
    .returning();
  const link = await insertLink(t.deps, f.alice.user.id, { code: "custom1", domainId: domain!.id });
  const png = await QRCode.toBuffer("http://go.alice.example/custom1", { width: 300 });
  expect((await post(`${link.id}/share-qr`, { qrImage: png.toString("base64") })).status).toBe(200);
  expect(fake.callsOf("sendPhoto")[0]!.params.caption).toBe("QR code for http://go.alice.example/custom1");
  const { card } = await summaryCard(t.deps, f.alice.user.id, { linkId: link.id });
  expect(card.subtitle).toBe("http://go.alice.example/custom1 · last 30 days");
});

describe("export", () => {
  test("csv: exact header, newest first, clear file name", async () => {
    const res = await post(`${f.link.id}/export`, { format: "csv" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ok: true,
      rows: 10,
      message: "Sent clicks-fixture1-30d-2026-03-30.csv with 10 clicks to your Telegram chat",
    });
    const call = fake.callsOf("sendDocument")[0]!;
    expect(call.params.chat_id).toBe(42);
    const file = onlyFile(call);
    expect(file.name).toBe("clicks-fixture1-30d-2026-03-30.csv");
    const lines = new TextDecoder()
      .decode(file.bytes)
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(11);
    expect(lines[1]).toBe("2026-03-30 11:59:30,203.0.113.7,DE,DE City,desktop,Linux,Firefox,,no,,yes,,");
    expect(lines[2]).toBe("2026-03-30 09:00:00,198.51.100.1,US,,bot,,,,yes,Googlebot,no,,");
    expect(lines[10]).toStartWith("2026-03-20 10:00:00,");
  });

  test("xlsx reads back with exceljs; pdf is a PDF", async () => {
    expect((await post(`${f.link.id}/export`, { format: "xlsx", period: "7d" })).json).toMatchObject({ ok: true, rows: 8 });
    const xlsx = onlyFile(fake.callsOf("sendDocument")[0]!);
    expect(xlsx.name).toBe("clicks-fixture1-7d-2026-03-30.xlsx");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(xlsx.bytes) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER.split(","));
    expect(ws.rowCount).toBe(9);
    // the time is a date cell (a spreadsheet sorts and filters it as a date), in the zone of the heading
    expect(ws.getRow(2).getCell(1).type).toBe(ExcelJS.ValueType.Date);
    expect(ws.getRow(2).getCell(1).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect((ws.getRow(2).values as unknown[]).slice(1)).toEqual([
      new Date("2026-03-30T11:59:30Z"),
      "203.0.113.7",
      "DE",
      "DE City",
      "desktop",
      "Linux",
      "Firefox",
      undefined,
      "no",
      undefined,
      "yes",
    ]); // empty values are empty cells
    expect(ws.getRow(9).getCell(3).value).toBe("GB");

    expect((await post(`${f.link.id}/export`, { format: "pdf", period: "all" })).json).toMatchObject({ ok: true, rows: 10 });
    const pdf = onlyFile(fake.callsOf("sendDocument")[1]!);
    expect(pdf.name).toBe("clicks-fixture1-all-2026-03-30.pdf");
    expect(new TextDecoder().decode(pdf.bytes.slice(0, 5))).toBe("%PDF-");
    expect(new TextDecoder().decode(pdf.bytes.slice(-6))).toContain("%%EOF");
    // what a PDF reader finds: the title, the header, every row, the footer
    const [text] = await pdfPages(pdf.bytes);
    expect(text).toContain(`Clicks of ${t.config.shortUrl}/fixture1 (all time, newest first)`);
    expect(text).toContain("Date — UTC IP Country City Device OS Browser Referer Bot Bot name Unique");
    expect(text).toMatch(/2026-03-30 11:59:30\s+203\.0\.113\.7\s+DE\s+DE City\s+desktop/);
    expect(text).toContain("2026-03-20 10:00:00");
    expect(text).toContain("page 1 of 1 · 10 rows");
  });

  test("a PDF writes Cyrillic and other scripts as they are; what the fonts lack becomes ?", async () => {
    await recordClicks(t.deps, f.link, [
      { at: Date.parse("2026-03-30T11:59:50Z"), ip: "198.51.100.9", country: "RU", city: "Москва", referer: "https://пример.рф/акция 🎉" },
    ]);
    expect((await post(`${f.link.id}/export`, { format: "pdf", period: "1d" })).json).toMatchObject({ ok: true });
    const [text] = await pdfPages(onlyFile(fake.callsOf("sendDocument").at(-1)!).bytes);
    expect(text).toMatch(/198\.51\.100\.9\s+RU\s+Москва/);
    expect(text).toContain("https://пример.рф/акция ?");
  });

  test("at most 10,000 rows, the newest", async () => {
    const base = Date.parse("2026-03-30T00:00:00Z");
    await recordClicks(
      t.deps,
      f.link,
      Array.from({ length: 10_005 }, (_, i) => ({ at: base + i * 1000, country: "NL", device: "mobile", isBot: false, isUnique: false })),
    );
    const res = await post(`${f.link.id}/export`, { format: "csv", period: "1d" });
    expect(res.json.rows).toBe(10_000);
    expect(res.json.message).toContain("the newest 10,000");
    const lines = new TextDecoder()
      .decode(onlyFile(fake.callsOf("sendDocument")[0]!).bytes)
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(10_001);
    expect(lines[1]).toStartWith("2026-03-30 11:59:30,");
    expect(lines[2]).toStartWith("2026-03-30 09:00:00,");
    expect(lines[3]).toStartWith("2026-03-30 02:46:44,"); // base + 10,004 s
    expect(lines[10_000]).toStartWith("2026-03-30 00:00:07,"); // the 7 oldest seeded (and the fixture's older clicks) are cut
  }, 20_000);

  test("exactly 10,000 clicks: all are sent and the message does not claim older ones were cut", async () => {
    const base = Date.parse("2026-03-30T00:00:00Z");
    // with the fixture's 3 clicks of the last day: exactly 10,000
    await recordClicks(
      t.deps,
      f.link,
      Array.from({ length: 9_997 }, (_, i) => ({ at: base + i * 1000, isBot: false, isUnique: false })),
    );
    const res = await post(`${f.link.id}/export`, { format: "csv", period: "1d" });
    expect(res.json).toEqual({
      ok: true,
      rows: 10_000,
      message: "Sent clicks-fixture1-1d-2026-03-30.csv with 10,000 clicks to your Telegram chat",
    });
  }, 20_000);

  test("errors: format 400, nothing to export is ok:false, blocked bot 409", async () => {
    const bad = await post(`${f.link.id}/export`, { format: "docx" });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0]).toEqual({ field: "format", message: "must be one of csv, xlsx, pdf" });
    expect((await post(`${f.link.id}/export`, {})).status).toBe(400);
    expect((await post(`${f.link.id}/export`, { format: "csv", period: "week" })).status).toBe(400);
    expect((await post(`${f.bobLink.id}/export`, { format: "csv" })).status).toBe(404);
    const none = await post(`${f.bobLink.id}/export`, { format: "csv" }, f.bob.token);
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ ok: false, rows: 0, message: "No clicks on boblink1 in the chosen period (30d); nothing was sent" });
    fake.failNext.set("sendDocument", { error_code: 403, description: "Forbidden: bot was blocked by the user" });
    expect((await post(`${f.link.id}/export`, { format: "csv" })).json.error).toBe("bot_blocked");
  });

  test("scopes: write:links sends, read:stats alone may not", async () => {
    const mk = async (scopes: string[]) =>
      (await t.request("POST", "/api/tokens", { token: f.alice.token, body: { name: scopes.join(), scopes } })).json.token;
    expect((await post(`${f.link.id}/export`, { format: "csv" }, await mk(["write:links"]))).status).toBe(200);
    expect((await post("send-summary", {}, await mk(["read:stats"]))).status).toBe(403);
  });
});

test("without a bot, sends answer 503; an unreachable Bot API answers 502", async () => {
  const noBot = createTestApp();
  const g = await seedFixture(noBot);
  const res = await noBot.request("POST", "/api/links/send-summary", { token: g.alice.token, body: {} });
  expect(res.status).toBe(503);
  expect(res.json.error).toBe("not_configured");
  noBot.close();
  const down = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: "http://127.0.0.1:9" } });
  const h = await seedFixture(down);
  const unreachable = await down.request("POST", `/api/links/${h.link.id}/export`, { token: h.alice.token, body: { format: "csv" } });
  expect(unreachable.status).toBe(502);
  expect(unreachable.json.error).toBe("telegram_unreachable");
  down.close();
});
