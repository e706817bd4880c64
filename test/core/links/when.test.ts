/**
 * Moments typed by a person (core/links/when.ts): durations, day words and weekdays in English and
 * Russian, ISO and day-first dates, times, and the user's time zone.
 */
import { expect, test } from "bun:test";
import { parseWhen } from "../../../core/links/when";
import { whenExamples, zoneName } from "../../../core/i18n/wall";
import { readTimeZone } from "../../../core/reports/settings";

// Wednesday 25 November 2026, 14:20 UTC (17:20 in Moscow, UTC+3)
const now = new Date("2026-11-25T14:20:00Z");
const at = (text: string, zone?: string) => parseWhen(text, now, zone)?.toISOString() ?? null;

test("durations from now, in either language, one or several", () => {
  expect(at("2h")).toBe("2026-11-25T16:20:00.000Z");
  expect(at("3d")).toBe("2026-11-28T14:20:00.000Z");
  expect(at("1w")).toBe("2026-12-02T14:20:00.000Z");
  expect(at("30 minutes")).toBe("2026-11-25T14:50:00.000Z");
  expect(at("in 2 hours")).toBe("2026-11-25T16:20:00.000Z");
  expect(at("3 дня")).toBe("2026-11-28T14:20:00.000Z");
  expect(at("через 2 часа")).toBe("2026-11-25T16:20:00.000Z");
  expect(at("1д 12ч")).toBe("2026-11-27T02:20:00.000Z");
  expect(at("2 недели")).toBe("2026-12-09T14:20:00.000Z");
});

test("day words and weekdays mean that day's midnight, or the time given", () => {
  expect(at("today")).toBe("2026-11-25T00:00:00.000Z");
  expect(at("Tomorrow")).toBe("2026-11-26T00:00:00.000Z");
  expect(at("завтра")).toBe("2026-11-26T00:00:00.000Z");
  expect(at("послезавтра")).toBe("2026-11-27T00:00:00.000Z");
  expect(at("tomorrow 18:30")).toBe("2026-11-26T18:30:00.000Z");
  expect(at("завтра в 9:00")).toBe("2026-11-26T09:00:00.000Z");
  // the next such weekday after today (today is a Wednesday)
  expect(at("friday")).toBe("2026-11-27T00:00:00.000Z");
  expect(at("в пятницу")).toBe("2026-11-27T00:00:00.000Z");
  expect(at("пт 18:00")).toBe("2026-11-27T18:00:00.000Z");
  expect(at("wednesday")).toBe("2026-12-02T00:00:00.000Z");
  expect(at("next mon")).toBe("2026-11-30T00:00:00.000Z");
});

test("dates: ISO, day first with or without a year (the next such day), with a time; ISO timestamps keep their offset", () => {
  expect(at("2026-12-31")).toBe("2026-12-31T00:00:00.000Z");
  expect(at("2026-12-31 18:30")).toBe("2026-12-31T18:30:00.000Z");
  expect(at("31.12.2026")).toBe("2026-12-31T00:00:00.000Z");
  expect(at("01.12")).toBe("2026-12-01T00:00:00.000Z");
  expect(at("01.03")).toBe("2027-03-01T00:00:00.000Z"); // 1 March has passed this year
  expect(at("01.12 18:00")).toBe("2026-12-01T18:00:00.000Z");
  expect(at("2026-12-01T10:00:00+03:00")).toBe("2026-12-01T07:00:00.000Z");
  expect(at("18:30")).toBe("2026-11-25T18:30:00.000Z");
  expect(at("09:00")).toBe("2026-11-26T09:00:00.000Z"); // passed today: tomorrow
});

test("with nearest (an ad's day), a day without a year is the closest such day, past or coming", () => {
  const near = (text: string, zone?: string) => parseWhen(text, now, zone, { nearest: true })?.toISOString() ?? null;
  // ran two days ago: this year's, not next year's
  expect(near("23.11")).toBe("2026-11-23T00:00:00.000Z");
  expect(near("23.11", "Europe/Moscow")).toBe("2026-11-22T21:00:00.000Z");
  expect(near("01.12")).toBe("2026-12-01T00:00:00.000Z");
  // early next year is closer than early this year; late last year than late this year from January
  expect(near("10.01")).toBe("2027-01-10T00:00:00.000Z");
  expect(parseWhen("20.12", new Date("2027-01-05T10:00:00Z"), "UTC", { nearest: true })?.toISOString()).toBe("2026-12-20T00:00:00.000Z");
  // 29 February: only where a year around today has one
  expect(near("29.02")).toBeNull();
  expect(parseWhen("29.02", new Date("2027-11-25T10:00:00Z"), "UTC", { nearest: true })?.toISOString()).toBe("2028-02-29T00:00:00.000Z");
  expect(near("31.02")).toBeNull();
  // a year written is kept; without nearest, the next such day as before
  expect(near("23.11.2025")).toBe("2025-11-23T00:00:00.000Z");
  expect(at("23.11")).toBe("2027-11-23T00:00:00.000Z");
});

