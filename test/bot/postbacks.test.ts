/**
 * Postbacks in the bot, as the user sees them: set up from a link's card in one answer and three taps
 * (📮 Postback → the template → an event → ✅ Save and test), a template that cannot be used refused in
 * words, a test sent at once to a real receiver on loopback whose answer comes as a message; the list
 * under Settings, a postback's deliveries and its log, delete; keys for incoming conversions made (the
 * GET address works), listed and revoked (the address is refused). In English and in Russian.
 * @both-databases: through the seam.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { unitBot } from "./unit";
import { upsertTelegramUser } from "../../core/accounts/users";
import { insertLink } from "../helpers/clicks";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { eventually } from "../helpers/eventually";
import { expectRussian } from "../helpers/russian";
import { createPostback, listPostbacks } from "../../core/conversions/postbacks";
import { recordConversion } from "../../core/conversions/conversions";
import { listPostbackKeys } from "../../core/conversions/keys";
import { createPlacement } from "../../core/placements/placements";

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let b: ReturnType<typeof unitBot>;
let rx: WebhookReceiver;
beforeEach(() => {
  rx = new WebhookReceiver().start();
});
afterEach(async () => {
  rx.stop();
  await b.close();
});

/** The newest message text the bot showed (sent or edited). */
const shown = () => String(b.calls.findLast((c) => /^(sendMessage|editMessageText)$/.test(c.method) && c.params.text)!.params.text);
/** The newest screen whose text holds `part`. */
const screenWith = (part: string) =>
  String(b.calls.findLast((c) => /^(sendMessage|editMessageText)$/.test(c.method) && String(c.params.text).includes(part))!.params.text);
/** Waits for a message starting with `start` (the test's answer comes in the background). */
const message = (start: string) =>
  eventually(() => b.calls.find((c) => c.method === "sendMessage" && String(c.params.text).startsWith(start)), `a message "${start}…"`);

async function account(language: "en" | "ru" = "en") {
  b = unitBot({}, { language_code: language });
  const user = await upsertTelegramUser(b.t.deps, { id: 42, username: "alice", firstName: "Alice" });
  const link = await insertLink(b.t.deps, user.id, { title: language === "en" ? "Spring sale" : "Весенняя распродажа" });
  return { user, link };
}

