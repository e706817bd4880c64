import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { apiTokens, users } from "../../db/schema";
import { buttons, startBotApp } from "./helpers";
import { createApiToken } from "../../core/tokens/api-tokens";

let app: Awaited<ReturnType<typeof startBotApp>>;
afterEach(() => app.stop());

const sent = (text: string) => (c: { params: Record<string, any> }) => String(c.params.text ?? "").includes(text);

/** Opens the token dialog and answers the name question. */
async function startTokenDialog(name: string) {
  app.fake.pushCallback("settings:token:new");
  await app.fake.waitFor("sendMessage", sent("Name the new API token"));
  app.fake.pushMessage(name);
}

/** After the dialog ended, text is no longer taken as a name: no scope picker, no token. */
async function expectDialogOver(text: string) {
  app.fake.pushMessage(text);
  // with the dialog over, free text is offered for storage as a secure note, not taken as a token name
  await app.fake.waitFor("sendMessage", sent("Store this text as a secure note?"));
  expect(app.fake.callsOf("sendMessage").some((c) => sent("choose its scopes")(c))).toBe(false);
  expect(app.t.deps.db.select().from(apiTokens).all()).toHaveLength(0);
}

describe("bot settings", () => {
  test("shows plan, expiry and limits", async () => {
    app = await startBotApp({ PLAN_LIMITS: '{"pro":{"links":777}}' });
    app.fake.pushMessage("/start");
    await app.fake.waitFor("sendMessage");
    const user = app.t.deps.db.select().from(users).get()!;
    app.t.deps.db.update(users).set({ plan: "pro", planExpiresAt: new Date("2026-03-01T00:00:00Z") }).where(eq(users.id, user.id)).run();
    app.fake.pushCallback("menu:settings", {}, 9);
    const page = await app.fake.waitFor("editMessageText", sent("Settings"));
    expect(page.params.message_id).toBe(9);
    expect(page.params.text).toContain("Plan: <b>pro</b> until 2026-03-01");
    expect(page.params.text).toContain("777 links, 50 trackers");
    expect(page.params.text).toContain("No API tokens yet");
  });

  test("a long token list is cut to the newest 15, each with a revoke button", async () => {
    app = await startBotApp();
    app.fake.pushMessage("/start");
    await app.fake.waitFor("sendMessage");
    const user = app.t.deps.db.select().from(users).get()!;
    for (let i = 1; i <= 18; i++) createApiToken(app.t.deps, user.id, { name: `script-${i}` });
    app.fake.pushMessage("/settings");
    const page = await app.fake.waitFor("sendMessage", sent("API tokens</b> (18)"));
    expect(page.params.text).toContain("script-18");
    expect(page.params.text).toContain("script-4<");
    expect(page.params.text).not.toContain("script-3<");
    expect(page.params.text).toContain("…and 3 older ones");
    expect(buttons(page.params).filter((b) => b.text.startsWith("🗑"))).toHaveLength(15);
  });

  test("creating a token: name, scopes from buttons, secret shown once and working on the API", async () => {
    app = await startBotApp();
    const { fake, t } = app;
    fake.pushMessage("/settings");
    const page = await fake.waitFor("sendMessage", sent("Settings"));
    expect(buttons(page.params).map((b) => b.text)).toEqual(["➕ New API token", "⬅️ Menu"]);

    await startTokenDialog("ci-bot");
    const picker = await fake.waitFor("sendMessage", sent("choose its scopes"));
    expect(buttons(picker.params).map((b) => b.text)).toContain("▫️ read:links");
    expect(buttons(picker.params).at(-1)!.text).toBe("✔️ Create with all scopes (*)");

    fake.pushCallback("token-scope:read:links");
    const toggled = await fake.waitFor("editMessageReplyMarkup");
    expect(buttons(toggled.params).map((b) => b.text)).toContain("✅ read:links");
    fake.pushCallback("token-scope:read:stats");
    await fake.waitFor("editMessageReplyMarkup", (c) => buttons(c.params).some((b) => b.text === "✅ read:stats"));
    fake.pushCallback("token-scope:done");
    const done = await fake.waitFor("sendMessage", sent("created"));
    const secret = /<code>(lbt_sk_[^<]+)<\/code>/.exec(done.params.text)![1]!;
    expect(done.params.text).toContain("read:links, read:stats");
    expect(done.params.text).toContain("not shown again");

    const row = t.deps.db.select().from(apiTokens).get()!;
    expect(row.name).toBe("ci-bot");
    expect(row.scopes).toEqual(["read:links", "read:stats"]);
    expect(row.tokenHash).not.toContain(secret);
    // the token authenticates; it lacks `*`, so managing tokens is refused with 403 (not 401)
    expect((await t.request("GET", "/api/tokens", { token: secret })).status).toBe(403);

    // the settings page lists it without the secret
    fake.pushMessage("/settings");
    const listed = await fake.waitFor("sendMessage", (c) => sent("API tokens</b> (1)")(c));
    expect(listed.params.text).toContain("ci-bot");
    expect(listed.params.text).not.toContain(secret);
  });

  test("no scope chosen means full access (*)", async () => {
    app = await startBotApp();
    await startTokenDialog("everything");
    await app.fake.waitFor("sendMessage", sent("choose its scopes"));
    app.fake.pushCallback("token-scope:done");
    const done = await app.fake.waitFor("sendMessage", sent("created"));
    const secret = /<code>(lbt_sk_[^<]+)<\/code>/.exec(done.params.text)![1]!;
    expect(app.t.deps.db.select().from(apiTokens).get()!.scopes).toEqual(["*"]);
    expect((await app.t.request("GET", "/api/tokens", { token: secret })).status).toBe(200);
  });

  test("/cancel leaves the token dialog: nothing is created and the next text is not taken as a name", async () => {
    app = await startBotApp();
    app.fake.pushCallback("settings:token:new");
    await app.fake.waitFor("sendMessage", sent("Name the new API token"));
    app.fake.pushMessage("/cancel");
    await app.fake.waitFor("sendMessage", sent("Cancelled. Nothing was saved."));
    await expectDialogOver("not-a-name");
  });

  test("a command is not taken as the token's name; /start leaves the dialog", async () => {
    app = await startBotApp();
    await startTokenDialog("/settings");
    await app.fake.waitFor("sendMessage", sent("That looks like a command"));
    app.fake.pushMessage("/start");
    await app.fake.waitFor("sendMessage", sent("Welcome"));
    await expectDialogOver("my-name");
  });

  test("revoking a token asks first, then the token stops working", async () => {
    app = await startBotApp();
    const { fake, t } = app;
    fake.pushMessage("/start");
    await fake.waitFor("sendMessage");
    const user = t.deps.db.select().from(users).get()!;
    const token = createApiToken(t.deps, user.id, { name: "old-script" });
    expect((await t.request("GET", "/api/tokens", { token: token.token })).status).toBe(200);

    fake.pushCallback("menu:settings");
    const page = await fake.waitFor("editMessageText", sent("old-script"));
    expect(buttons(page.params).map((b) => "callback_data" in b && b.callback_data)).toContain(`settings:token:revoke:${token.id}`);
    fake.pushCallback(`settings:token:revoke:${token.id}`);
    const confirm = await fake.waitFor("editMessageText", sent("Revoke the token “old-script”?"));
    expect(buttons(confirm.params).map((b) => b.text)).toEqual(["🗑 Yes, revoke", "Keep it"]);
    fake.pushCallback(`settings:token:revoke-yes:${token.id}`);
    const ack = await fake.waitFor("answerCallbackQuery", (c) => c.params.text === "Token revoked");
    expect(ack).toBeDefined();
    await fake.waitFor("editMessageText", sent("No API tokens yet"));
    expect(t.deps.db.select().from(apiTokens).get()!.revokedAt).not.toBeNull();
    const refused = await t.request("GET", "/api/tokens", { token: token.token });
    expect(refused.status).toBe(401);
    expect(refused.json.error).toBe("token_revoked");

    // pressing the old button again is harmless
    fake.pushCallback(`settings:token:revoke-yes:${token.id}`);
    await fake.waitFor("answerCallbackQuery", (c) => c.params.text === "That token is already gone");
  });
});