test("in the user's time zone, days and times are that zone's wall clock", () => {
  expect(at("tomorrow 18:30", "Europe/Moscow")).toBe("2026-11-26T15:30:00.000Z");
  expect(at("2026-12-31", "Europe/Moscow")).toBe("2026-12-30T21:00:00.000Z");
  expect(at("18:00", "Europe/Moscow")).toBe("2026-11-25T15:00:00.000Z"); // 17:20 there now: still today
  expect(at("17:00", "Europe/Moscow")).toBe("2026-11-26T14:00:00.000Z"); // passed there: tomorrow
  expect(at("today", "Asia/Kolkata")).toBe("2026-11-24T18:30:00.000Z");
  expect(at("2h", "Asia/Kolkata")).toBe("2026-11-25T16:20:00.000Z");
});

test("what is not a moment is null", () => {
  for (const s of ["", "soon", "31.02.2026", "2026-02-30", "25:00", "tomorrow 24:10", "3 parsecs", "12", "friday the 13th"])
    expect([s, at(s)]).toEqual([s, null]);
});

test("the examples are read back and lie in the future, in either language and the user's zone", () => {
  const examples = (language: "en" | "ru", zone: string) => {
    const said = whenExamples({ language, zone }, now);
    const [list, note] = said.split("; ");
    return { list: list!.split(", "), note };
  };
  const en = examples("en", "UTC");
  expect(en.list).toEqual(["2h", "3 days", "in 2 weeks", "tomorrow 18:00", "friday", "2026-12-02", "2026-12-02 18:30"]);
  expect(en.note).toBe("the time is UTC");
  const ru = examples("ru", "Europe/Moscow");
  expect(ru.list).toEqual(["2ч", "3 дня", "через неделю", "завтра 18:00", "в пятницу", "02.12.2026", "02.12.2026 18:30"]);
  expect(ru.note).toBe("время — Москва (UTC+3)");
  for (const { list, zone } of [
    { ...en, zone: "UTC" },
    { ...ru, zone: "Europe/Moscow" },
  ])
    for (const e of list) expect([e, parseWhen(e, now, zone)!.getTime() > now.getTime()]).toEqual([e, true]);
});

test("relative times with a unit alone, months, and days named with до/until", () => {
  expect(at("через неделю")).toBe("2026-12-02T14:20:00.000Z");
  expect(at("in a week")).toBe("2026-12-02T14:20:00.000Z");
  expect(at("in 2 weeks")).toBe("2026-12-09T14:20:00.000Z");
  expect(at("через 2 недели")).toBe("2026-12-09T14:20:00.000Z");
  expect(at("через час")).toBe("2026-11-25T15:20:00.000Z");
  expect(at("in an hour")).toBe("2026-11-25T15:20:00.000Z");
  expect(at("через полчаса")).toBe("2026-11-25T14:50:00.000Z");
  expect(at("через месяц")).toBe("2026-12-25T14:20:00.000Z");
  expect(at("через минуту")).toBe("2026-11-25T14:21:00.000Z");
  expect(at("до пятницы", "Europe/Moscow")).toBe("2026-11-26T21:00:00.000Z");
  expect(at("until friday")).toBe("2026-11-27T00:00:00.000Z");
});

test("a bare day as an expiry is the end of that day, in the user's zone; with a time, that time", () => {
  const end = (text: string, zone = "UTC") => parseWhen(text, now, zone, { dayEnd: true })?.toISOString() ?? null;
  // typed at 17:20 in Moscow: "tomorrow" lasts until the last second of Thursday there
  expect(end("завтра", "Europe/Moscow")).toBe("2026-11-26T20:59:59.000Z");
  expect(end("tomorrow")).toBe("2026-11-26T23:59:59.000Z");
  expect(end("today", "Europe/Moscow")).toBe("2026-11-25T20:59:59.000Z");
  expect(end("31.12", "Europe/Moscow")).toBe("2026-12-31T20:59:59.000Z");
  expect(end("завтра 18:00", "Europe/Moscow")).toBe("2026-11-26T15:00:00.000Z");
  expect(end("2h")).toBe("2026-11-25T16:20:00.000Z");
});

test("zones are named as people say them, and typed as cities in Russian or English", () => {
  expect(zoneName("Europe/Moscow", "ru", now)).toBe("Москва (UTC+3)");
  expect(zoneName("Europe/Moscow", "en", now)).toBe("Moscow (UTC+3)");
  expect(zoneName("Europe/Berlin", "ru", now)).toBe("Берлин (UTC+1)");
  expect(zoneName("America/Argentina/Buenos_Aires", "en", now)).toBe("Buenos Aires (UTC−3)");
  expect(zoneName("Asia/Kolkata", "en", now)).toBe("Delhi (UTC+5:30)");
  expect(zoneName("Etc/GMT-4", "ru", now)).toBe("UTC+4");
  expect(zoneName("UTC", "en", now)).toBe("UTC");
  for (const [typed, zone] of [
    ["Москва", "Europe/Moscow"],
    ["питер", "Europe/Moscow"],
    ["Saint Petersburg", "Europe/Moscow"],
    ["St. Petersburg", "Europe/Moscow"],
    ["Нью-Йорк", "America/New_York"],
    ["new york", "America/New_York"],
    ["Екатеринбург", "Asia/Yekaterinburg"],
    ["Kiev", "Europe/Kyiv"],
    ["Кишинёв", "Europe/Chisinau"],
    ["Almaty", "Asia/Almaty"],
    ["+3", "Etc/GMT-3"],
  ])
    expect([typed, readTimeZone(typed!)]).toEqual([typed, zone]);
});
