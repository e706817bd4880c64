/**
 * Ads in the bot (📢 Ads, /ads): the table with its exact figures, in English and Russian; its
 * orders and periods; a placement's funnel and actions (views by hand, the post's URL, delete); the
 * exports' content; the default currency in Settings.
 */
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { unitBot } from "./unit";
import { upsertTelegramUser } from "../../core/accounts/users";
import { getPlacement, listPlacements, updatePlacement } from "../../core/placements/placements";
import { getUserSettings, updateSettings, updateUserSettings } from "../../core/reports/settings";
import { placementsFixture } from "../helpers/placements-fixture";

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;
const nb = (s: string) => s.replace(/\u00a0|\u202f/g, " ");

async function setUp(language: "en" | "ru" = "en") {
  b = unitBot({}, { language_code: language });
  const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice", appLanguage: language });
  return { user, ...(await placementsFixture(b.t.deps, user)) };
}

describe("the Ads table", () => {
  test("📢 Ads in the main menu: one line per placement, cheapest subscriber who stayed first, exact figures", async () => {
    await setUp();
    await b.send("/start");
    await b.press("📢 Ads");
    expect(lastText()).toBe(
      [
        "📢 <b>Ads</b> · last 30 days · by cost per subscriber who stayed",
        "",
        "1. <b>Cheap ads</b> · ₽3,000",
        "👆 6 · 👥 2 · ✅ 2 · 💰 ₽1,500",
        "2. <b>Big channel</b> · ₽5,000",
        "👆 10 · 👥 4 · ✅ 3 · 💰 ₽1,666.67",
        "",
        "👆 unique clicks · 👥 joins · ✅ stayed a week · 💰 per subscriber who stayed",
      ].join("\n"),
    );
    expect(b.labels(b.calls.findLast((c) => c.params.reply_markup)!)).toEqual([
      ["1. Cheap ads", "2. Big channel"],
      ["• 30 days •", "7 days", "90 days", "All time"],
      ["• 💰 Per stayed •", "💵 Per join"],
      ["👥 Joins", "👆 Clicks"],
      ["📤 CSV", "📤 XLSX"],
      ["⬅️ Menu"],
    ]);
  });

  test("sorted by joins or clicks, most first; a longer period brings older placements, last when they lack the figure", async () => {
    await setUp();
    await b.send("/ads");
    await b.press("👥 Joins");
    expect(lastText()).toMatch(/by joins\n\n1\. <b>Big channel<\/b>[\s\S]*\n2\. <b>Cheap ads<\/b>/);
    await b.press("All time");
    const text = lastText();
    expect(text).toStartWith("📢 <b>Ads</b> · all time · by joins");
    expect(text).toContain("3. <b>VK group</b> · no price\n👆 3 · 👥 0 · ✅ 0 · 💰 —");
    await b.press("💰 Per stayed");
    expect(lastText()).toMatch(/1\. <b>Cheap ads<\/b>[\s\S]*2\. <b>Big channel<\/b>[\s\S]*3\. <b>VK group<\/b>/);
    await b.press("7 days");
    expect(lastText()).toContain("No placements in this period.");
  });

  test("costs in two currencies are compared only within one: the account's own first, a smaller number in dollars after", async () => {
    const { user, cheap } = await setUp();
    await updateUserSettings(b.t.deps, user.id, { currency: "RUB" });
    // $15 per subscriber who stayed is a smaller number than ₽1,666.67, not a smaller cost
    await updatePlacement(b.t.deps, user.id, cheap.id, { cost: { amount: 30, currency: "USD" } });
    await b.send("/ads");
    expect(lastText()).toMatch(
      /by cost per subscriber who stayed\n\n1\. <b>Big channel<\/b> · ₽5,000\n[^\n]*💰 ₽1,666\.67\n2\. <b>Cheap ads<\/b> · \$30\n[^\n]*💰 \$15\n/,
    );
    await b.press("💵 Per join");
    expect(lastText()).toMatch(/1\. <b>Big channel<\/b>[\s\S]*\n2\. <b>Cheap ads<\/b>/);
  });

  test("👆 Clicks sorts by the unique clicks the lines show, not by all clicks", async () => {
    const { user, cheap } = await setUp();
    const cheapLink = (await getPlacement(b.t.deps, user.id, cheap.id)).links[0]!;
    // Cheap ads: 50 clicks from 6 people; Big channel: 12 from 10
    const db = b.t.deps.asyncDb;
    await db.update(db.tables.links).set({ totalClicks: 50 }).where(eq(db.tables.links.id, cheapLink.id));
    await b.send("/ads");
    await b.press("👆 Clicks");
    expect(lastText()).toMatch(/by unique clicks\n\n1\. <b>Big channel<\/b>.*\n👆 10 [\s\S]*\n2\. <b>Cheap ads<\/b>.*\n👆 6 /);
  });

  test("in Russian: the same table in Russian words and number format", async () => {
    await setUp("ru");
    await b.send("/start");
    await b.press("📢 Реклама");
    expect(nb(lastText())).toBe(
      [
        "📢 <b>Реклама</b> · за 30 дней · по цене оставшегося подписчика",
        "",
        "1. <b>Cheap ads</b> · 3 000 ₽",
        "👆 6 · 👥 2 · ✅ 2 · 💰 1 500 ₽",
        "2. <b>Big channel</b> · 5 000 ₽",
        "👆 10 · 👥 4 · ✅ 3 · 💰 1 666,67 ₽",
        "",
        "👆 уникальные переходы · 👥 вступили · ✅ остались через неделю · 💰 цена оставшегося подписчика",
      ].join("\n"),
    );
  });
});

