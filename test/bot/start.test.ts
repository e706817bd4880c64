import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { Composer } from "grammy";
import { buttons, startBotApp } from "./helpers";
import type { BotContext } from "../../bot/context";

let app: Awaited<ReturnType<typeof startBotApp>>;
afterEach(() => app.stop());

describe("bot basics (real bot against the fake Bot API)", () => {
  test("/start greets by name, registers the user and shows the root menu with a web_app button", async () => {
    app = await startBotApp();
    app.fake.pushMessage("/start", { id: 777, first_name: "Maya", username: "maya" });
    const msg = await app.fake.waitFor("sendMessage", (c) => c.params.chat_id === 777);
    expect(msg.params.text).toStartWith("👋 Welcome, Maya!");
    const kb = buttons(msg.params);
    // menu buttons of the menu plugin: "<menu>/<row>/<column>/<payload>/<hash>"
    expect(kb.map((b) => [b.text, "callback_data" in b ? b.callback_data.split("/").slice(0, 3).join("/") : undefined])).toEqual([
      ["🔗 Links", "main/0/0"],
      ["🔒 Secure sharing", "main/0/1"],
      ["🔎 Keyword tracking", "main/1/0"],
      ["📣 Channels", "main/1/1"],
      ["📢 Ads", "main/2/0"],
      ["⚙️ Settings", "main/2/1"],
      ["📱 Open the app", undefined],
    ]);
    expect(kb[6]).toEqual({ text: "📱 Open the app", web_app: { url: "https://links.example.com/" } });
    const row = (
      await app.t.deps.asyncDb
        .select()
        .from(app.t.deps.asyncDb.tables.identities)
        .where(eq(app.t.deps.asyncDb.tables.identities.subject, "777"))
    )[0];
    expect(row?.provider).toBe("telegram");
    expect(
      (
        await app.t.deps.asyncDb.select().from(app.t.deps.asyncDb.tables.users).where(eq(app.t.deps.asyncDb.tables.users.id, row!.userId))
      )[0]?.username,
    ).toBe("maya");
  });

  test("over plain http the app button is a URL button; loopback addresses get none", async () => {
    app = await startBotApp({ BASE_URL: "http://links.example.com" });
    app.fake.pushMessage("/start");
    const msg = await app.fake.waitFor("sendMessage");
    expect(buttons(msg.params).at(-1)).toEqual({ text: "📱 Open the app", url: "http://links.example.com/" });
    await app.stop();
    app = await startBotApp({ BASE_URL: "http://127.0.0.1:3000" });
    app.fake.pushMessage("/start");
    const local = await app.fake.waitFor("sendMessage");
    expect(buttons(local.params).map((b) => b.text)).not.toContain("📱 Open the app");
    expect(buttons(local.params)).toHaveLength(6);
  });

  test("/help lists the commands", async () => {
    app = await startBotApp();
    app.fake.pushMessage("/help");
    const msg = await app.fake.waitFor("sendMessage");
    for (const cmd of ["/start", "/help", "/settings", "/cancel"]) expect(msg.params.text).toContain(cmd);
  });

  test("/cancel with nothing going on says so", async () => {
    app = await startBotApp();
    app.fake.pushMessage("/cancel");
    const msg = await app.fake.waitFor("sendMessage");
    expect(msg.params.text).toBe("There is nothing to cancel.\n\nWhat would you like to do?");
  });

  test("unknown text and unknown commands get a helpful answer with the menu; stray buttons are answered", async () => {
    app = await startBotApp();
    // free text is offered for storage as a secure note (issue 6), with a pointer to /help
    app.fake.pushMessage("hello there");
    const text = await app.fake.waitFor("sendMessage");
    expect(text.params.text).toContain("secure note");
    expect(text.params.text).toContain("/help");
    app.fake.pushMessage("/frobnicate now");
    const cmd = await app.fake.waitFor("sendMessage", (c) => c.params.text.includes("/frobnicate"));
    expect(cmd.params.text).toContain("I don't know the command /frobnicate");
    app.fake.pushCallback("some:old:button");
    const answer = await app.fake.waitFor("answerCallbackQuery");
    expect(answer.params.text).toContain("no longer active");
  });

  test("the Menu button of a section brings the main menu back in place", async () => {
    app = await startBotApp();
    app.fake.pushMessage("/start");
    await app.fake.waitFor("sendMessage");
    for (const [section, heading] of [
      ["🔗 Links", "Your links"],
      ["🔒 Secure sharing", "Secure sharing"],
      ["🔎 Keyword tracking", "keyword trackers"],
      ["⚙️ Settings", "Settings"],
    ] as const) {
      const n = app.fake.callsOf("editMessageText").length;
      app.fake.press(section);
      const opened = await app.fake.waitFor("editMessageText", (c) => app.fake.callsOf("editMessageText").indexOf(c) >= n);
      expect(opened.params.text).toContain(heading);
      app.fake.press("⬅️ Menu");
      const back = await app.fake.waitFor("editMessageText", (c) => app.fake.callsOf("editMessageText").indexOf(c) > n);
      expect(back.params.message_id).toBe(opened.params.message_id);
      expect(back.params.text).toBe("What would you like to do?");
      expect(buttons(back.params).map((b) => b.text)).toContain("🔗 Links");
    }
  });
});

describe("deep links", () => {
  test("/start <payload> goes to the feature that knows the payload; an unknown payload still greets", async () => {
    const feature = new Composer<BotContext>();
    feature.command("start", async (ctx, next) => {
      if (ctx.match !== "promo42") return next();
      await ctx.reply("Promo 42 opened");
    });
    app = await startBotApp({}, [feature]);
    app.fake.pushMessage("/start promo42");
    await app.fake.waitFor("sendMessage", (c) => c.params.text === "Promo 42 opened");
    app.fake.pushMessage("/start something-else");
    const hello = await app.fake.waitFor("sendMessage", (c) => c.params.text.startsWith("👋 Welcome"));
    expect(buttons(hello.params).map((b) => b.text)).toContain("⚙️ Settings");
    expect(app.fake.callsOf("sendMessage")).toHaveLength(2);
  });
});

describe("/cancel and session steps", () => {
  test("/cancel also clears a pending step a feature keeps in the session", async () => {
    const feature = new Composer<BotContext>();
    feature.command("wait", async (ctx) => {
      ctx.session.pending = { kind: "folder-choice", fileId: 7 };
      await ctx.reply("Choose a folder");
    });
    feature.command("peek", (ctx) => ctx.reply(`pending: ${JSON.stringify(ctx.session.pending ?? null)}`));
    app = await startBotApp({}, [feature]);
    app.fake.pushMessage("/wait");
    await app.fake.waitFor("sendMessage", (c) => c.params.text === "Choose a folder");
    app.fake.pushMessage("/cancel");
    await app.fake.waitFor("sendMessage", (c) => c.params.text.startsWith("Cancelled. Nothing was saved."));
    app.fake.pushMessage("/peek");
    await app.fake.waitFor("sendMessage", (c) => c.params.text === "pending: null");
  });
});
