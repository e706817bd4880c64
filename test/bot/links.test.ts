import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { plainOf } from "../helpers/fake-bot-api";
import { listLinks } from "../../core/links/list";
import { getLink } from "../../core/links/links";
import { findUserByIdentity } from "../../core/accounts/users";
import { createPixel } from "../../core/catalog/pixels";
import { createDomain } from "../../core/catalog/domains";
import { i18n } from "../../bot/i18n";
import { LINK_OPTIONS } from "../../bot/menus/link-options";
import { eq } from "drizzle-orm";

let b: ReturnType<typeof unitBot>;
beforeEach(() => (b = unitBot({ PLAN_LIMITS: JSON.stringify({ free: { links: 12 } }) })));
afterEach(() => b.close());

const userId = async () => (await findUserByIdentity(b.t.deps, "telegram", "42"))!.id;
const link = async () => (await listLinks(b.t.deps, await userId()))[0]!;
const details = async () => getLink(b.t.deps, await userId(), (await link()).id);
const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;
/** the newest message as the user reads it (HTML entities read) */
const lastSeen = () => plainOf(b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params).text;

/** Pastes a URL; returns the card message. */
async function paste(url = "https://example.com/spring?x=1") {
  await b.send(url);
  return b.last("sendMessage");
}

/** Taps an option of the card and answers its question; returns the bot's answer. */
async function option(label: string, answer: string) {
  const asked = await b.press(label);
  expect(asked.map((c) => c.method)).toContain("answerCallbackQuery");
  await b.send(answer);
  return b.calls.findLast((c) => c.method === "sendMessage")!;
}

