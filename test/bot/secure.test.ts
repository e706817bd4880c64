import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { TestApp } from "../helpers/app";
import type { FakeBotApi, RecordedCall } from "../helpers/fake-bot-api";
import { startBotApp } from "./helpers";
import { pngBytes } from "../api/secure/helpers";

let fake: FakeBotApi;
let t: TestApp;
let app: Awaited<ReturnType<typeof startBotApp>>;
beforeEach(async () => {
  app = await startBotApp({ SHORT_URL: "https://s.example" });
  ({ fake, t } = app);
});
afterEach(() => app.stop());

const BROWSER = { "user-agent": "Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1" };
let seen = 0;
/** The next bot message (send or edit) whose text matches `re`, after the ones already consumed. */
async function reply(re: RegExp): Promise<RecordedCall> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const i = fake.calls.findIndex(
      (c, i) => i >= seen && (c.method === "sendMessage" || c.method === "editMessageText") && re.test(c.params.text),
    );
    if (i >= 0) {
      seen = i + 1;
      return fake.calls[i]!;
    }
    if (Date.now() > deadline)
      throw new Error(
        `no bot message matched ${re}; got: ${fake.calls
          .slice(seen)
          .map((c) => c.params.text)
          .join(" | ")}`,
      );
    await Bun.sleep(5);
  }
}
const buttons = (c: RecordedCall): { text: string; callback_data: string }[] => (c.params.reply_markup?.inline_keyboard ?? []).flat();
const button = (c: RecordedCall, label: RegExp) => buttons(c).find((b) => label.test(b.text))!.callback_data;

function pushDocument(fileId: string, fileName: string, size: number, caption?: string) {
  fake.pushUpdate({
    message: {
      message_id: 500 + (size % 100),
      date: Math.floor(Date.now() / 1000),
      chat: { id: 42, type: "private" },
      from: { id: 42, is_bot: false, first_name: "Alice" },
      document: { file_id: fileId, file_unique_id: `u${fileId}`, file_name: fileName, file_size: size, mime_type: "application/pdf" },
      caption,
    },
  });
}

