import { expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app";
import { useFixture, type Fixture } from "../../helpers/analytics-fixture";
import { insertLink, recordClicks } from "../../helpers/clicks";
import { summaryCard } from "../../../core/analytics/summary";

let t: TestApp;
let f: Fixture;
useFixture((app, fixture) => ((t = app), (f = fixture)));

test("a link's card: tiles, daily timeline in the zone, breakdowns", () => {
  const { card, filename } = summaryCard(t.deps, f.alice.user.id, { linkId: f.link.id, period: "7d", tz: "Asia/Kolkata" });
  expect(card.tiles).toEqual([["Clicks", "8"], ["Unique", "5"], ["Bots", "2"], ["Per day", "1.14"]]);
  expect(card.timeline.labels).toHaveLength(8);
  expect(card.timeline.clicks).toEqual([1, 0, 0, 0, 0, 0, 4, 3]);
  expect(card.breakdowns.map((b) => b.title)).toEqual(["Top countries", "Devices", "Browsers", "Bots"]);
  expect(card.breakdowns[0]!.items[0]).toEqual({ name: "DE", count: 3 });
  expect(filename).toBe("stats-fixture1-2026-03-30.png");
});

test("all links: links with the same title stay apart in Top links; short ranges are hourly", () => {
  const twin = insertLink(t.deps, f.alice.user.id, { code: "twin1", title: "Link twin" });
  const twin2 = insertLink(t.deps, f.alice.user.id, { code: "twin2", title: "Link twin" });
  recordClicks(t.deps, twin, [{ at: "2026-03-30T10:00:00Z", isBot: false, isUnique: true }]);
  recordClicks(t.deps, twin2, [{ at: "2026-03-30T10:00:00Z", isBot: false, isUnique: true }, { at: "2026-03-30T10:05:00Z", isBot: false, isUnique: false }]);
  const { card, caption } = summaryCard(t.deps, f.alice.user.id, { period: "1d" });
  expect(card.breakdowns[0]).toEqual({ title: "Top links", items: [{ name: f.link.title!, count: 3 }, { name: "Link twin", count: 2 }, { name: "Link twin", count: 1 }] });
  expect(card.timeline.labels[0]).toBe("2026-03-29T12:00");
  expect(card.timeline.labels).toHaveLength(25);
  expect(caption).toStartWith("📊 All links — last 24 hours\nClicks: 6 ·");
  expect(card.subtitle).toBe("3 links · last 24 hours");
});
