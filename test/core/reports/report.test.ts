/**
 * Daily and weekly reports (core/reports): when they are due in the user's zone, what they count
 * (whole days of that zone, against the period before), once per period, and the settings API.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { lastSlot, periodOf } from "../../../core/reports/schedule";
import { sendDueReports } from "../../../core/reports/report";
import { createTestApp, type TestApp } from "../../helpers/app";

const iso = (ms: number | Date) => new Date(ms).toISOString();
const daily = (zone: string, hour = 9) => ({ time_zone: zone, report_every: "day" as const, report_hour: hour, report_weekday: 1 });

describe("schedule", () => {
  test("a daily report is due at its hour of the user's day and covers the calendar day before", () => {
    const s = daily("Europe/Moscow"); // UTC+3
    expect(iso(lastSlot(s, new Date("2026-11-25T06:00:00Z")))).toBe("2026-11-25T06:00:00.000Z"); // 09:00 there
    expect(iso(lastSlot(s, new Date("2026-11-25T05:59:00Z")))).toBe("2026-11-24T06:00:00.000Z");
    const p = periodOf(s, new Date("2026-11-25T06:00:00Z"));
    expect([iso(p.from), iso(p.to)]).toEqual(["2026-11-23T21:00:00.000Z", "2026-11-24T21:00:00.000Z"]);
  });

  test("half-hour zones, and a day that daylight saving shortens to 23 hours", () => {
    const kolkata = periodOf(daily("Asia/Kolkata"), lastSlot(daily("Asia/Kolkata"), new Date("2026-11-25T12:00:00Z")));
    expect([iso(kolkata.from), iso(kolkata.to)]).toEqual(["2026-11-23T18:30:00.000Z", "2026-11-24T18:30:00.000Z"]);
    // Berlin moved its clocks forward on 29 March 2026: that day has 23 hours
    const berlin = periodOf(daily("Europe/Berlin", 8), new Date("2026-03-30T06:00:00Z"));
    expect([iso(berlin.from), iso(berlin.to)]).toEqual(["2026-03-28T23:00:00.000Z", "2026-03-29T22:00:00.000Z"]);
  });

  test("a weekly report comes on its weekday and covers the seven days before", () => {
    const s = { time_zone: "UTC", report_every: "week" as const, report_hour: 10, report_weekday: 1 };
    // Wednesday 25 November 2026: the last Monday 10:00 was the 23rd
    const slot = lastSlot(s, new Date("2026-11-25T12:00:00Z"));
    expect(iso(slot)).toBe("2026-11-23T10:00:00.000Z");
    const p = periodOf(s, slot);
    expect([iso(p.from), iso(p.to)]).toEqual(["2026-11-16T00:00:00.000Z", "2026-11-23T00:00:00.000Z"]);
  });
});

describe("reports", () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp({ env: { TRUST_PROXY: "true" } });
  });
  afterEach(() => t.close());

  const reports = async () =>
    (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox).where(eq(t.deps.asyncDb.tables.outbox.topic, "report"))).map(
      (r) => r.payload as { text: string },
    );

  test("the settings API: defaults, changes, and bad values refused naming the field", async () => {
    const { token } = await t.telegramUser(4242, "ann");
    expect((await t.request("GET", "/api/settings", { token })).json).toEqual({
      time_zone: "UTC",
      report_every: "off",
      report_hour: 9,
      report_weekday: 1,
      language: "en",
      language_chosen: null,
      currency: "USD",
      currency_chosen: null,
    });
    const changed = await t.request("PATCH", "/api/settings", {
      token,
      body: { time_zone: "Europe/Moscow", report_every: "day", report_hour: 8 },
    });
    expect(changed.json).toEqual({
      time_zone: "Europe/Moscow",
      report_every: "day",
      report_hour: 8,
      report_weekday: 1,
      language: "en",
      language_chosen: null,
      currency: "USD",
      currency_chosen: null,
    });
    expect((await t.request("GET", "/api/settings", { token })).json).toEqual(changed.json);
    for (const [body, field] of [
      [{ time_zone: "Mars/Olympus" }, "time_zone"],
      [{ report_hour: 24 }, "report_hour"],
      [{ report_every: "hourly" }, "report_every"],
      [{ report_weekday: 0 }, "report_weekday"],
      [{ language: "de" }, "language"],
    ] as const) {
      const res = await t.request("PATCH", "/api/settings", { token, body });
      expect({ field, status: res.status, fields: res.json.details?.map((d: { field: string }) => d.field) }).toEqual({
        field,
        status: 400,
        fields: [field],
      });
    }
    expect((await t.request("GET", "/api/settings", { token })).json).toEqual(changed.json);
    expect((await t.request("GET", "/api/settings")).status).toBe(401);
  });

  test("the language: the Telegram app's until one is chosen, chosen in the API, the bot's choice too, and null follows the app again", async () => {
    const { user, token } = await t.telegramUser(4343, "olga");
    const db = t.deps.asyncDb;
    await db.update(db.tables.users).set({ appLanguage: "uk" }).where(eq(db.tables.users.id, user.id));
    expect((await t.request("GET", "/api/settings", { token })).json).toMatchObject({
      language: "ru",
      language_chosen: null,
      time_zone: "UTC",
      currency: "RUB",
    });
    const chosen = await t.request("PATCH", "/api/settings", { token, body: { language: "en" } });
    expect(chosen.json).toMatchObject({ language: "en", language_chosen: "en", report_every: "off" });
    // the same choice the bot's Settings make
    expect(
      (await db.select({ language: db.tables.users.language }).from(db.tables.users).where(eq(db.tables.users.id, user.id)))[0]!.language,
    ).toBe("en");
    expect((await t.request("PATCH", "/api/settings", { token, body: { language: null, report_hour: 7 } })).json).toMatchObject({
      language: "ru",
      language_chosen: null,
      report_hour: 7,
    });
  });

  test("the period before is the calendar day before in the user's zone, also when daylight saving changes the clock", async () => {
    // Berlin moved its clocks forward on Sunday 29 March 2026: Sunday has 23 hours
    t.clock.set("2026-03-28T12:00:00Z");
    const { token } = await t.telegramUser(4242, "ann");
    await t.request("PATCH", "/api/settings", { token, body: { time_zone: "Europe/Berlin", report_every: "day", report_hour: 9 } });
    const link = (await t.request("POST", "/api/links", { token, body: { url: "https://shop.example/dst" } })).json;
    const visit = async (at: string, ip: string) => {
      t.clock.set(at);
      const res = await t.request("GET", `/${link.code}`, {
        headers: { "x-forwarded-for": ip, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0" },
      });
      expect(res.status).toBe(302);
    };
    await visit("2026-03-28T22:30:00Z", "203.0.113.1"); // Saturday 23:30 in Berlin: not Sunday
    await visit("2026-03-30T10:00:00Z", "203.0.113.2"); // Monday
    await t.deps.clicks.flush();
    // Tuesday 31 March, 09:05 in Berlin: Monday's report, against Sunday, which had no click
    t.clock.set("2026-03-31T07:05:00Z");
    expect(await sendDueReports(t.deps)).toBe(1);
    expect((await reports()).at(-1)!.text).toContain("👆 Clicks: <b>1</b> · unique 1 (none the period before)");
  });

  test("at the user's hour, yesterday's clicks, top links, channel joins and matches go out once; the next day again", async () => {
    // 25 November 2026, 15:00 in Moscow: switching the report on does not report the day that already began
    t.clock.set("2026-11-25T12:00:00Z");
    const { user, token } = await t.telegramUser(4242, "ann");
    await t.request("PATCH", "/api/settings", { token, body: { time_zone: "Europe/Moscow", report_every: "day", report_hour: 9 } });
    const a = (await t.request("POST", "/api/links", { token, body: { url: "https://shop.example/a", title: "Spring sale" } })).json;
    const b = (await t.request("POST", "/api/links", { token, body: { url: "https://shop.example/b" } })).json;
    const visit = async (code: string, ip: string) =>
      expect(
        (
          await t.request("GET", `/${code}`, {
            headers: { "x-forwarded-for": ip, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0" },
          })
        ).status,
      ).toBe(302);
    await visit(a.code, "203.0.113.1");
    expect(await sendDueReports(t.deps)).toBe(0);

    // Thursday 26 November in Moscow: the report of the 25th (one click) at 09:00, then three clicks on a, one on b
    t.clock.set("2026-11-26T10:00:00Z");
    await t.deps.clicks.flush();
    expect(await sendDueReports(t.deps)).toBe(1);
    expect((await reports())[0]!.text).toContain("👆 Clicks: <b>1</b> · unique 1 (none the period before)");
    for (const ip of ["203.0.113.1", "203.0.113.2", "203.0.113.2"]) await visit(a.code, ip);
    await visit(b.code, "203.0.113.3");
    await t.deps.clicks.flush();
    const db = t.deps.asyncDb;
    const [tracker] = await db
      .insert(db.tables.trackers)
      .values({ userId: user.id, name: "rust", keyword: "rust", createdAt: t.clock.now() })
      .returning();
    const match = (id: number, at: string) => ({
      trackerId: tracker!.id,
      sourceChatId: "-100500",
      sourceMessageId: id,
      detectedAt: new Date(at),
    });
    // two matches on the 26th in Moscow, one just after its midnight (the 27th there)
    await db
      .insert(db.tables.trackerMatches)
      .values([match(1, "2026-11-26T08:00:00Z"), match(2, "2026-11-26T20:59:00Z"), match(3, "2026-11-26T21:00:00Z")]);
    await db.insert(db.tables.channels).values({ userId: user.id, chatId: "-100777", type: "channel", title: "Shop news" });
    const join = (memberId: number, joinedAt: string | null, leftAt: string | null) => ({
      chatId: "-100777",
      memberId,
      via: "invite" as const,
      joinedAt: joinedAt ? new Date(joinedAt) : null,
      leftAt: leftAt ? new Date(leftAt) : null,
    });
    await db
      .insert(db.tables.channelJoins)
      .values([
        join(1, "2026-11-26T09:00:00Z", null),
        join(2, "2026-11-26T09:30:00Z", "2026-11-26T18:00:00Z"),
        join(3, "2026-11-26T11:00:00Z", null),
        join(4, null, "2026-11-26T12:00:00Z"),
        join(5, "2026-11-25T09:00:00Z", null),
      ]);
    // 27 November 08:59 Moscow: not yet; 09:00: the report of the 26th
    t.clock.set("2026-11-27T05:59:00Z");
    expect(await sendDueReports(t.deps)).toBe(0);
    t.clock.set("2026-11-27T06:00:30Z");
    expect(await sendDueReports(t.deps)).toBe(1);
    expect(await sendDueReports(t.deps)).toBe(0); // once per period
    const report = (await reports())[1];
    expect(report!.text).toBe(
      [
        "📬 <b>Daily report</b> · Thu 26 Nov · Moscow (UTC+3)",
        "",
        "👆 Clicks: <b>4</b> · unique 2 (+300 % against the period before)", // 203.0.113.1 came back within a day
        "🔝 1. Spring sale — 3 · 2. " + b.code + " — 1",
        "📣 Channels: +3 joined · −2 left · net +1",
        "🔎 Keyword matches: 2",
      ].join("\n"),
    );

    // a day without clicks still reports, against the day before
    t.clock.set("2026-11-28T06:05:00Z");
    expect(await sendDueReports(t.deps)).toBe(1);
    expect((await reports())[2]!.text).toContain("👆 Clicks: <b>0</b> · unique 0 (−100 % against the period before)");
    // switched off: nothing more
    const later = (await t.telegramUser(4242, "ann")).token; // signed in again: the first token has expired by now
    expect((await t.request("PATCH", "/api/settings", { token: later, body: { report_every: "off" } })).status).toBe(200);
    t.clock.set("2026-11-29T06:05:00Z");
    expect(await sendDueReports(t.deps)).toBe(0);
  });

  test("an account without a Telegram chat gets no report", async () => {
    t.clock.set("2026-11-25T12:00:00Z");
    const { token } = await t.emailUser("mail@example.com");
    await t.request("PATCH", "/api/settings", { token, body: { report_every: "day", report_hour: 9 } });
    t.clock.set("2026-11-26T09:01:00Z");
    expect(await sendDueReports(t.deps)).toBe(0);
  });
});