describe("links in the bot (unit: handleUpdate + API transformer)", () => {
  test("pasting a URL creates the link and answers with its card: every option a button, analytics, delete, back", async () => {
    const card = await paste();
    expect((await link()).original_url).toBe("https://example.com/spring?x=1");
    expect(card.params.text).toContain((await link()).trackingUrl);
    expect(card.params.text).toContain("Clicks: <b>0</b>");
    expect(card.params.parse_mode).toBe("HTML");
    const labels = b.labels(card).flat();
    // the options' labels are translation keys, drawn in the user's language (English here)
    for (const o of LINK_OPTIONS.filter((x) => x.ask)) expect(labels).toContain(i18n.t("en", o.label));
    expect(labels).toEqual(expect.arrayContaining(["⏸ Turn off", "📊 Stats", "📈 Chart", "📤 Export", "🔳 QR", "🗑 Delete", "⬅️ My links"]));
    expect(labels).not.toContain("🔔 Webhook: test, deliveries, secret"); // no webhook yet
    // Copy puts the short link on the clipboard (a tap on it would open it and count a click); Share opens the chat picker
    const top = card.params.reply_markup.inline_keyboard[0];
    expect(top).toEqual([
      { text: "📋 Copy link", copy_text: { text: (await link()).trackingUrl } },
      { text: "↗️ Share", switch_inline_query: "https://example.com/spring?x=1" },
    ]);
    expect(card.params.text).toContain(`<code>${(await link()).trackingUrl}</code>`);
  });

  test("turning off edits the card in place; delete asks first, Cancel keeps, Yes deletes and shows the list", async () => {
    const card = await paste();
    const off = await b.press("⏸ Turn off");
    const edit = off.find((c) => c.method === "editMessageText")!;
    expect(edit.params.message_id).toBe(card.result.message_id);
    expect(edit.params.text).toContain("Inactive");
    expect((await details()).is_active).toBe(false);
    expect(b.labels(edit).flat()).toContain("▶️ Turn on");
    await b.press("🗑 Delete");
    expect(lastText()).toContain("Delete <b>");
    await b.press("Cancel");
    expect(lastText()).toContain("Clicks:");
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(1);
    await b.press("🗑 Delete");
    await b.press("🗑 Yes, delete");
    expect(lastText()).toContain("🗑 Deleted.");
    expect(lastText()).toContain("No links yet");
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(0);
  });

  test("a URL with a space: the link ends at the space and the answer says so; a link inside a sentence is taken without a word", async () => {
    await b.send("https://example.com/a b", { entities: [{ type: "url", offset: 0, length: 21 }] });
    expect((await link()).original_url).toBe("https://example.com/a");
    expect(lastText()).toContain(
      "⚠️ The link ends at the space after https://example.com/a. If the space belongs to the address, send it again with %20 in its place.",
    );
    await b.send("look at https://example.com/b please", { entities: [{ type: "url", offset: 8, length: 21 }] });
    expect((await link()).original_url).toBe("https://example.com/b");
    expect(lastText()).not.toContain("The link ends at the space");
  });

  test("the same URL pasted again offers the link the user has: Open it shows its card, Make another makes a second", async () => {
    const first = await paste("https://Example.com/spring");
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(1);
    await b.send("https://EXAMPLE.com/spring"); // the host in another case: the same link
    const offer = b.calls.findLast((c) => c.method === "sendMessage")!;
    const [existing] = await listLinks(b.t.deps, await userId());
    expect(offer.params.text).toBe(`You already have a link to this URL: ${existing!.trackingUrl}, 0 clicks so far.`);
    expect(b.labels(offer).flat()).toEqual(["📂 Open it", "➕ Make another", "Cancel"]);
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(1);
    await b.press("📂 Open it");
    expect(lastText()).toContain(existing!.trackingUrl);
    expect(lastText()).toContain("Clicks: <b>0</b>");
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(1);

    await b.send("/new https://example.com/spring");
    await b.press("➕ Make another");
    const links = await listLinks(b.t.deps, await userId());
    expect(links).toHaveLength(2);
    expect(lastText()).toContain(links[0]!.trackingUrl);
    expect(first.params.text).toContain(links[1]!.trackingUrl);
    // the New link dialog asks the same before making a second
    await b.send("/new");
    await b.send("https://example.com/spring");
    expect(lastText()).toStartWith("You already have a link to this URL: ");
    await b.send("new");
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(3);
  });

  test("times: the prompt's examples are computed from today; tomorrow, завтра and weekdays are read; a past time is refused with examples and the dialog goes on", async () => {
    await paste("https://example.com/when");
    b.t.clock.set("2026-11-25T14:20:00Z"); // a Wednesday
    const asked = await b.press("⌛️ Expiry");
    const prompt = b.calls.findLast((c) => c.method === "sendMessage")!.params.text as string;
    expect(asked.map((c) => c.method)).toContain("answerCallbackQuery");
    expect(prompt).toContain("Examples: 2h, 3 days, in 2 weeks, tomorrow 18:00, friday, 2026-12-02, 2026-12-02 18:30; the time is UTC.");
    await b.send("2026-06-01");
    expect(lastText()).toBe(
      "That time has passed. Examples: 2h, 3 days, in 2 weeks, tomorrow 18:00, friday, 2026-12-02, 2026-12-02 18:30; the time is UTC.\nTry again, or /cancel.",
    );
    await b.send("tomorrow 18:00");
    expect((await details()).expires_at).toBe("2026-11-26T18:00:00.000Z");
    // a bare day as an expiry lasts to its end
    await option("⌛️ Expiry", "в пятницу");
    expect((await details()).expires_at).toBe("2026-11-27T23:59:59.000Z");
    await option("⌛️ Expiry", "завтра");
    expect((await details()).expires_at).toBe("2026-11-26T23:59:59.000Z");
    await option("⌛️ Expiry", "через неделю");
    expect((await details()).expires_at).toBe("2026-12-02T14:20:00.000Z");
    // the start is a moment: a bare day is its first minute
    await option("⏳ Start", "завтра");
    expect((await details()).starts_at).toBe("2026-11-26T00:00:00.000Z");
  });

  test("times in the user's zone: typed, shown on the card and in the examples, named as people say it", async () => {
    await paste("https://example.com/moscow");
    b.t.clock.set("2026-11-25T18:00:00Z"); // 21:00 in Moscow
    await b.send("/settings");
    await b.press("📬 Reports and time zone");
    await b.press("🌍 Time zone");
    await b.send("Moscow");
    expect(lastText()).toStartWith("✅ Time zone: Moscow (UTC+3).");
    await b.send("/links");
    await b.press(/example\.com\/moscow/);
    await b.press("⌛️ Expiry");
    expect(lastText()).toContain("2026-12-02 18:30; the time is Moscow (UTC+3).");
    // 18:00 in Moscow is 15:00 UTC
    await b.send("tomorrow 18:00");
    expect((await details()).expires_at).toBe("2026-11-26T15:00:00.000Z");
    expect(lastText()).toContain("⌛️ Expires Nov 26, 2026, 6:00 PM");
    // "tomorrow", typed at 21:00, lasts until the end of tomorrow there, not three hours
    await option("⌛️ Expiry", "tomorrow");
    expect((await details()).expires_at).toBe("2026-11-26T20:59:59.000Z");
    expect(lastText()).toContain("⌛️ Expires Nov 26, 2026, 11:59 PM");
    expect(lastText()).not.toContain("UTC");
  });

  test("/clear on the target URL says it cannot be removed and keeps asking; the link keeps its URL", async () => {
    await paste("https://example.com/keep");
    await b.press("🎯 Target URL");
    expect(lastText()).not.toContain("/clear");
    await b.send("/clear");
    expect(lastText()).toBe("Target URL cannot be removed; send a new one, or /cancel.");
    await b.send("https://example.com/moved");
    expect((await details()).original_url).toBe("https://example.com/moved");
  });

  test("each option is one tap plus one answer, validated as the API validates, its effect shown in the card", async () => {
    await paste("https://example.com/options");
    const now = b.t.clock.now().getTime();
    const cases: [string, string, string, (d: Awaited<ReturnType<typeof details>>) => unknown][] = [
      ["✏️ Title", "Spring sale", "<b>Spring sale</b>", (d) => d.title === "Spring sale"],
      ["🎯 Target URL", "shop.example/new", "", () => false], // refused: core takes absolute URLs only (the bot says why)
      ["⌛️ Expiry", "7 days", "⌛️ Expires", (d) => d.expires_at === new Date(now + 7 * 86400000).toISOString()],
      ["⏳ Start", "2d", "⏳ Starts", (d) => d.starts_at === new Date(now + 2 * 86400000).toISOString()],
      [
        "↪️ After expiry",
        "https://example.com/over",
        "↪️ After expiry or the click cap: https://example.com/over",
        (d) => d.expired_url === "https://example.com/over",
      ],
      ["🔢 Click cap", "100", "🔢 Stops after 100 clicks", (d) => d.max_clicks === 100],
      [
        "🍏 iOS target",
        "https://apps.apple.com/app/1",
        "🍏 iPhone and iPad → https://apps.apple.com/app/1",
        (d) => d.ios_url === "https://apps.apple.com/app/1",
      ],
      ["🤖 Android target", "https://play.google.com/x", "🤖 Android →", (d) => d.android_url === "https://play.google.com/x"],
      ["🖥 Desktop target", "https://example.com/desk", "🖥 Desktop →", (d) => d.desktop_url === "https://example.com/desk"],
      [
        "📣 UTM",
        "telegram,, spring",
        "📣 UTM source=telegram, campaign=spring",
        (d) => d.utm_source === "telegram" && d.utm_medium === null && d.utm_campaign === "spring",
      ],
      ["🏷 Tags", "News, news , promo, NEWS", "🏷 News, promo", (d) => d.tagIds.length === 2],
    ];
    for (const [label, answer, line, check] of cases) {
      const reply = await option(label, answer);
      if (label === "🎯 Target URL") {
        expect(reply.params.text).toContain("The target URL must be an absolute URL");
        expect(reply.params.text).toContain("Try again, or /cancel.");
        await b.send("https://example.com/moved");
        expect((await details()).original_url).toBe("https://example.com/moved");
        continue;
      }
      expect({ label, text: reply.params.text }).toEqual({ label, text: expect.stringContaining("✅ Saved") });
      expect(reply.params.text).toContain(line);
      expect({ label, ok: check(await details()) }).toEqual({ label, ok: true });
    }
    // a start after the expiry is refused by the same rule as the API's
    const refused = await option("⏳ Start", "30d");
    expect(refused.params.text).toStartWith("The start ");
    await b.send("/cancel");
    expect(lastText()).toContain("Cancelled. Nothing was saved.");
    expect((await details()).starts_at).toBe(new Date(now + 2 * 86400000).toISOString());
  });

  test("the password is deleted from the chat; /clear removes an option; a bad answer is asked again", async () => {
    await paste();
    const reply = await option("🔒 Password", "hunter2");
    expect(b.calls.some((c) => c.method === "deleteMessage")).toBe(true);
    expect(reply.params.text).toContain("🔒 Visitors must enter a password");
    expect((await details()).has_password).toBe(true);
    const cleared = await option("🔒 Password", "/clear");
    expect(cleared.params.text).toContain("✅ Cleared");
    expect(cleared.params.text).not.toContain("🔒 Visitors");
    expect((await details()).has_password).toBe(false);
    const bad = await option("🔢 Click cap", "zero");
    expect(bad.params.text).toContain("Send a whole number greater than 0.");
    await b.send("0");
    expect(lastText()).toContain("The click cap must be a positive whole number.");
    await b.send("5");
    expect((await details()).max_clicks).toBe(5);
    const long = await option("✏️ Title", "T".repeat(201));
    expect(long.params.text).toContain("title");
    await b.send("/cancel");
  });

  test("pixels, domain and webhook options use the user's own catalog; the webhook screen appears on the card", async () => {
    await paste();
    await createPixel(b.t.deps, await userId(), { name: "Shop", type: "facebook", pixelId: "123456789012345" });
    const unknown = await option("📡 Pixels", "Other");
    expect(unknown.params.text).toContain("You have no pixel named “Other”. Yours: Shop.");
    await b.send("shop");
    expect(lastText()).toContain("📡 Pixels: Shop");
    const domain = await createDomain(b.t.deps, await userId(), "go.example.org");
    await option("🌐 Domain", "https://go.example.org/");
    expect(lastText()).toContain("The domain is not verified yet"); // core's rule, as the API says it
    await b.t.deps.asyncDb
      .update(b.t.deps.asyncDb.tables.domains)
      .set({ verifiedAt: new Date() })
      .where(eq(b.t.deps.asyncDb.tables.domains.id, domain.id));
    await b.send("go.example.org");
    expect(lastText()).toContain("🌐 On your domain go.example.org");
    expect((await details()).trackingUrl).toContain("go.example.org");
    // a webhook target must answer 2xx to a test request
    const rx = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
    try {
      await option("🔔 Webhook URL", `http://127.0.0.1:${rx.port}/hook GET`);
      expect(lastText()).toContain(`🔔 Webhook GET http://127.0.0.1:${rx.port}/hook (on)`);
      expect(await details()).toMatchObject({ webhook_method: "GET", webhook_enabled: true });
      const screen = await b.press("🔔 Webhook: test, deliveries, secret");
      const edit = screen.find((c) => c.method === "editMessageText")!;
      expect(edit.params.text).toContain("Click webhook of");
      expect(b.labels(edit).flat()).toEqual(
        expect.arrayContaining(["✅ Webhook: on", "🧪 Send test webhook", "👁 Show signing secret", "🔑 Rotate secret", "⬅️ Link"]),
      );
      await b.press("✅ Webhook: on");
      expect((await details()).webhook_enabled).toBe(false);
      expect(lastText()).toContain("Webhook off");
      await b.press("⬅️ Link");
      expect(lastText()).toContain("Clicks:");
    } finally {
      rx.stop(true);
    }
  });

  test("a card Telegram no longer lets us edit (older than 48 hours) comes back as a new message", async () => {
    await paste();
    b.canned.set("editMessageText", () => ({ error_code: 400, description: "Bad Request: message can't be edited" }));
    const calls = await b.press("⏸ Turn off");
    const sent = calls.find((c) => c.method === "sendMessage")!;
    expect(sent.params.text).toContain("Inactive");
    expect(b.labels(sent).flat()).toContain("▶️ Turn on");
    expect(b.t.logs.filter((l) => l.includes(" ERROR "))).toEqual([]);
  });

  test("/links pages through the links and filters by tag; a page past the end shows the last one", async () => {
    for (let i = 0; i < 10; i++) await b.send(`https://example.com/${i}`);
    await b.send("/links");
    const page1 = b.last("sendMessage");
    expect(page1.params.text).toContain("(10)");
    expect(
      b
        .labels(page1)
        .flat()
        .filter((n) => n.startsWith("example.com/")),
    ).toHaveLength(8);
    await b.press("▶️");
    const page2 = b.last("editMessageText");
    expect(b.labels(page2).flat()).toContain("2/2");
    expect(
      b
        .labels(page2)
        .flat()
        .filter((n) => n.startsWith("example.com/")),
    ).toHaveLength(2);
    await b.press("example.com/0 · 0");
    expect(lastText()).toContain("https://example.com/0");
    await option("🏷 Tags", "promo");
    await b.press("⬅️ My links");
    await b.press("🏷 promo");
    const filtered = b.last("editMessageText");
    expect(filtered.params.text).toContain("tagged “promo”");
    expect(
      b
        .labels(filtered)
        .flat()
        .filter((n) => n.startsWith("example.com/")),
    ).toEqual(["example.com/0 · 0"]);
  });

  test("a press on an outdated list (its link deleted since) is answered and the screen re-drawn", async () => {
    await paste("https://example.com/a");
    await paste("https://example.com/b");
    await b.send("/links");
    const list = b.last("sendMessage");
    const stale = b.findButton("example.com/a · 0")!.button.callback_data;
    for (const l of await listLinks(b.t.deps, await userId()))
      if (l.original_url.endsWith("/a"))
        await b.t.request("DELETE", `/api/links/${l.id}`, { token: (await b.t.telegramUser(42, "alice")).token });
    const calls = await b.tap(stale, list.result.message_id);
    expect(calls.find((c) => c.method === "answerCallbackQuery")!.params.text).toContain("changed");
    expect(calls.find((c) => c.method === "editMessageText")!.params.text).toContain("(1)");
  });

  test("/new creates from its argument; bare /new asks only for the URL; a full plan is said before asking", async () => {
    await b.send("/new example.com/from-command");
    expect(lastText()).toContain("✅ Your tracking link");
    expect((await link()).original_url).toBe("https://example.com/from-command");
    await b.send("/new");
    expect(lastText()).toContain("Send the link to shorten");
    await b.send("not a link");
    expect(lastText()).toContain("That does not look like a link.");
    await b.send("https://shop.example/sale");
    expect(lastText()).toContain("✅ Your tracking link");
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(2);
    const token = (await b.t.telegramUser(42, "alice")).token;
    for (let i = 0; i < 10; i++) await b.t.request("POST", "/api/links", { token, body: { url: `https://fill.example/${i}` } });
    await b.send("/new");
    expect(lastText()).toContain("plan allows 12 links");
    await b.send("https://example.com/pasted");
    expect(lastText()).toContain("plan allows 12 links"); // no dialog was waiting
  });

  test("URL understanding: bare domains, a link inside text, and clear refusals", async () => {
    await b.send("example.org/page");
    expect((await link()).original_url).toBe("https://example.org/page");
    await b.send("look at this: https://news.example/x please", { entities: [{ type: "url", offset: 13, length: 24 }] });
    expect((await listLinks(b.t.deps, await userId())).map((l) => l.original_url)).toContain("https://news.example/x");
    await b.send("a text link", { entities: [{ type: "text_link", offset: 2, length: 4, url: "https://hidden.example/t" }] });
    expect((await listLinks(b.t.deps, await userId())).map((l) => l.original_url)).toContain("https://hidden.example/t");
    const before = (await listLinks(b.t.deps, await userId())).length;
    await b.send("https://example.com/with space");
    expect(lastText()).toContain("cannot contain spaces");
    await b.send(`https://example.com/${"a".repeat(5000)}`);
    expect(lastText()).toContain("at most 2,048 can be shortened"); // numbers in the user's locale
    await b.send("ftp://files.example/x");
    expect(lastText()).toContain("Only http:// and https:// links");
    // one of this service's short links is no target: an unknown code is refused; the user's own opens its card
    await b.send(`${new URL((await link()).trackingUrl).origin}/nosuchcode`);
    expect(lastSeen()).toContain("must not point to this service's own short links");
    await b.send(`${(await link()).trackingUrl}`);
    expect(lastText()).toContain(`<code>${(await link()).trackingUrl}</code>\n→ ${(await link()).original_url}`);
    expect(await listLinks(b.t.deps, await userId())).toHaveLength(before);
    await b.send("hello there");
    expect(lastText()).toContain("Store this text as a secure note?");
  });

  test("deep link /start link_<id> opens the card; another user's or an unknown id says so with the menu", async () => {
    await paste();
    await b.send(`/start link_${(await link()).id}`);
    expect(lastText()).toContain("Clicks:");
    await b.send(`/start link_${(await link()).id + 99}`);
    expect(lastText()).toContain("⚠️ Link not found");
    expect(lastText()).toContain("What would you like to do?");
  });

  test("long titles and tag names with emoji are shortened without breaking a character", async () => {
    const token = (await b.t.telegramUser(42, "alice")).token;
    const tag = await b.t.request("POST", "/api/tags", { token, body: { name: `${"t".repeat(26)}🔥🔥🔥` } });
    const title = `${"x".repeat(39)}🔥${"y".repeat(37)}🔥${"z".repeat(20)}`;
    await b.t.request("POST", "/api/links", { token, body: { url: "https://example.com/emoji", title, tagIds: [tag.json.id] } });
    await b.send("/links");
    const labels = b.labels(b.last("sendMessage")).flat();
    expect(labels.some((x) => x.startsWith("x".repeat(39)))).toBe(true);
    for (const text of labels) expect({ text, wellFormed: text.isWellFormed() }).toEqual({ text, wellFormed: true });
    await b.press(new RegExp(`^${"x".repeat(39)}`));
    expect(lastText()).toContain("x".repeat(39));
    expect(lastText().isWellFormed()).toBe(true);
  });
});
