import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { unitBot } from "./unit";
import { plainOf } from "../helpers/fake-bot-api";
import { listLinks } from "../../core/links/list";
import { getLink } from "../../core/links/links";
import { findUserByIdentity } from "../../core/accounts/users";

let b: ReturnType<typeof unitBot>;
beforeEach(() => (b = unitBot()));
afterEach(() => b.close());

const userId = async () => (await findUserByIdentity(b.t.deps, "telegram", "42"))!.id;
const details = async () => getLink(b.t.deps, await userId(), (await listLinks(b.t.deps, await userId()))[0]!.id);

/** Taps an option of the card and answers its question; returns the bot's answer. */
async function option(label: string, answer: string) {
  await b.press(label);
  await b.send(answer);
  return b.calls.findLast((c) => c.method === "sendMessage")!.params.text as string;
}

describe("redirect rules and the A/B split from the link card (unit)", () => {
  test("rules: add with every kind of condition, listed in order on the card; move and remove by number; /clear", async () => {
    await b.send("https://example.com/shop");
    let card = await option("🧭 Rules", "country=de,AT lang=DE os=ios device=Mobile q.src=mail → https://example.de/app");
    expect(card).toContain("✅ Saved: Rules.");
    expect(card).toContain(
      "🧭 Rules, the first that matches wins:\n  1. country DE, AT · language de · os iOS · device mobile · ?src=mail → https://example.de/app",
    );
    expect((await details()).rules).toEqual([
      {
        if: { country: ["DE", "AT"], language: ["de"], os: ["iOS"], device: ["mobile"], query: { src: "mail" } },
        url: "https://example.de/app",
      },
    ]);

    card = await option("🧭 Rules", "from=2026-12-01 to=2026-12-24 -> https://example.com/advent");
    expect(card).toContain("  2. from 2026-12-01 00:00 · until 2026-12-24 00:00 → https://example.com/advent");
    expect((await details()).rules[1]).toEqual({
      if: { from: "2026-12-01T00:00:00.000Z", to: "2026-12-24T00:00:00.000Z" },
      url: "https://example.com/advent",
    });

    card = await option("🧭 Rules", "move 2 1");
    expect((await details()).rules.map((r) => r.url)).toEqual(["https://example.com/advent", "https://example.de/app"]);
    expect(card.indexOf("1. from")).toBeLessThan(card.indexOf("2. country"));

    await option("🧭 Rules", "remove 1");
    expect((await details()).rules.map((r) => r.url)).toEqual(["https://example.de/app"]);
    card = await option("🧭 Rules", "/clear");
    expect(card).toContain("✅ Cleared: Rules.");
    expect(card).not.toContain("🧭 Rules, the first");
    expect((await details()).rules).toEqual([]);
  });

  test("rules: answers that cannot be a rule are refused with the reason and asked again; nothing is saved", async () => {
    await b.send("https://example.com/shop");
    await b.press("🧭 Rules");
    for (const [answer, reason] of [
      ["country=DE https://example.de", "Put the conditions, then → (or ->) and the URL"],
      ["colour=red → https://example.de", "“colour” is not a condition"],
      ["os=BeOS → https://example.de", "“BeOS” is not an os: use iOS, Android, Windows, macOS, Linux."],
      ["country=Germany → https://example.de", "Rule 1, country 1 must be a two-letter country code"],
      ["country=DE → ftp://example.de", "Rule 1, target URL must be"],
      ["remove 3", "the link has no rules"],
    ] as const) {
      await b.send(answer);
      // as the user reads it (the reason quotes what they typed, escaped in the HTML sent)
      const reply = plainOf(b.calls.findLast((c) => c.method === "sendMessage")!.params).text!;
      expect({ answer, reply }).toEqual({ answer, reply: expect.stringContaining(reason) });
      expect(reply).toContain("Try again, or /cancel.");
    }
    await b.send("/cancel");
    expect((await details()).rules).toEqual([]);
  });

  test("A/B split: the first variant puts the link's own URL in at weight 50; weights, order, removal and the end of the split", async () => {
    await b.send("https://example.com/a");
    let card = await option("🅰️ A/B split", "https://example.com/b 30");
    expect((await details()).variants).toEqual([
      { url: "https://example.com/a", weight: 50 },
      { url: "https://example.com/b", weight: 30 },
    ]);
    expect(card).toContain(
      "🅰️ A/B split of the visitors no rule caught:\n  1. https://example.com/a (weight 50, 63%)\n  2. https://example.com/b (weight 30, 38%)",
    );

    await option("🅰️ A/B split", "https://example.com/c 20");
    card = await option("🅰️ A/B split", "weight 1 60");
    expect((await details()).variants.map((v) => v.weight)).toEqual([60, 30, 20]);
    expect(card).toContain("1. https://example.com/a (weight 60, 55%)");

    await option("🅰️ A/B split", "move 3 1");
    expect((await details()).variants.map((v) => v.url)).toEqual([
      "https://example.com/c",
      "https://example.com/a",
      "https://example.com/b",
    ]);
    await option("🅰️ A/B split", "remove 1");
    expect((await details()).variants.map((v) => v.url)).toEqual(["https://example.com/a", "https://example.com/b"]);

    const refused = await option("🅰️ A/B split", "remove 1");
    expect(refused).toContain("a split needs at least 2 variants; end the split instead");
    const badWeight = await b.send("weight 2 0").then(() => b.calls.findLast((c) => c.method === "sendMessage")!.params.text as string);
    expect(badWeight).toContain("Variant 2, weight must be a whole number from 1 to 100.");
    await b.send("/clear");
    expect((await details()).variants).toEqual([]);
    expect(b.calls.findLast((c) => c.method === "sendMessage")!.params.text).toContain("✅ Cleared: A/B split.");
  });
});