describe("a placement's screen", () => {
  test("the funnel from views to who stayed, with what each step cost", async () => {
    await setUp();
    await b.send("/ads");
    await b.press("2. Big channel");
    expect(lastText().split("\n")).toEqual([
      "📢 <b>Big channel</b>",
      "Where: @bigchannel",
      "Published: Jan 5, 2026",
      "Price: ₽5,000",
      "Post: not known yet (🔗 Post URL)",
      "",
      "👁 Views: 20,000 · CPM ₽250",
      "👆 Clicks: 12, unique 10 · CPC ₽500",
      "👥 Joins: 4, left 1 · per join ₽1,250",
      "✅ Stayed after 24 h: 3 of 4 (75%) · 7 days: 3 of 4 (75%) · 30 days: —",
      "💰 Per subscriber who stayed a week: ₽1,666.67",
      "🎯 Conversions: 4 · 40% of 10 unique clicks", // its four joins
      "",
      "Tracking links: 1 · invite links: 1",
      expect.stringMatching(/^• <code>https:\/\/links\.example\.com\/\w+<\/code> → https:\/\/shop\.example\/Bigchannel$/),
      "• <code>https://t.me/+bigad</code> (bigad)",
    ]);
  });

  test("price, date (in the user's time zone), name and notes set after creation; /clear removes the price", async () => {
    const { user, big } = await setUp();
    await updateSettings(b.t.deps, user.id, { time_zone: "Europe/Moscow" });
    await b.send("/ads");
    await b.press("2. Big channel");
    await b.press("💰 Price");
    await b.send("7 000 ₽");
    expect((await getPlacement(b.t.deps, user.id, big.id)).cost).toEqual({ amount: 7000, currency: "RUB" });
    await b.press("💰 Price");
    await b.send("lots");
    expect(lastText()).toContain("Try again, or /cancel.");
    await b.send("/clear");
    expect((await getPlacement(b.t.deps, user.id, big.id)).cost).toBeNull();
    await b.press("📅 Date");
    await b.send("someday");
    expect(lastText()).toStartWith("I could not read that date. Examples:");
    await b.send("2026-01-20 10:00");
    // 10:00 in Moscow is 07:00 UTC
    expect(String((await getPlacement(b.t.deps, user.id, big.id)).publish_at)).toStartWith("2026-01-20T07:00:00");
    // a day without a year is the nearest such day: an ad noted after it ran keeps its year
    const today = b.t.deps.clock.now();
    const ran = new Date(today.getTime() - 3 * 86_400_000);
    const dm = `${String(ran.getUTCDate()).padStart(2, "0")}.${String(ran.getUTCMonth() + 1).padStart(2, "0")}`;
    await b.press("📅 Date");
    await b.send(dm);
    const stored = new Date((await getPlacement(b.t.deps, user.id, big.id)).publish_at!);
    expect(Math.abs(stored.getTime() - ran.getTime())).toBeLessThan(86_400_000);
    await b.press("✏️ Name");
    await b.send("Big channel, January");
    await b.press("📝 Notes");
    await b.send("paid by card");
    const p = await getPlacement(b.t.deps, user.id, big.id);
    expect(p).toMatchObject({ name: "Big channel, January", notes: "paid by card" });
    expect(lastText()).toContain("Notes: paid by card");
  });

  test("views typed as people write them: thousands separators and тыс./K", async () => {
    const { user, big } = await setUp();
    await b.send("/ads");
    await b.press("2. Big channel");
    for (const [typed, views] of [
      ["12,000", 12_000],
      ["12.000", 12_000],
      ["12 000", 12_000],
      ["12.5K", 12_500],
      ["12,5 тыс.", 12_500],
      ["1,2 млн", 1_200_000],
    ] as const) {
      await b.press("👁 Views");
      await b.send(typed);
      expect((await getPlacement(b.t.deps, user.id, big.id)).stats.views).toBe(views);
    }
  });

  test("views typed by hand (12.5K), the post's URL (refused when it is not a post), and delete after a Yes", async () => {
    const { user, big } = await setUp();
    await b.send("/ads");
    await b.press("2. Big channel");
    await b.press("👁 Views");
    expect(lastText()).toContain("how many views the ad post has");
    await b.send("lots");
    expect(lastText()).toBe("Views are a whole number: 12000, 12 000 or 12.5K.\nTry again, or /cancel.");
    await b.send("12.5K");
    expect(lastText()).toContain("👁 Views: 12,500 · CPM ₽400");
    expect((await getPlacement(b.t.deps, user.id, big.id)).stats.views).toBe(12_500);

    await b.press("🔗 Post URL");
    await b.send("https://example.com/post");
    expect(lastText()).toContain("t.me/");
    await b.send("t.me/bigchannel/345");
    expect(lastText()).toContain("Post: https://t.me/bigchannel/345");
    expect(b.findButton("↗️ Open the post")).toBeNull(); // a URL button, not a callback one
    expect(JSON.stringify(b.calls.findLast((c) => c.params.reply_markup)!.params.reply_markup)).toContain("https://t.me/bigchannel/345");

    await b.press("🗑 Delete");
    expect(lastText()).toBe("Delete the placement <b>Big channel</b>? Its links and invite links stay, with their clicks and joins.");
    await b.press("🗑 Yes, delete");
    expect(lastText()).toStartWith("🗑 Placement deleted.\n\n📢 <b>Ads</b>");
    expect((await listPlacements(b.t.deps, user.id, { period: "all" })).map((p) => p.name).sort()).toEqual(["Cheap ads", "VK group"]);
  });
});

