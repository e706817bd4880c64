import { expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app";
import { useFixture, type Fixture } from "../../helpers/analytics-fixture";
import { insertLink, recordClicks } from "../../helpers/clicks";
import { summaryCard, summaryRange } from "../../../core/analytics/summary";
import { timelineConfig } from "../../../core/analytics/charts";
import { updateSettings } from "../../../core/reports/settings";
import { date } from "../../../bot/i18n";
import { createInvite, createWorkspace, joinWorkspace } from "../../../core/workspaces";
import { timeZoneOf } from "../../../core/i18n/zone";

let t: TestApp;
let f: Fixture;
useFixture((app, fixture) => ((t = app), (f = fixture)));

test("a link's card: tiles, daily timeline in the zone, breakdowns", async () => {
  const { card, filename } = await summaryCard(t.deps, f.alice.user.id, { linkId: f.link.id, period: "7d", tz: "Asia/Kolkata" });
  expect(card.tiles).toEqual([
    ["Clicks", "8"],
    ["Unique", "5"],
    ["Bots", "2"],
    ["Per day", "1.14"],
  ]);
  expect(card.timeline.labels).toHaveLength(8);
  expect(card.timeline.clicks).toEqual([1, 0, 0, 0, 0, 0, 4, 3]);
  expect(card.breakdowns.map((b) => b.title)).toEqual(["Top countries", "Devices", "Browsers", "Sources", "Bots"]);
  expect(card.breakdowns[3]!.items).toEqual([
    { name: "t.me", count: 5 },
    { name: "Direct", count: 3 },
  ]);
  expect(card.breakdowns[0]!.items[0]).toEqual({ name: "DE", count: 3 });
  expect(filename).toBe("stats-fixture1-2026-03-30.png");
  // the picture's timeline: a bar per day, clicks and uniques side by side, the totals in its title
  const chart = timelineConfig(card);
  expect(chart.type).toBe("bar");
  expect(chart.data.datasets.map((d) => [d.label, d.data])).toEqual([
    ["Clicks", [1, 0, 0, 0, 0, 0, 4, 3]],
    ["Unique", card.timeline.unique],
  ]);
  expect(chart.options!.plugins!.title!.text).toBe(`Clicks per day: 8 in all, ${card.timeline.unique.reduce((a, b) => a + b, 0)} unique`);
});

test("all links: links with the same title stay apart in Top links; short ranges are hourly", async () => {
  const twin = await insertLink(t.deps, f.alice.user.id, { code: "twin1", title: "Link twin" });
  const twin2 = await insertLink(t.deps, f.alice.user.id, { code: "twin2", title: "Link twin" });
  await recordClicks(t.deps, twin, [{ at: "2026-03-30T10:00:00Z", isBot: false, isUnique: true }]);
  await recordClicks(t.deps, twin2, [
    { at: "2026-03-30T10:00:00Z", isBot: false, isUnique: true },
    { at: "2026-03-30T10:05:00Z", isBot: false, isUnique: false },
  ]);
  const { card, caption } = await summaryCard(t.deps, f.alice.user.id, { period: "1d" });
  expect(card.breakdowns[0]).toEqual({
    title: "Top links",
    items: [
      { name: f.link.title!, count: 3 },
      { name: "Link twin", count: 2 },
      { name: "Link twin", count: 1 },
    ],
  });
  expect(card.timeline.labels[0]).toBe("2026-03-29T12:00");
  expect(card.timeline.labels).toHaveLength(25);
  expect(timelineConfig(card).options!.plugins!.title!.text).toStartWith("Clicks per hour: ");
  expect(caption).toStartWith("📊 All links — last 24 hours\nClicks: 6 ·");
  expect(card.subtitle).toBe("3 links · last 24 hours");
});

const fieldOf = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (e) {
    return [(e as { details?: { field: string; message: string }[] }).details?.[0]?.field, (e as { status?: number }).status];
  }
  return null;
};

test("dateFrom/dateTo: impossible dates, over-long ranges and ranges in the future are refused", async () => {
  const range = (dateFrom?: string, dateTo?: string) => () => summaryRange(t.deps, [f.link], { dateFrom, dateTo });
  expect(await fieldOf(range("2026-02-30"))).toEqual(["dateFrom", 400]);
  expect(await fieldOf(range("2026-03-01", "2026-03-01T25:00:00Z"))).toEqual(["dateTo", 400]);
  expect(await fieldOf(range("2026-03-01T10:00:00+0x:00"))).toEqual(["dateFrom", 400]);
  // a range of thousands of years would build millions of timeline buckets
  expect(await fieldOf(range("1970-01-01", "9999-12-31"))).toEqual(["dateTo", 400]);
  expect(await fieldOf(range("2016-03-01", "2026-03-30"))).toEqual(["dateTo", 400]);
  expect(await fieldOf(range("2016-04-01", "2026-03-30"))).toBeNull(); // up to 10 years
  // now is 2026-03-30T12:00Z: a range that starts later holds no clicks
  expect(await fieldOf(range("2026-04-01", "2026-04-05"))).toEqual(["dateFrom", 400]);
  expect(await fieldOf(range("2026-03-30"))).toBeNull();
});