describe("rules, variants and dead codes in the bot's stats (unit)", () => {
  test("the stats screen counts clicks per rule and shows the variants side by side", async () => {
    b.close();
    b = unitBot({ TRUST_PROXY: "true" });
    await b.send("https://example.com/a");
    await option("🧭 Rules", "country=DE → https://example.de");
    await option("🅰️ A/B split", "https://example.com/b 50");
    const code = (await listLinks(b.t.deps, await userId()))[0]!.code;
    // six visitors: none from Germany (the test addresses have no country), so all go to the split
    for (let i = 0; i < 6; i++) {
      const res = await b.t.request("GET", `/${code}`, {
        headers: { "user-agent": `Mozilla/5.0 (Windows NT 10.0) Chrome/124.${i}`, "x-forwarded-for": `203.0.113.${i + 1}` },
      });
      expect(res.status).toBe(302);
    }
    await b.t.deps.clicks.flush();
    const { clicks } = b.t.deps.asyncDb.tables;
    const stored = (
      await b.t.deps.asyncDb.select({ variant: clicks.variant, n: count() }).from(clicks).groupBy(clicks.variant).orderBy(clicks.variant)
    ).map((r) => ({ variant: r.variant, n: Number(r.n) }));
    expect(stored.reduce((n, r) => n + r.n, 0)).toBe(6);
    await b.press("📊 Stats");
    const text = b.calls.findLast((c) => c.method === "editMessageText")!.params.text as string;
    expect(text).toContain("By rule (first match wins):\n  1. 0 clicks");
    const countOf = (v: number) => stored.find((r) => r.variant === v)?.n ?? 0;
    const shares = ["a", "b"].map(
      (name, v) =>
        // to a tenth, as every share is (two variants over six clicks always add up to 100)
        `  ${v + 1}. https://example.com/${name}: ${countOf(v)} clicks (${Math.round((countOf(v) / 6) * 1000) / 10}%), ${countOf(v)} unique`,
    );
    expect(text).toContain(`A/B split, side by side:\n${shares.join("\n")}`);
  });

  test("dead-code visits: a disabled link's code, one tap from the link list, with a way back", async () => {
    await b.send("https://example.com/old");
    const code = (await listLinks(b.t.deps, await userId()))[0]!.code;
    await b.press("⏸ Turn off");
    expect((await b.t.request("GET", `/${code}`)).status).toBe(404);
    expect((await b.t.request("GET", `/${code}`)).status).toBe(404);
    await b.press("⬅️ My links");
    await b.press("👻 Dead-code visits");
    const text = b.calls.findLast((c) => c.method === "editMessageText")!.params.text as string;
    expect(text).toContain("👻 <b>Visits to dead codes</b> (last 30 days): 2");
    // the time in the user's locale (English here) and zone (UTC until one is set)
    expect(text).toMatch(new RegExp(`<code>${code}</code> · 2 · last \\w{3} \\d{1,2}, \\d{4}, \\d{1,2}:\\d\\d [AP]M$`, "m"));
    await b.press("⬅️ My links");
    expect(b.calls.findLast((c) => c.method === "editMessageText")!.params.text).toContain("🔗 <b>Your links</b>");
  });
});
