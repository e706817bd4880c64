/**
 * The report's line about ads: the period's best and worst placement by the joins (then the unique
 * clicks) each brought in that period, in the user's language; one placement alone is named alone;
 * without placements that brought anyone there is no line.
 */
import { afterEach, beforeEach, expect, test, setDefaultTimeout } from "bun:test";
import { eq } from "drizzle-orm";
import { sendDueReports } from "../../../core/reports/report";
import { updateSettings } from "../../../core/reports/settings";
import { setUserLanguage } from "../../../core/accounts/users";
import { deletePlacement } from "../../../core/placements/placements";
import { createTestApp, type TestApp } from "../../helpers/app";
import { placementsFixture } from "../../helpers/placements-fixture";
import { insertLink, recordClicks } from "../../helpers/clicks";
import { updatePlacement } from "../../../core/placements/placements";

type Made = Awaited<ReturnType<typeof placementsFixture>>;

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

const reports = async () =>
  (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox).where(eq(t.deps.asyncDb.tables.outbox.topic, "report"))).map(
    (r) => (r.payload as { text: string }).text,
  );

/** The fixture's joins and clicks fall on 6 January 2026 (now − 9 days); the daily report of that day goes out on the 7th at 09:00 UTC. */
async function reportOfTheDay(language: "en" | "ru", drop?: "big" | "both", change?: (made: Made, userId: number) => Promise<void>) {
  const { user } = await t.telegramUser(4242, "ann");
  const made = await placementsFixture(t.deps, user);
  await change?.(made, user.id);
  if (language === "ru") await setUserLanguage(t.deps, user.id, "ru");
  if (drop) await deletePlacement(t.deps, user.id, made.big.id);
  if (drop === "both") await deletePlacement(t.deps, user.id, made.cheap.id);
  t.clock.set("2026-01-07T08:30:00Z");
  await updateSettings(t.deps, user.id, { report_every: "day", report_hour: 9 });
  t.clock.set("2026-01-07T09:00:00Z");
  expect(await sendDueReports(t.deps)).toBe(1);
  return (await reports())[0]!.split("\n");
}

test("the day's best and worst placement, with the joins and unique clicks each brought that day", async () => {
  const lines = await reportOfTheDay("en");
  expect(lines.at(-1)).toBe("📢 Best ad: Big channel (4 joins, 10 clicks) · worst: Cheap ads (2 joins, 6 clicks)");
});

test("in Russian, with Russian plurals", async () => {
  const lines = await reportOfTheDay("ru");
  expect(lines.at(-1)).toBe("📢 Лучшая реклама: Big channel (4 вступления, 10 переходов) · худшая: Cheap ads (2 вступления, 6 переходов)");
});

test("one placement that brought anyone is named alone; none, and the report has no ads line", async () => {
  expect((await reportOfTheDay("en", "big")).at(-1)).toBe("📢 Ads: only Cheap ads brought anyone (2 joins, 6 clicks)");
  t.close();
  t = createTestApp();
  expect((await reportOfTheDay("en", "both")).join("\n")).not.toContain("📢");
});

test("best is the cheapest join within a currency, not the most joins; unpriced placements rank after by joins", async () => {
  // Big channel now costs 10 000 ₽ for 4 joins (2 500 each), Cheap ads 3 000 ₽ for 2 (1 500 each)
  const lines = await reportOfTheDay("en", undefined, async (made, userId) => {
    await updatePlacement(t.deps, userId, made.big.id, { cost: { amount: 10_000, currency: "RUB" } });
  });
  expect(lines.at(-1)).toBe("📢 Best ad: Cheap ads (2 joins, 6 clicks) · worst: Big channel (4 joins, 10 clicks)");
});

test("the unique clicks of the tracking link in front of a bound invite count for its placement", async () => {
  const lines = await reportOfTheDay("en", "big", async (made, userId) => {
    const front = await insertLink(t.deps, userId);
    const db = t.deps.asyncDb;
    await db.update(db.tables.channelInvites).set({ linkId: front.id }).where(eq(db.tables.channelInvites.id, made.invites.cheap.id));
    const at = Date.parse("2026-01-06T12:00:00Z");
    await recordClicks(
      t.deps,
      front,
      [1, 2, 3].map((i) => ({ at: at + i * 1000, isBot: false, isUnique: true })),
    );
  });
  expect(lines.at(-1)).toBe("📢 Ads: only Cheap ads brought anyone (2 joins, 9 clicks)");
});