test("dateFrom/dateTo without an offset are UTC, whatever the server's zone", async () => {
  const saved = process.env.TZ;
  process.env.TZ = "America/New_York";
  try {
    const { range } = await summaryRange(t.deps, [f.link], { dateFrom: "2026-03-28T00:00", dateTo: "2026-03-29T06:30:15" });
    expect(range).toEqual({ from: Date.parse("2026-03-28T00:00:00Z"), to: Date.parse("2026-03-29T06:30:15Z") });
    const withOffset = await summaryRange(t.deps, [f.link], { dateFrom: "2026-03-28T02:00:00+02:00", dateTo: "2026-03-29" });
    expect(withOffset.range).toEqual({ from: Date.parse("2026-03-28T00:00:00Z"), to: Date.parse("2026-03-30T00:00:00Z") });
  } finally {
    process.env.TZ = saved;
  }
});

test("without tz the card follows the time zone set in Settings; the bot's dates do too", async () => {
  await updateSettings(t.deps, f.alice.user.id, { time_zone: "Asia/Kolkata" });
  const { card } = await summaryCard(t.deps, f.alice.user.id, { linkId: f.link.id, period: "7d" });
  const asked = await summaryCard(t.deps, f.alice.user.id, { linkId: f.link.id, period: "7d", tz: "Asia/Kolkata" });
  expect(card.timeline).toEqual(asked.card.timeline);
  expect((await summaryCard(t.deps, f.alice.user.id, { linkId: f.link.id, period: "7d", tz: "UTC" })).card.timeline.clicks).not.toEqual(
    card.timeline.clicks,
  );
  // 2026-03-30 20:00 UTC is already the 31st in Kolkata
  const at = "2026-03-30T20:00:00Z";
  expect(date({ timeZone: "Asia/Kolkata" } as never, at, true)).toBe(
    new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" }).format(new Date(at)),
  );
  expect(date({ timeZone: "Asia/Kolkata" } as never, at)).toBe("Mar 31, 2026");
  expect(date({} as never, at)).toBe("Mar 30, 2026");
});

test("whose zone: a team member's card is in the member's own zone; a team's own day is its zone, else its first owner's", async () => {
  const team = (await createWorkspace(t.deps, f.alice.user.id, "Agency")).id;
  await joinWorkspace(t.deps, f.bob.user.id, (await createInvite(t.deps, f.alice.user.id, team, "viewer")).token);
  await updateSettings(t.deps, f.alice.user.id, { time_zone: "Asia/Kolkata" });
  await updateSettings(t.deps, f.bob.user.id, { time_zone: "America/New_York" });
  // a team that chose no zone lives in its first owner's; once it chooses one, in its own
  expect(await timeZoneOf(t.deps, team)).toBe("Asia/Kolkata");
  await updateSettings(t.deps, team, { time_zone: "Europe/Berlin" });
  expect(await timeZoneOf(t.deps, team)).toBe("Europe/Berlin");
  // a person without one: UTC
  const carol = await t.telegramUser(44, "carol");
  expect(await timeZoneOf(t.deps, carol.user.id)).toBe("UTC");

  // Bob reads the team's card in his own chat: New York's days, whatever the team's or Alice's zone
  await insertLink(t.deps, team, { code: "teamlnk1", createdAt: new Date("2026-02-01T00:00:00Z") });
  const forBob = await summaryCard(t.deps, { workspace: team, person: f.bob.user.id }, { period: "7d" });
  const inNewYork = await summaryCard(t.deps, { workspace: team, person: f.bob.user.id }, { period: "7d", tz: "America/New_York" });
  const inBerlin = await summaryCard(t.deps, { workspace: team, person: f.bob.user.id }, { period: "7d", tz: "Europe/Berlin" });
  expect(forBob.card.timeline.labels).toEqual(inNewYork.card.timeline.labels);
  expect(forBob.card.subtitle).toEndWith(" · America/New_York");
  expect(inBerlin.card.subtitle).toEndWith(" · Europe/Berlin");
});

test("A/B variants' shares are to a tenth and add up to 100, as every share is (1 and 7 clicks: 12.5 and 87.5)", async () => {
  const { createTestApp } = await import("../../helpers/app");
  const fixtures = await import("../../helpers/webhook-fixtures");
  const { linkStatsFigures } = await import("../../../core/analytics/summary");
  const app = createTestApp();
  try {
    const { user } = await app.telegramUser(1, "ann");
    const variants = JSON.stringify([
      { url: "https://a.example/", weight: 50 },
      { url: "https://b.example/", weight: 50 },
    ]);
    const link = await fixtures.insertLink(app.deps, user.id, { variants });
    await fixtures.recordClicks(app.deps, link, [{ variant: 0 }, ...Array.from({ length: 7 }, () => ({ variant: 1 }))]);
    const f = await linkStatsFigures(app.deps, user.id, link.id, "7d");
    expect(f.variants.map((v) => [v.clicks, v.percentage])).toEqual([
      [1, 12.5],
      [7, 87.5],
    ]);
  } finally {
    app.close();
  }
});
