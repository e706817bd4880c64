/**
 * Moments typed by a person (core/links/when.ts): durations, day words and weekdays in English and
 * Russian, ISO and day-first dates, times, and the user's time zone.
 */
import { expect, test } from "bun:test";
import { parseWhen, whenExamples } from "../../../core/links/when";

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

test("the examples are read back and lie in the future", () => {
  const examples = whenExamples(now).replace(" (UTC)", "").split(", ");
  expect(examples).toEqual(["2h", "3d", "tomorrow 18:00", "friday", "2026-12-02", "2026-12-02 18:30"]);
  for (const e of examples) expect(parseWhen(e, now)!.getTime()).toBeGreaterThan(now.getTime());
});
