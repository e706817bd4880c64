/**
 * What people type for a placement, read as the service reads it: prices in every written form,
 * venues, the default name, and the views figure of Telegram's web preview.
 */
import { expect, test } from "bun:test";
import { parsePrice } from "../../../core/placements/price";
import { defaultName, parsePostUrl, parseVenue } from "../../../core/placements/venue";
import { readViewsFigure } from "../../../core/placements/views";

test("prices: a sign, a code or a word before or after the amount; a number alone in the default currency; anything else refused", () => {
  const cases: [string, string, number, string][] = [
    ["5000", "RUB", 5000, "RUB"],
    ["5000", "USD", 5000, "USD"],
    ["5 000 ₽", "USD", 5000, "RUB"],
    ["5\u00a0000₽", "USD", 5000, "RUB"],
    ["5000 руб", "USD", 5000, "RUB"],
    ["5000 руб.", "USD", 5000, "RUB"],
    ["5000 р.", "USD", 5000, "RUB"],
    ["5000 RUB", "USD", 5000, "RUB"],
    ["5000 rub", "USD", 5000, "RUB"],
    ["$50", "RUB", 50, "USD"],
    ["$ 50", "RUB", 50, "USD"],
    ["50 usd", "RUB", 50, "USD"],
    ["50 $", "RUB", 50, "USD"],
    ["€20,50", "RUB", 20.5, "EUR"],
    ["1 500,50 €", "RUB", 1500.5, "EUR"],
    ["5,000", "RUB", 5000, "RUB"],
    ["5,000.25 USD", "RUB", 5000.25, "USD"],
    ["10 тенге", "RUB", 10, "KZT"],
    ["0", "RUB", 0, "RUB"],
  ];
  for (const [text, fallback, amount, currency] of cases)
    expect({ text, price: parsePrice(text, fallback) }).toEqual({ text, price: { amount, currency } });
  for (const bad of ["", "five", "5000 xyz", "$50 usd", "-50", "RUB", "50 долларов США"])
    expect(() => parsePrice(bad, "RUB")).toThrow(expect.objectContaining({ status: 400, code: "invalid_price" }));
});

test("venues: @username, t.me links (a post link also gives the post), or free text; the default name is `<venue> <dd.mm>` in the zone", () => {
  expect(parseVenue("@bigchannel")).toEqual({ venue: { kind: "telegram", username: "bigchannel" }, postUrl: null });
  expect(parseVenue("  @bigchannel 25.11 ")).toEqual({ venue: { kind: "telegram", username: "bigchannel" }, postUrl: null });
  expect(parseVenue("https://t.me/bigchannel")).toEqual({ venue: { kind: "telegram", username: "bigchannel" }, postUrl: null });
  expect(parseVenue("t.me/s/bigchannel/42")).toEqual({
    venue: { kind: "telegram", username: "bigchannel" },
    postUrl: "https://t.me/bigchannel/42",
  });
  expect(parseVenue("t.me/+AbCdEf").venue).toEqual({ kind: "other", title: "t.me/+AbCdEf" });
  expect(parseVenue("Newsletter «Monday»").venue).toEqual({ kind: "other", title: "Newsletter «Monday»" });
  expect(() => parseVenue("  ")).toThrow(expect.objectContaining({ status: 400 }));
  const when = new Date("2026-11-30T22:30:00Z");
  expect(defaultName({ kind: "telegram", username: "bigchannel" }, when)).toBe("@bigchannel 30.11");
  expect(defaultName({ kind: "telegram", username: "bigchannel" }, when, "Europe/Moscow")).toBe("@bigchannel 01.12");
  expect(defaultName({ kind: "other", title: "Newsletter" }, when)).toBe("Newsletter 30.11");
  expect(parsePostUrl("telegram.me/BigChannel/15/")).toEqual({ url: "https://t.me/BigChannel/15", channel: "BigChannel", messageId: 15 });
  expect(() => parsePostUrl("https://t.me/bigchannel")).toThrow(expect.objectContaining({ status: 400 }));
});

test("the web preview's views figure: plain, grouped, K and M", () => {
  expect(readViewsFigure("987")).toBe(987);
  expect(readViewsFigure("15 012")).toBe(15_012);
  expect(readViewsFigure("1.2K")).toBe(1200);
  expect(readViewsFigure("1,2K")).toBe(1200);
  expect(readViewsFigure("3.4M")).toBe(3_400_000);
  expect(readViewsFigure("many")).toBeNull();
});
