/**
 * A link with known clicks around the Europe/Berlin DST change of 2026-03-29 (01:00 UTC), "now" being
 * 2026-03-30T12:00Z (a Monday). Numbers asserted by the analytics tests are derived from this list.
 */
import { afterEach, beforeEach } from "bun:test";
import { createTestApp, type TestApp } from "./app";
import { insertLink, recordClicks, type ClickInput } from "./clicks";

const NOW = "2026-03-30T12:00:00Z";

const human = (
  at: string,
  country: string | null,
  device: string,
  browser: string,
  os: string,
  isUnique: boolean,
  extra: Partial<ClickInput> = {},
): ClickInput => ({
  at,
  country,
  city: country ? `${country} City` : null,
  device,
  browser,
  os,
  isUnique,
  isBot: false,
  ip: "203.0.113.7",
  referer: "https://t.me/",
  ...extra,
});
const bot = (at: string, name: string, country: string | null): ClickInput => ({
  at,
  country,
  device: "bot",
  browser: null,
  os: null,
  isBot: true,
  botName: name,
  isUnique: false,
  ip: "198.51.100.1",
});

const FIXTURE_CLICKS: ClickInput[] = [
  human("2026-03-20T10:00:00Z", "US", "desktop", "Chrome", "Windows", true), // outside 7d
  human("2026-03-23T11:59:59Z", "GB", "mobile", "Chrome", "Android", false), // 1 s before the 7d window
  human("2026-03-23T12:00:01Z", "GB", "mobile", "Chrome", "Android", true), // 1 s inside the 7d window
  human("2026-03-28T22:40:00Z", "DE", "mobile", "Safari", "iOS", true), // Berlin Sat 23:40 CET, Kolkata Sun 04:10
  human("2026-03-29T00:50:00Z", "DE", "mobile", "Safari", "iOS", false), // Berlin Sun 01:50 CET, Kolkata 06:20
  human("2026-03-29T01:10:00Z", "US", "desktop", "Chrome", "Windows", true), // Berlin Sun 03:10 CEST, Kolkata 06:40
  bot("2026-03-29T01:20:00Z", "TelegramBot", null), // Berlin 03:20 CEST, Kolkata 06:50
  human("2026-03-29T18:35:00Z", "FR", "tablet", "Chrome", "Android", true), // Berlin Sun 20:35, Kolkata Mon 00:05
  bot("2026-03-30T09:00:00Z", "Googlebot", "US"), // Berlin Mon 11:00, Kolkata 14:30
  human("2026-03-30T11:59:30Z", "DE", "desktop", "Firefox", "Linux", true, { referer: null }), // Berlin 13:59, Kolkata 17:29
];

/** Alice (Telegram 42) with a link created 2026-02-01 holding FIXTURE_CLICKS; Bob with his own link. */
export async function seedFixture(t: TestApp) {
  t.clock.set(NOW);
  const alice = await t.telegramUser(42, "alice");
  const bob = await t.telegramUser(43, "bob");
  const link = await insertLink(t.deps, alice.user.id, { code: "fixture1", createdAt: new Date("2026-02-01T00:00:00Z") });
  const bobLink = await insertLink(t.deps, bob.user.id, { code: "boblink1" });
  // two batches, like two recorder transactions
  await recordClicks(t.deps, link, FIXTURE_CLICKS.slice(0, 5));
  await recordClicks(t.deps, link, FIXTURE_CLICKS.slice(5));
  return { alice, bob, link, bobLink };
}

export type Fixture = Awaited<ReturnType<typeof seedFixture>>;

/** Registers beforeEach/afterEach that build a fresh app with the fixture, handing both to `use`. */
export function useFixture(use: (t: TestApp, f: Fixture) => void) {
  let app: TestApp;
  beforeEach(async () => {
    app = createTestApp();
    use(app, await seedFixture(app));
  });
  afterEach(() => app.close());
}