describe("secure sharing in the bot", () => {
  beforeEach(() => (seen = 0));

  test("send a document → create a folder → stored via getFile download → share link → the link serves the bytes", async () => {
    const bytes = pngBytes(5000);
    fake.files.set("files/doc-1", bytes);
    pushDocument("doc-1", "holiday.png", bytes.length, "Holiday pic");
    const pick = await reply(/Where should I store “Holiday pic”/);
    fake.pushCallback(button(pick, /New folder/));
    await reply(/Send a name for the new folder/);
    fake.pushMessage("Trips");
    const stored = await reply(/Stored “Holiday pic” \(image/);
    expect(fake.callsOf("getFile")[0]!.params.file_id).toBe("doc-1");
    expect(readdirSync(join(t.dataDir, "secure")).filter((n) => n.endsWith(".bin"))).toHaveLength(1);

    expect(buttons(stored).map((b) => b.text)).toEqual(["🔗 New share link", "🗑 Delete file", "⬅️ Folder"]);
    fake.pushCallback(button(stored, /share link/));
    const expiry = await reply(/How long should the link work/);
    fake.pushCallback(button(expiry, /24 hours/), {}, expiry.result.message_id);
    const views = await reply(/How many times/);
    // a press of the expiry question's buttons now is an expired choice, not an answer to this one
    fake.pushCallback(button(expiry, /1 hour/), {}, expiry.result.message_id);
    await fake.waitFor("answerCallbackQuery", (c) => /choice has expired/.test(c.params.text ?? ""));
    fake.pushCallback(button(views, /^3$/), {}, views.result.message_id);
    const password = await reply(/Should it ask for a password/);
    fake.pushCallback(button(password, /No password/), {}, password.result.message_id);
    const done = await reply(/Share link \(valid 24 hours, 3 views\)/);
    const url = /https:\/\/s\.example\/s\/(\w+)/.exec(done.params.text)!;
    const page = await t.request("GET", `/s/${url[1]}`, { headers: BROWSER });
    expect(page.status).toBe(200);
    expect(page.text).toContain("holiday.png"); // the viewer page only describes the file: no view counted
    const v = await t.request("GET", `/api/secure/view/${url[1]}`, { headers: BROWSER });
    expect(v.json).toMatchObject({ mimeType: "image/png", fileSize: 5000, viewsLeft: 2 });
    const d = await t.app.handle(
      new Request(`http://localhost${new URL(v.json.downloadUrl).pathname}${new URL(v.json.downloadUrl).search}`),
    );
    expect(d.headers.get("content-disposition")).toStartWith("attachment;");
    expect(new Uint8Array(await d.arrayBuffer())).toEqual(bytes);
  });

  test("a plain text becomes a note in an existing folder; a URL text is left alone", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Notes" } })).json;
    fake.pushMessage("https://example.com/page");
    fake.pushMessage("wifi password: hunter2\nsecond line", {}, { message_id: 777 });
    const pick = await reply(/Store this text as a secure note/);
    // the URL text went to the links feature (a tracking link), not to secure storage
    const aboutUrl = fake.callsOf("sendMessage").filter((c) => /example\.com/.test(JSON.stringify(c.params)));
    expect(aboutUrl).toHaveLength(1);
    expect(aboutUrl[0]!.params.text).toContain("Your tracking link");
    expect(fake.callsOf("sendMessage").filter((c) => /secure note/.test(c.params.text ?? ""))).toHaveLength(1);
    fake.pushCallback(button(pick, /Notes/));
    // the note gets a neutral name: its first line would show the secret in lists and notifications
    await reply(/Stored “Note 1, \d{1,2} [A-Z][a-z]{2}” \(text/);
    const files = (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json;
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({
      name: expect.stringMatching(/^Note 1, /),
      contentType: "text",
      textContent: "wifi password: hunter2\nsecond line",
    });
    expect(fake.calls.filter((c) => JSON.stringify(c.params).includes("hunter2"))).toEqual([]);
    // and the bot offers to delete the user's own message that carried the text
    const offer = await reply(/Your message with the text is still in this chat/);
    fake.pushCallback(button(offer, /Delete my message/));
    await fake.waitFor("deleteMessage", (c) => c.params.message_id === 777 && c.params.chat_id === 42);
    await fake.waitFor("answerCallbackQuery", (c) => String(c.params.text).startsWith("Deleted: the text is now only in the secure note"));
  });

  test("several files sent at once (an album): each folder prompt stores its own file", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Box" } })).json;
    fake.files.set("files/one", pngBytes(1001));
    fake.files.set("files/two", pngBytes(1002));
    pushDocument("one", "one.png", 1001, "First");
    const first = await reply(/Where should I store “First”/);
    pushDocument("two", "two.png", 1002, "Second");
    const second = await reply(/Where should I store “Second”/);
    fake.pushCallback(button(first, /Box/));
    await reply(/Stored “First”/);
    fake.pushCallback(button(second, /Box/));
    await reply(/Stored “Second”/);
    const files = (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json;
    expect(files.map((f: any) => [f.name, f.fileName, f.fileSize])).toEqual([
      ["First", "one.png", 1001],
      ["Second", "two.png", 1002],
    ]);
    // Cancel on a prompt drops only its own file
    fake.files.set("files/three", pngBytes(1003));
    pushDocument("three", "three.png", 1003, "Third");
    const third = await reply(/Where should I store “Third”/);
    fake.pushCallback(button(third, /Cancel/));
    await reply(/Cancelled: nothing was stored/);
    fake.pushCallback(button(third, /Box/));
    await reply(/Nothing is waiting to be stored/);
    expect((await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json).toHaveLength(2);
    // the question is HTML: a caption's markup is shown as typed
    fake.files.set("files/four", pngBytes(1004));
    pushDocument("four", "four.png", 1004, "<b>Fourth</b> & co");
    const fourth = await reply(/Where should I store/);
    expect(fourth.params.text).toBe("Where should I store “&lt;b&gt;Fourth&lt;/b&gt; &amp; co”? Pick a folder:");
    expect(fourth.params.parse_mode).toBe("HTML");
    // a folder made since the question was drawn: the old drawing is outdated and re-drawn with it
    await t.request("POST", "/api/secure/folders", { token, body: { name: "Later" } });
    fake.pushCallback(button(fourth, /Box/), {}, fourth.result.message_id);
    await fake.waitFor("answerCallbackQuery", (c) => /screen had changed/.test(c.params.text ?? ""));
    const redrawn = await reply(/Where should I store/);
    expect(buttons(redrawn).map((b) => b.text)).toEqual(["📁 Box", "📁 Later", "➕ New folder", "✖️ Cancel"]);
  });

  test("a file over 10 MB gets a clear message and nothing is downloaded", async () => {
    pushDocument("huge", "film.mkv", 15 * 1024 * 1024);
    await reply(/too big: secure storage takes files up to 10 MB/);
    expect(fake.callsOf("getFile")).toHaveLength(0);
  });

  test("a file whose real size passes 10 MB (size not announced) is refused after download starts, nothing kept", async () => {
    const { token } = await t.telegramUser(42, "alice");
    await t.request("POST", "/api/secure/folders", { token, body: { name: "Box" } });
    fake.files.set("files/sneaky", new Uint8Array(10 * 1024 * 1024 + 1));
    fake.pushUpdate({
      message: {
        message_id: 9,
        date: 1,
        chat: { id: 42, type: "private" },
        from: { id: 42, is_bot: false, first_name: "A" },
        document: { file_id: "sneaky", file_unique_id: "s", file_name: "x.bin" },
      },
    });
    const pick = await reply(/Where should I store/);
    fake.pushCallback(button(pick, /Box/));
    await reply(/too big/);
    expect(readdirSync(join(t.dataDir, "secure")).filter((n) => n.endsWith(".bin"))).toHaveLength(0);
    expect(readdirSync(join(t.dataDir, "secure", "tmp"))).toEqual([]);
    expect((await t.request("GET", "/api/secure/folders", { token })).json[0].fileCount).toBe(0);
  });

  test("menus: the folder list, pause toggle, file → share link → revoke/restore; every delete asks first", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Work" } })).json;
    const file = (
      await t.request("POST", "/api/secure/files", {
        token,
        body: { folderId: folder.id, name: "memo", contentType: "text", textContent: "hi" },
      })
    ).json;
    const link = (await t.request("POST", "/api/secure/links", { token, body: { fileId: file.id, expiresInHours: 1, maxViews: 2 } })).json;
    fake.pushMessage("/secure");
    await reply(/your folders/);
    fake.press(/Work \(1\)/);
    await reply(/📁 <b>Work<\/b>/);
    fake.press("⏸ Pause sharing");
    await reply(/Paused: its share links do not open until you resume/);
    expect((await t.request("GET", `/s/${link.code}`, { headers: BROWSER })).status).toBe(403);
    fake.press("▶️ Resume sharing");
    await reply(/Sharing resumed/);
    fake.press(/memo/);
    await reply(/📄 <b>memo<\/b>/);
    fake.press(new RegExp(link.code));
    await reply(/State: active/);
    fake.press("⛔ Revoke");
    await reply(/State: revoked/);
    expect((await t.request("GET", `/api/secure/view/${link.code}`, { headers: BROWSER })).status).toBe(403);
    fake.press("♻️ Restore");
    await reply(/State: active/);
    // deleting the share link asks first; "Keep it" keeps it
    fake.press("🗑 Delete link");
    await reply(/Delete the share link/);
    fake.press("Keep it");
    await reply(/State: active/);
    fake.press("🗑 Delete link");
    await reply(/Delete the share link/);
    fake.press("🗑 Yes, delete");
    await reply(/Share link deleted/);
    expect((await t.request("GET", `/api/secure/view/${link.code}`, { headers: BROWSER })).status).toBe(404);
    // the file, then the folder: each asks first
    fake.press("🗑 Delete file");
    await reply(/Delete “memo” and its 0 share link/);
    expect((await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json).toHaveLength(1);
    fake.press("🗑 Yes, delete");
    await reply(/File deleted/);
    fake.press("🗑 Delete folder");
    await reply(/Delete folder “Work” with its 0 file/);
    fake.press("🗑 Yes, delete");
    await reply(/Folder deleted[\s\S]*no folders yet/);
    // a deleted share link's deep link says so
    fake.pushMessage(`/start sharelink_${link.id}`);
    await reply(/^That share link no longer exists\.$/);
  });

  test("the share dialog understands typed answers (“7 days”, “3”), can be cancelled, and a menu tap leaves it", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Work" } })).json;
    const file = (
      await t.request("POST", "/api/secure/files", {
        token,
        body: { folderId: folder.id, name: "memo", contentType: "text", textContent: "hi" },
      })
    ).json;
    fake.pushMessage("/secure");
    await reply(/your folders/);
    fake.press(/Work/);
    await reply(/📁 <b>Work<\/b>/);
    fake.press(/memo/);
    await reply(/📄 <b>memo<\/b>/);
    fake.press("🔗 New share link");
    await reply(/How long should the link work/);
    fake.pushMessage("7 days");
    await reply(/How many times/);
    // the answered question lost its buttons
    expect(fake.callsOf("editMessageReplyMarkup").length).toBeGreaterThan(0);
    fake.pushMessage("lots");
    await reply(/Type a whole number of views/);
    fake.pushMessage("3");
    await reply(/Should it ask for a password/);
    fake.press("🔓 No password");
    const done = await reply(/Share link \(valid 7 days, 3 views\)/);
    expect(done.params.text).toContain("https://s.example/s/");
    const links = (await t.request("GET", `/api/secure/links?fileId=${file.id}`, { token })).json;
    expect(links).toHaveLength(1);
    expect(links[0].maxViews).toBe(3);
    // the result is the file's screen: its share link is listed there
    expect(buttons(done).some((b) => b.text.includes(links[0].code))).toBe(true);

    fake.press("🔗 New share link");
    await reply(/How long should the link work/);
    fake.press("1 hour");
    await reply(/How many times/);
    fake.press("Cancel");
    await reply(/^Cancelled\.$/);
    fake.press("🔗 New share link");
    await reply(/How long should the link work/);
    fake.press("⬅️ Folder");
    await reply(/📁 <b>Work<\/b>/);
    expect((await t.request("GET", `/api/secure/links?fileId=${file.id}`, { token })).json).toHaveLength(1);
    // a later press of an old expiry button is not taken for a share
    fake.pushCallback("dlg:0");
    await fake.waitFor("answerCallbackQuery", (c) => /choice has expired/.test(c.params.text ?? ""));
  });

  test("a share link's options: a password (one answer, deleted from the chat, checked as the API checks it) and view messages (one tap)", async () => {
    const { token } = await t.telegramUser(42, "alice");
    const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Work" } })).json;
    const file = (
      await t.request("POST", "/api/secure/files", {
        token,
        body: { folderId: folder.id, name: "memo", contentType: "text", textContent: "hi" },
      })
    ).json;
    const link = (await t.request("POST", "/api/secure/links", { token, body: { fileId: file.id, expiresInHours: 1 } })).json;
    fake.pushMessage(`/start sharelink_${link.id}`);
    await reply(/State: active/);
    fake.press("🔒 Set password");
    await reply(/Send the password viewers must enter/);
    fake.pushMessage("abc");
    await reply(/The password must be 4 to 128 characters/); // the option in words, never a field name
    fake.pushMessage("open sesame");
    const saved = await reply(/✅ Saved\.[\s\S]*🔒 Opening needs a password/);
    expect(fake.callsOf("deleteMessage")).toHaveLength(2);
    expect(buttons(saved).map((b) => b.text)).toContain("🔒 Change password");
    expect((await t.request("GET", `/api/secure/links?fileId=${file.id}`, { token })).json[0].hasPassword).toBe(true);
    fake.press("⬜ View messages: off");
    const on = await reply(/🔔 You get a message for each view/);
    // a switch reads as its state, never as the action a tap takes
    expect(buttons(on).map((b) => b.text)).toContain("✅ View messages: on");
    expect((await t.request("GET", `/api/secure/links?fileId=${file.id}`, { token })).json[0].notifyOnView).toBe(true);
    fake.press("🔒 Change password");
    await reply(/Send the password viewers must enter/);
    fake.pushMessage("/clear");
    await reply(/✅ Removed\./);
    expect((await t.request("GET", `/api/secure/links?fileId=${file.id}`, { token })).json[0].hasPassword).toBe(false);
  });

  test("a full plan is said before the folder question", async () => {
    await app.stop();
    app = await startBotApp({ SHORT_URL: "https://s.example", PLAN_LIMITS: JSON.stringify({ free: { secureFiles: 1 } }) });
    ({ fake, t } = app);
    const { token } = await t.telegramUser(42, "alice");
    const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Box" } })).json;
    await t.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: "one", contentType: "text", textContent: "1" },
    });
    pushDocument("doc", "two.pdf", 100);
    await reply(/allows 1 secure files and you have 1/);
    fake.pushMessage("a second note");
    await reply(/allows 1 secure files and you have 1/);
    expect(fake.calls.some((c) => /Where should I store|Pick a folder/.test(String(c.params.text ?? "")))).toBe(false);
  });

  test("a failed download from Telegram is reported; nothing is stored", async () => {
    const { token } = await t.telegramUser(42, "alice");
    await t.request("POST", "/api/secure/folders", { token, body: { name: "Box" } });
    pushDocument("missing", "gone.pdf", 1000); // the fake serves no such file: 404 on download
    const pick = await reply(/Where should I store/);
    fake.pushCallback(button(pick, /Box/));
    await reply(/Downloading the file from Telegram failed \(404\)/);
    expect((await t.request("GET", "/api/secure/folders", { token })).json[0].fileCount).toBe(0);
    fake.files.set("files/again", new Uint8Array(10));
    fake.failNext.set("getFile", { error_code: 400, description: "Bad Request: file is too big" });
    pushDocument("again", "big.pdf", 1000);
    fake.pushCallback(button(await reply(/Where should I store/), /Box/));
    await reply(/Downloading the file from Telegram failed/);
  });
});
