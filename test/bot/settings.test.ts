import { afterAll, afterEach, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { eq } from "drizzle-orm";
import { unitBot } from "./unit";
import { SmtpSink } from "../helpers/smtp-sink";
import { createApiToken } from "../../core/tokens/api-tokens";
import { listTags } from "../../core/catalog/tags";
import { listPixels } from "../../core/catalog/pixels";
import { listIdentities } from "../../core/accounts/identities";

// each test builds its own app (a fresh database on PostgreSQL): more than bun's 5 s on a busy machine
setDefaultTimeout(60_000);

let b: ReturnType<typeof unitBot>;
let sink: SmtpSink;
beforeAll(async () => (sink = await new SmtpSink().start()));
afterAll(() => sink.stop());
afterEach(() => b.close());

const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;
const user = async () => (await b.t.deps.asyncDb.select().from(b.t.deps.asyncDb.tables.users))[0]!;

describe("bot settings (unit)", () => {
  test("plan, expiry, usage against each limit and sign-in methods", async () => {
    b = unitBot({ PLAN_LIMITS: '{"pro":{"links":777}}' });
    await b.send("https://example.com/one");
    await b.t.deps.asyncDb
      .update(b.t.deps.asyncDb.tables.users)
      .set({ plan: "pro", planExpiresAt: new Date("2027-03-01T00:00:00Z") })
      .where(eq(b.t.deps.asyncDb.tables.users.id, (await user()).id));
    await b.press("⬅️ My links"); // the card's way back, then the list's
    await b.press("⬅️ Menu");
    const page = (await b.press("⚙️ Settings")).find((c) => c.method === "editMessageText")!;
    // dates in the user's locale (English here: the test user's Telegram has no language)
    expect(page.params.text).toContain("Plan: <b>Pro</b> until Mar 1, 2027");
    expect(page.params.text).toContain("🔗 Links: 1 of 777");
    expect(page.params.text).toContain("🔎 Trackers: 0 of 50");
    expect(page.params.text).toContain("Sign-in: Telegram");
    // the workspace first: alone in their own, a person is offered a team
    expect(page.params.text).toContain("🏢 Workspace: <b>personal</b>");
    expect(b.labels(page).flat()).toEqual([
      "➕ New team",
      "🔑 API tokens",
      "🔐 Passkeys",
      "🏷 Tags",
      "📡 Pixels",
      "📧 Link an email",
      "🪪 Sign-in methods",
      "📬 Reports and time zone",
      "📮 Postbacks",
      "🔑 Conversion keys",
      "RUB",
      "• USD •",
      "EUR",
      "KZT",
      "🇷🇺 Русский",
      "⬅️ Menu",
    ]);
    expect(page.params.text).toContain("Language: English");
  });

  test("creating a token: name, scopes from buttons; the secret message is never overwritten, the list comes below it", async () => {
    b = unitBot();
    await b.send("/settings");
    await b.press("🔑 API tokens");
    expect(lastText()).toContain("No API tokens yet");
    await b.press("➕ New API token");
    expect(lastText()).toContain("Name the new API token");
    await b.send("ci-bot");
    const picker = b.last("sendMessage");
    expect(b.labels(picker).flat()).toContain("▫️ links: read");
    await b.press("▫️ links: read");
    expect(b.labels(b.last("editMessageReplyMarkup")).flat()).toContain("✅ links: read");
    await b.press("▫️ stats: read");
    await b.press(/^✔️ Create with 2 scope/);
    const done = b.calls.findLast((c) => c.method === "sendMessage" && /created/.test(c.params.text))!;
    const secret = /<code>(lbt_sk_[^<]+)<\/code>/.exec(done.params.text)![1]!;
    // its one button copies the token; no button can overwrite the message (none sends a press to the bot)
    expect(done.params.reply_markup).toEqual({ inline_keyboard: [[{ text: "📋 Copy token", copy_text: { text: secret } }]] });
    expect(b.last("sendMessage").params.text).toContain("API tokens</b> (1)"); // a new message below
    expect((await b.t.deps.asyncDb.select().from(b.t.deps.asyncDb.tables.apiTokens))[0]!.scopes).toEqual(["read:links", "read:stats"]);
    expect((await b.t.request("GET", "/api/tokens", { token: secret })).status).toBe(403); // no `*`
    // the picker kept no live buttons
    expect(
      b.calls.some(
        (c) => c.method === "editMessageReplyMarkup" && c.params.message_id === picker.result.message_id && !c.params.reply_markup,
      ),
    ).toBe(true);
    // "Settings" from the list edits the list's message, not the secret's
    const back = (await b.press("⬅️ Settings")).find((c) => c.method === "editMessageText")!;
    expect(back.params.message_id).not.toBe(done.result.message_id);
  });

  test("revoking a token asks first; the token then stops working; a stale confirmation is answered", async () => {
    b = unitBot();
    await b.send("/start");
    const token = await createApiToken(b.t.deps, (await user()).id, { name: "old-script" });
    await b.send("/settings");
    await b.press("🔑 API tokens");
    await b.press("🗑 Revoke old-script");
    expect(lastText()).toContain("Revoke the token “old-script”?");
    const yes = b.findButton("🗑 Yes, remove")!;
    await b.press("Keep it");
    expect(lastText()).toContain("old-script");
    await b.press("🗑 Revoke old-script");
    await b.press("🗑 Yes, remove");
    expect(lastText()).toContain("🗑 Token revoked.");
    expect((await b.t.request("GET", "/api/tokens", { token: token.token })).status).toBe(401);
    const again = await b.tap(yes.button.callback_data, 77);
    expect(again.some((c) => c.method === "answerCallbackQuery")).toBe(true);
    expect(again.find((c) => c.method === "editMessageText")!.params.text).toContain("API token not found");
  });

  test("tags and pixels: add with one answer (validated by core), delete with confirmation", async () => {
    b = unitBot();
    await b.send("/settings");
    await b.press("🏷 Tags");
    await b.press("➕ New tag");
    await b.send("x".repeat(60));
    expect(lastText()).toContain("name");
    await b.send("promo");
    expect(lastText()).toContain("✅ Tag “promo” created.");
    expect((await listTags(b.t.deps, (await user()).id)).map((t) => t.name)).toEqual(["promo"]);
    await b.press("🗑 promo");
    await b.press("🗑 Yes, remove");
    expect(await listTags(b.t.deps, (await user()).id)).toEqual([]);
    await b.press("⬅️ Settings");
    await b.press("📡 Pixels");
    await b.press("➕ New pixel");
    await b.send("facebook 12 Shop");
    expect(lastText()).toContain("The pixel id is not a facebook pixel id");
    await b.send("facebook 123456789012345 Main shop");
    expect(lastText()).toContain("✅ Pixel “Main shop” added.");
    expect(await listPixels(b.t.deps, (await user()).id)).toHaveLength(1);
    await b.press("🗑 Main shop");
    await b.press("🗑 Yes, remove");
    expect(await listPixels(b.t.deps, (await user()).id)).toEqual([]);
  });

  test("passkeys are listed and removable; an email is linked by a mailed code", async () => {
    b = unitBot({ SMTP_URL: sink.url });
    await b.send("/start");
    await b.t.deps.asyncDb.insert(b.t.deps.asyncDb.tables.passkeys).values({
      userId: (await user()).id,
      credentialId: "cred-1",
      publicKey: new Uint8Array([1]),
      counter: 0,
      name: "Laptop",
      createdAt: new Date(),
    } as never);
    await b.send("/settings");
    await b.press("🔐 Passkeys");
    expect(lastText()).toContain("Passkeys</b> (1)");
    await b.press("🗑 Laptop");
    await b.press("🗑 Yes, remove");
    expect(await b.t.deps.asyncDb.select().from(b.t.deps.asyncDb.tables.passkeys)).toEqual([]);
    await b.press("⬅️ Settings");
    await b.press("📧 Link an email");
    await b.send("not-an-email");
    expect(lastText()).toContain("Send another address");
    await b.send("alice@example.com");
    expect(lastText()).toContain("I sent a code to alice@example.com");
    await b.send("000000");
    expect(lastText()).toContain("Send the code again");
    await b.send(await sink.codeFor("alice@example.com"));
    expect(lastText()).toContain("✅ alice@example.com is linked");
    expect(lastText()).toContain("Sign-in: Telegram, email alice@example.com");
    expect((await listIdentities(b.t.deps, (await user()).id)).map((i) => i.provider)).toEqual(["telegram", "email"]);
  });

  test("/cancel and other commands leave a settings dialog; nothing is created", async () => {
    b = unitBot();
    await b.send("/settings");
    await b.press("🔑 API tokens");
    await b.press("➕ New API token");
    await b.send("/cancel");
    expect(lastText()).toContain("Cancelled. Nothing was saved.");
    await b.send("not-a-name");
    expect(lastText()).toContain("Store this text as a secure note?");
    await b.send("/settings");
    await b.press("🔑 API tokens");
    await b.press("➕ New API token");
    await b.send("/links");
    expect(lastText()).toContain("Your links");
    expect(await b.t.deps.asyncDb.select().from(b.t.deps.asyncDb.tables.apiTokens)).toHaveLength(0);
  });
});

describe("sign-in methods in the bot (unit)", () => {
  test("a linked email is listed and unlinked after a confirmation; the Telegram account of this chat is never offered", async () => {
    b = unitBot();
    await b.send("/settings");
    const id = (await user()).id;
    await b.t.deps.asyncDb
      .insert(b.t.deps.asyncDb.tables.identities)
      .values({ userId: id, provider: "email", subject: "ann@example.com", createdAt: new Date() });
    await b.press("🪪 Sign-in methods");
    expect(lastText()).toContain("Tap another to unlink it:");
    const labels = b.labels(b.calls.findLast((c) => c.method === "editMessageText")!).flat();
    expect(labels).toEqual(["🗑 email ann@example.com", "📧 Link an email", "⬅️ Settings"]);
    await b.press("🗑 email ann@example.com");
    expect(lastText()).toBe("Unlink email ann@example.com? It can no longer sign in to this account (its links and files stay).");
    await b.press("Keep it");
    expect((await listIdentities(b.t.deps, id)).map((i) => i.provider)).toEqual(["telegram", "email"]);
    await b.press("🗑 email ann@example.com");
    await b.press("🗑 Yes, remove");
    expect(lastText()).toContain("🗑 Sign-in unlinked.");
    expect(lastText()).toContain("Nothing else to unlink");
    expect((await listIdentities(b.t.deps, id)).map((i) => i.provider)).toEqual(["telegram"]);
  });
});