describe("setting up a postback from a link's card", () => {
  test("one answer and three taps; the test's answer comes from the receiver", async () => {
    const { user, link } = await account();
    await b.send(`/start link_${link.id}`);
    const taps = [await b.press("📮 Postback")];
    expect(shown()).toContain("📮 New postback for link «Spring sale».");
    expect(shown()).toContain("<code>{click_id}</code>");
    await b.send(`${rx.url}/pb?cid={click_id}&goal={event}&sum={value}&cur={currency}`);
    expect(shown()).toBe("Which events should call it? Tap to choose, or type other event names (as your server reports them), then save.");
    expect(b.labels(b.last("sendMessage"))).toEqual([
      ["▫️ Click", "▫️ Join request"],
      ["▫️ Join", "▫️ Leave"],
      ["▫️ Bot start", "▫️ Lead"],
      ["▫️ Purchase", "▫️ Any event"],
      ["✅ Save and test", "Cancel"],
    ]);
    taps.push(await b.press("▫️ Purchase"));
    expect(b.labels(b.last("editMessageReplyMarkup")).at(-1)).toEqual(["✅ Save and test (1)", "Cancel"]);
    taps.push(await b.press("✅ Save and test (1)"));
    expect(taps).toHaveLength(3);
    const screen = screenWith("📮 <b>Postback</b>");
    expect(screen).toContain("✅ Postback saved. A test is on its way; its answer comes below.");
    expect(screen).toContain("📮 <b>Postback</b> · link «Spring sale»");
    expect(screen).toContain(`GET <code>${rx.url}/pb?cid={click_id}&amp;goal={event}&amp;sum={value}&amp;cur={currency}</code>`);
    expect(screen).toContain("Events: Purchase");
    const answer = await message("✅ The receiver took the test");
    expect(answer.params.text).toBe("✅ The receiver took the test: it answered 200, «ok».");
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!).toMatchObject({
      method: "GET",
      path: "/pb",
      query: { cid: "test_click", goal: "purchase", sum: "1", cur: "USD" },
    });
    expect(await listPostbacks(b.t.deps, user.id)).toMatchObject([{ link_id: link.id, events: ["purchase"], method: "GET" }]);
  });

  test("a template that cannot be used is refused in words and asked again; a refused test says what the receiver answered", async () => {
    const { link } = await account();
    rx.respond = 500;
    await b.send(`/start link_${link.id}`);
    await b.press("📮 Postback");
    await b.send("https://network.example/pb?cid={clickid}");
    expect(shown()).toStartWith("<code>{clickid}</code> is no macro I know. The macros are: <code>{event}</code>, <code>{click_id}</code>");
    await b.send("network.example/pb?cid={click_id}");
    expect(shown()).toBe(
      "That is not a full address: it must start with http:// or https://, like <code>https://network.example/postback?clickid={click_id}&amp;goal={event}&amp;sum={value}</code>. Send it again.",
    );
    await b.send("https://network.example/pb PUT");
    expect(shown()).toStartWith("Send one address (with POST after it if you like)");
    await b.send(`${rx.url}/pb POST`);
    await b.press("✅ Save and test");
    expect(shown()).toBe("Choose at least one event first.");
    await b.send("deposit, first_deposit");
    expect(b.labels(b.last("editMessageReplyMarkup")).flat()).toContain("✅ Deposit");
    expect(b.labels(b.last("editMessageReplyMarkup")).flat()).toContain("✅ first_deposit");
    await b.send("Оплата!");
    expect(shown()).toBe(
      "«Оплата!» cannot be an event name: use lower-case letters, digits and _, starting with a letter, up to 40 characters.",
    );
    await b.press("✅ Save and test (2)");
    const answer = await message("❌ The receiver refused the test");
    expect(answer.params.text).toBe("❌ The receiver refused the test: it answered 500, «error».");
    expect(JSON.parse(rx.received[0]!.body)).toMatchObject({ event: "deposit", click_id: "test_click" });
  });

  test("a receiver that cannot be reached is said so; a link with postbacks opens their list", async () => {
    const { link } = await account();
    const dead = new WebhookReceiver().start();
    const url = `${dead.url}/gone`;
    dead.stop();
    await b.send(`/start link_${link.id}`);
    await b.press("📮 Postback");
    await b.send(url);
    await b.press("▫️ Click");
    await b.press("✅ Save and test (1)");
    expect((await message("❌ The test did not get through")).params.text).toBe(
      "❌ The test did not get through: the receiver could not be reached (ECONNREFUSED).",
    );
    await b.send(`/start link_${link.id}`);
    await b.press("📮 Postbacks: 1");
    expect(shown()).toContain("📮 <b>Postbacks</b> · link «Spring sale»");
    expect(shown()).toContain(`1. GET <code>${url}</code>`);
  });
});

