/**
 * Conversions on the bot's cards, as the user reads them: the link card, the invite's screen and the
 * placement's screen say "none yet" in one line while there are none (never "0 ₽"), else the count
 * with its share of the unique clicks, the value in each currency and the count of each event; in
 * English and in Russian. @both-databases: through the seam.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { upsertTelegramUser } from "../../core/accounts/users";
import { insertLink, recordClicks } from "../helpers/clicks";
import { placementsFixture } from "../helpers/placements-fixture";
import { recordConversion } from "../../core/conversions/conversions";
import { expectRussian } from "../helpers/russian";
import { newClickId } from "../../core/clicks/click-id";

let b: ReturnType<typeof unitBot>;
afterEach(() => b?.close());

const shown = () => String(b.calls.findLast((c) => /^(send|edit)Message/.test(c.method) && c.params.text)!.params.text);
const nb = (s: string) => s.replace(/\u00a0|\u202f/g, " ");

/** A link with 5 unique clicks and, when `sold`, 3 conversions reported by their click ids. */
async function linkWithSales(sold: boolean, title = "Spring sale") {
  const deps = b.t.deps;
  const user = await upsertTelegramUser(deps, { id: 42, username: "alice", firstName: "Alice" });
  const link = await insertLink(deps, user.id, { title, uniqueClicks: 5, totalClicks: 7 });
  const ids = Array.from({ length: 5 }, () => newClickId(link.id));
  await recordClicks(
    deps,
    link,
    ids.map((clickId, i) => ({ at: deps.clock.now().getTime() - 3_600_000 + i * 1000, clickId, isUnique: true })),
  );
  if (sold) {
    await recordConversion(deps, user.id, { event: "purchase", clickId: ids[0], value: 990, currency: "RUB", externalId: "o1" });
    await recordConversion(deps, user.id, { event: "purchase", clickId: ids[1], value: 1990, currency: "RUB", externalId: "o2" });
    await recordConversion(deps, user.id, { event: "lead", clickId: ids[2] });
    // the same order reported twice counts once
    await recordConversion(deps, user.id, { event: "purchase", clickId: ids[1], value: 1990, currency: "RUB", externalId: "o2" });
  }
  return { user, link };
}

describe("the link card", () => {
  test("without conversions: one clear line, no zero money", async () => {
    b = unitBot();
    const { link } = await linkWithSales(false);
    await b.send(`/start link_${link.id}`);
    const card = shown();
    expect(card).toContain("🎯 Conversions: none yet");
    expect(card).not.toMatch(/0 ₽|₽0|Worth/);
  });

  test("with conversions: the count and its rate from unique clicks, the value, the events", async () => {
    b = unitBot();
    const { link } = await linkWithSales(true);
    await b.send(`/start link_${link.id}`);
    const card = shown();
    expect(card).toContain("🎯 Conversions: 3 · 60% of 5 unique clicks");
    expect(card).toContain("💵 Worth: ₽2,980");
    expect(card).toContain("📋 Purchase 2 · Lead 1");
  });

  test("in Russian", async () => {
    b = unitBot({}, { language_code: "ru" });
    const { link } = await linkWithSales(true, "Весенняя распродажа");
    const before = b.calls.length;
    await b.send(`/start link_${link.id}`);
    const card = nb(shown());
    expect(card).toContain("🎯 Конверсии: 3 · 60 % от 5 уникальных переходов");
    expect(card).toContain("💵 Принесли: 2 980 ₽");
    expect(card).toContain("📋 Покупка 2 · Лид 1");
    expectRussian(b.calls, before);
  });
});

describe("the placement's and the invite's screens", () => {
  test("a placement: joins through its invite and the sales of those who joined, and its ROAS", async () => {
    b = unitBot();
    const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
    const f = await placementsFixture(b.t.deps, user);
    // two of the four who joined through the Big channel's invite bought (attributed by their Telegram id)
    await recordConversion(b.t.deps, user.id, { event: "purchase", tgUserId: 1000, value: 6000, currency: "RUB", externalId: "a" });
    await recordConversion(b.t.deps, user.id, { event: "purchase", tgUserId: 1001, value: 4000, currency: "RUB", externalId: "b" });
    await b.send("/ads");
    await b.press(/^\d\. Big channel$/);
    const screen = shown();
    expect(screen).toContain("🎯 Conversions: 6 · 60% of 10 unique clicks");
    expect(screen).toContain("💵 Worth: ₽10,000");
    expect(screen).toContain("📋 Join 4 · Purchase 2");
    expect(screen).toContain("📈 ROAS: 200% (the conversions' worth against the ad's price)");
    await b.send("/ads");
    await b.press(/^\d\. Cheap ads$/);
    expect(shown()).toContain("🎯 Conversions: 2 · 33% of 6 unique clicks");
    expect(shown()).not.toContain("Worth");
    void f;
  });

  test("an invite: its joins are its conversions", async () => {
    b = unitBot();
    const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
    const f = await placementsFixture(b.t.deps, user);
    await recordConversion(b.t.deps, user.id, { event: "start", tgUserId: 1004 });
    b.fake.members.set(`${f.channel.chatId}:42`, { status: "creator" });
    await b.send(`/start invite_${f.invites.cheap.id}`);
    const screen = shown();
    expect(screen).toContain("🎯 Conversions: 3");
    expect(screen).toContain("📋 Join 2 · Bot start 1");
  });
});