describe("exports of the table", () => {
  test("CSV: the rows of the screen in its order, every figure in its column; XLSX: the same sheet", async () => {
    await setUp();
    await b.send("/ads");
    await b.press("📤 CSV");
    const doc = b.calls.findLast((c) => c.method === "sendDocument")!;
    expect(doc.params.caption).toBe("📢 2 placements, last 30 days (CSV)");
    const csv = new TextDecoder().decode(doc.files.document!.bytes).replace(/^\uFEFF/, "");
    expect(csv.split("\r\n")).toEqual([
      "Placement,Where,Published,Price,Currency,Views,Clicks,Unique clicks,Joins,Leaves,Stayed 24 h,Stayed 7 days,Stayed 30 days,CPM,CPC,Per join,Per subscriber who stayed,Post",
      "Cheap ads,t.me/cheapads,2026-01-05,3000.00,RUB,,6,6,2,0,2,2,0,,500.00,1500.00,1500.00,",
      "Big channel,t.me/bigchannel,2026-01-05,5000.00,RUB,20000,12,10,4,1,3,3,0,250.00,500.00,1250.00,1666.67,",
      "",
    ]);
    await b.press("📤 XLSX");
    const xlsx = b.calls.findLast((c) => c.method === "sendDocument")!;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(xlsx.files.document!.bytes) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe("Ads");
    expect(ws.rowCount).toBe(3);
    const row = (n: number) => Array.from({ length: 18 }, (_, i) => ws.getRow(n).getCell(i + 1).value ?? "");
    // the figures are number cells (a spreadsheet sums them), the rest text, each equal to the CSV's
    const text = new Set([0, 1, 2, 4, 17]);
    const cells = (line: string) => line.split(",").map((v, i) => (text.has(i) || v === "" ? v : Number(v)));
    expect(row(1)).toEqual(csv.split("\r\n")[0]!.split(","));
    expect(row(2)).toEqual(cells(csv.split("\r\n")[1]!));
    expect(row(3)).toEqual(cells(csv.split("\r\n")[2]!));
    expect(ws.getRow(3).getCell(4).value).toBe(5000);
    expect(ws.getRow(3).getCell(17).value).toBe(1666.67);
  });
});

describe("exports in the user's time zone", () => {
  test("the published day is the user's: noon UTC on 5 January is the 6th at Kiritimati (UTC+14)", async () => {
    const { user } = await setUp();
    await updateSettings(b.t.deps, user.id, { time_zone: "Pacific/Kiritimati" });
    await b.send("/ads");
    await b.press("📤 CSV");
    const csv = new TextDecoder().decode(b.calls.findLast((c) => c.method === "sendDocument")!.files.document!.bytes);
    expect(csv).toContain("Cheap ads,t.me/cheapads,2026-01-06,");
  });
});

describe("Settings: the default currency", () => {
  test("one tap per currency; a Russian-speaking account starts in RUB, an English one in USD", async () => {
    const { user } = await setUp();
    await b.send("/settings");
    expect(lastText()).toContain("Currency of prices: USD");
    await b.press("EUR");
    expect(lastText()).toStartWith("Prices without a currency are now read in EUR.");
    expect(b.findButton("• EUR •")).not.toBeNull();
    expect((await getUserSettings(b.t.deps, user.id)).currency).toBe("EUR");
    b.close();
    await setUp("ru");
    await b.send("/settings");
    expect(lastText()).toContain("Валюта цен: RUB");
    expect(b.findButton("• RUB •")).not.toBeNull();
  });
});