describe("the postbacks under Settings", () => {
  test("the list, a postback's deliveries and log, delete with confirmation", async () => {
    const { user, link } = await account();
    const placement = await createPlacement(b.t.deps, user, { venue: "@bigchannel", name: "Big channel" });
    const all = await createPostback(b.t.deps, user.id, { url: `${rx.url}/all?e={event}`, events: ["purchase", "lead"] });
    await createPostback(b.t.deps, user.id, { url: `${rx.url}/p`, events: ["join"], placement_id: placement.id });
    await recordConversion(b.t.deps, user.id, { event: "purchase", value: 990, currency: "RUB", externalId: "o1" });
    await b.send("/settings");
    await b.press("📮 Postbacks");
    expect(shown()).toBe(
      [
        "📮 <b>Postbacks</b> · all your links and invites",
        "",
        `1. GET <code>${rx.url}/p</code>`,
        "    Events: Join · placement «Big channel»",
        `2. GET <code>${rx.url}/all?e={event}</code>`,
        "    Events: Purchase, Lead",
      ].join("\n"),
    );
    const host = rx.url.replace("http://", "");
    expect(b.labels(b.last("editMessageText"))).toEqual([
      [`📮 1. ${host}/p`, "🧪", "🗑"],
      [`📮 2. ${host}/all`, "🧪", "🗑"],
      ["➕ New postback", "🔑 Keys for incoming conversions"],
      ["⬅️ Settings"],
    ]);
    await b.press(`📮 2. ${host}/all`);
    expect(shown()).toContain("📮 <b>Postback</b> · all your links and invites");
    expect(shown()).toContain("<b>Recent deliveries</b>\n⏳ ");
    expect(shown()).toContain(" · Purchase");
    await b.press("📜 Delivery log");
    expect(shown()).toContain("📜 <b>Delivery log</b> of GET");
    await b.press("⬅️ Postback");
    await b.press("⬅️ Postbacks");
    await b.press("🗑"); // on the newest drawing, the first row's (the placement's postback)
    expect(shown()).toBe(`Delete the postback to GET <code>${rx.url}/p</code>? What is still waiting to be sent is dropped.`);
    await b.press("🗑 Yes, delete");
    expect(shown()).toStartWith("🗑 Postback deleted.\n\n📮 <b>Postbacks</b> · all your links and invites");
    expect((await listPostbacks(b.t.deps, user.id)).map((p) => p.id)).toEqual([all.id]);
    void link;
  });

  test("keys: made in one tap, the address takes a conversion; revoked, it is refused", async () => {
    const { user } = await account();
    await b.send("/settings");
    await b.press("🔑 Conversion keys");
    expect(shown()).toContain("🔑 <b>Keys for incoming conversions</b>\n\nNone yet.");
    await b.press("➕ New key");
    const made = b.calls.find((c) => c.method === "sendMessage" && String(c.params.text).startsWith("🔑 New key."))!;
    const url = made.params.reply_markup.inline_keyboard[0][0].copy_text.text as string;
    expect(url).toMatch(/^https:\/\/links\.example\.com\/c\/pbk_/);
    expect(made.params.text).toContain(`<code>${url}</code>`);
    const [key] = await listPostbackKeys(b.t.deps, user.id);
    expect(shown()).toContain(`• <code>${key!.prefix}…</code> «Key of `);
    const report = (u: string) => b.t.app.handle(new Request(`http://localhost${new URL(u).pathname}?event=lead&external_id=x1`));
    expect((await report(url)).status).toBe(204);
    await b.press(`🚫 Revoke ${key!.prefix}…`);
    expect(shown()).toBe(`Revoke key <code>${key!.prefix}…</code>? Conversions reported with it are refused from now on.`);
    await b.press("🚫 Yes, revoke");
    expect(shown()).toStartWith("🚫 Key revoked.\n\n🔑 <b>Keys for incoming conversions</b>\n\nNone yet.");
    expect((await report(url)).status).not.toBe(204);
  });
});

describe("in Russian", () => {
  test("the setup from a placement, its refusal and the test's answer: no English", async () => {
    const { user } = await account("ru");
    const placement = await createPlacement(b.t.deps, user, { venue: "@bigchannel", name: "Большой канал" });
    const before = b.calls.length;
    await b.send("/ads");
    await b.press("Всё время");
    await b.press(/^\d\. Большой канал$/);
    await b.press("📮 Постбэк");
    expect(shown()).toContain("📮 Новый постбэк: размещение «Большой канал».");
    await b.send("https://network.example/pb?cid={clickid}");
    expect(shown()).toStartWith("Макроса <code>{clickid}</code> нет. Есть такие:");
    await b.send(`${rx.url}/pb?cid={click_id}`);
    await b.press("▫️ Вступление");
    await b.press("✅ Сохранить и проверить (1)");
    expect(screenWith("📮 <b>Постбэк</b>")).toContain("📮 <b>Постбэк</b> · размещение «Большой канал»");
    expect(screenWith("📮 <b>Постбэк</b>")).toContain("События: Вступление");
    expect((await message("✅ Получатель принял проверку")).params.text).toBe("✅ Получатель принял проверку: ответил 200, «ok».");
    expect(await listPostbacks(b.t.deps, user.id)).toMatchObject([{ placement_id: placement.id, events: ["join"] }]);
    await b.send("/settings");
    await b.press("🔑 Ключи конверсий");
    await b.press("➕ Новый ключ");
    expectRussian(b.calls, before);
  });
});
