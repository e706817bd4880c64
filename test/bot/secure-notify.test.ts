/** View notifications of secure links, through the outbox and the fake Bot API, to the link's card in the bot. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { deliveryWorker } from "../../app/delivery-routes";
import { startBotApp } from "./helpers";
import { seed } from "../api/secure/helpers";

let app: Awaited<ReturnType<typeof startBotApp>>;
beforeEach(async () => (app = await startBotApp({ SHORT_URL: "https://s.example", TRUST_PROXY: "true" })));
afterEach(() => app.stop());

const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

test("each counted view of a notifyOnView link reaches the owner's chat with file, time, country, device, views left and a button to its card; previews send nothing", async () => {
  const { fake, t } = app;
  const { token, image } = await seed(t, 42);
  const l = (
    await t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 2, maxViews: 3, notifyOnView: true } })
  ).json;
  expect(l.notifyOnView).toBe(true);
  const quiet = (await t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 2 } })).json;

  await t.request("GET", `/api/secure/view/${l.code}`, { headers: { "user-agent": "TelegramBot (like TwitterBot)" } }); // a preview
  await t.request("HEAD", `/api/secure/view/${l.code}`);
  await t.request("GET", `/s/${l.code}`, { headers: { "user-agent": ANDROID } }); // the page before its button
  await t.request("GET", `/api/secure/view/${quiet.code}`, { headers: { "user-agent": ANDROID } }); // notifications off
  await t.request("GET", `/api/secure/view/${l.code}`, { headers: { "user-agent": ANDROID, "x-forwarded-for": "8.8.8.8" } });
  // queued in the database before anything is sent: a restart before delivery loses nothing
  expect((await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox)).map((r) => [r.topic, r.status, r.target])).toEqual([
    ["secure_view", "pending", "42"],
  ]);

  await deliveryWorker(t.deps).drain();
  const sent = fake.callsOf("sendMessage").filter((c) => String(c.params.text).includes("was opened"));
  expect(sent).toHaveLength(1);
  const msg = sent[0]!;
  expect(msg.params.chat_id).toBe(42);
  const when = t.clock.now().toISOString().slice(0, 16).replace("T", " ");
  expect(msg.params.text).toBe(
    [
      `👁 <b>pic</b> was opened`,
      `Link: https://s.example/s/${l.code}`,
      `Time: ${when} UTC`,
      `From: US · Chrome on Android (mobile)`,
      `Views left: 2 of 3`,
    ].join("\n"),
  );
  expect(msg.params.reply_markup.inline_keyboard.flat().map((b: { text: string }) => b.text)).toEqual(["⛔ Revoke", "⚙️ Manage"]);

  // ⛔ Revoke acts in place: a toast, and the message says the link is revoked, its button gone
  const before = fake.calls.length;
  fake.press("⛔ Revoke");
  const toast = await fake.waitFor("answerCallbackQuery", (c) => fake.calls.indexOf(c) >= before);
  expect(toast.params.text).toBe("⛔ Revoked: the link no longer opens.");
  const edited = await fake.waitFor("editMessageText", (c) => fake.calls.indexOf(c) >= before);
  expect(edited.params.message_id).toBe(msg.result.message_id);
  expect(edited.params.text).toStartWith("👁 pic was opened\n");
  expect(edited.params.text).toEndWith("\n\n⛔ Revoked: this link no longer opens.");
  expect(edited.params.reply_markup.inline_keyboard.flat().map((b: { text: string }) => b.text)).toEqual(["⚙️ Manage"]);
  expect(fake.calls.slice(before).filter((c) => c.method === "sendMessage")).toEqual([]); // no /start, no new message
  // ⚙️ Manage opens the share link's screen below, where it shows as revoked
  fake.press("⚙️ Manage");
  const card = await fake.waitFor("sendMessage", (c) => fake.calls.indexOf(c) >= before && String(c.params.text).includes(l.url));
  expect(card.params.text).toContain("State: revoked");
  expect((await t.request("GET", `/api/secure/view/${l.code}`, { headers: { "user-agent": ANDROID } })).status).toBe(403);
});

test("a burst of views makes two messages: the first at once, the rest as one when the minute is over", async () => {
  const { fake, t } = app;
  const { token, image } = await seed(t, 42);
  const l = (await t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 2, notifyOnView: true } }))
    .json;
  for (let i = 0; i < 30; i++)
    expect(
      (await t.request("GET", `/api/secure/view/${l.code}`, { headers: { "user-agent": ANDROID, "x-forwarded-for": "8.8.8.8" } })).status,
    ).toBe(200);
  const queued = await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox);
  expect(queued.map((r) => r.topic)).toEqual(["secure_view", "secure_view"]);
  await deliveryWorker(t.deps).drain();
  const opened = () => fake.callsOf("sendMessage").filter((c) => String(c.params.text).includes("was opened"));
  expect(opened().map((c) => String(c.params.text).split("\n")[0])).toEqual(["👁 <b>pic</b> was opened"]);
  t.clock.advance(60_000);
  await deliveryWorker(t.deps).drain();
  expect(opened().map((c) => String(c.params.text).split("\n")[0])).toEqual([
    "👁 <b>pic</b> was opened",
    "👁 <b>pic</b> was opened again: 30 views in all",
  ]);
  // a minute later a view is told at once again
  t.clock.advance(61_000);
  await t.request("GET", `/api/secure/view/${l.code}`, { headers: { "user-agent": ANDROID } });
  await deliveryWorker(t.deps).drain();
  expect(opened()).toHaveLength(3);
});

test("someone else's sharelink_<id> and share_<id> deep links open nothing of theirs", async () => {
  const { fake, t } = app;
  const { token, image } = await seed(t, 42);
  const l = (await t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 2, notifyOnView: true } }))
    .json;
  fake.pushMessage(`/start sharelink_${l.id}`, { id: 99, username: "mallory", first_name: "Mallory" });
  // a first contact by someone else's link: greeted, then told the link opens nothing for them
  const greeting = await fake.waitFor("sendMessage", (c) => c.params.chat_id === 99);
  expect(greeting.params.text).toStartWith("👋 Welcome, Mallory!");
  await fake.waitFor("sendMessage", (c) => c.params.chat_id === 99 && c.params.text === "That share link no longer exists.");
  expect(fake.calls.some((c) => String(c.params.text ?? "").includes(l.url))).toBe(false);
  fake.pushMessage(`/start share_${image.id}`, { id: 99, username: "mallory", first_name: "Mallory" });
  await fake.waitFor("sendMessage", (c) => c.params.chat_id === 99 && c.params.text === "That file no longer exists.");
  expect(fake.calls.some((c) => c.params.chat_id === 99 && String(c.params.text ?? "").includes("pic"))).toBe(false);
});

test("share_<file id> opens the stored file's screen with its share links", async () => {
  const { fake, t } = app;
  const { token, image } = await seed(t, 42);
  const l = (await t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 2 } })).json;
  fake.pushMessage(`/start share_${image.id}`);
  const screen = await fake.waitFor("sendMessage", (c) => c.params.chat_id === 42 && String(c.params.text).startsWith("📄 <b>pic</b>"));
  expect(screen.params.text).toContain("1 share link: tap it to manage it.");
  const labels = (screen.params.reply_markup.inline_keyboard.flat() as { text: string }[]).map((b) => b.text);
  expect(labels).toContain(`🟢 ${l.code} · 0/∞`);
  expect(labels).toEqual(expect.arrayContaining(["🔗 New share link", "🗑 Delete file", "⬅️ Folder"]));
});

test("items sent through a request link arrive in the owner's chat: a file as the same bytes, a text as a message", async () => {
  const { fake, t } = app;
  const { token, folder } = await seed(t, 42);
  const r = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id, title: "Invoices <2026>" } })).json;
  const bytes = new Uint8Array(70_000).map((_, i) => (i * 13) % 256);
  const form = new FormData();
  form.append("file", new Blob([bytes]), "invoice-march.pdf");
  expect((await t.request("POST", `/api/secure/requests/${r.code}/upload`, { body: form })).status).toBe(201);
  expect((await t.request("POST", `/api/secure/requests/${r.code}/upload`, { body: { text: "Here is <the> code: 1234" } })).status).toBe(
    201,
  );

  await deliveryWorker(t.deps).drain();
  const doc = await fake.waitFor("sendDocument");
  expect(doc.params.chat_id).toBe(42);
  expect(doc.params.caption).toBe("📥 New item for request “Invoices &lt;2026&gt;”");
  expect(doc.files.document!.name).toBe("invoice-march.pdf");
  expect(doc.files.document!.bytes).toEqual(bytes);
  const text = await fake.waitFor("sendMessage", (c) => String(c.params.text).includes("New item"));
  expect(text.params.text).toBe("📥 New item for request “Invoices &lt;2026&gt;”\n\nHere is &lt;the&gt; code: 1234");
  expect((await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox)).map((o) => o.status)).toEqual(["done", "done"]);
  // each message's button opens the received item's screen in the bot (share_<file id>)
  const received = (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json as {
    id: number;
    name: string;
    contentType: string;
  }[];
  const pdf = received.find((f) => f.name === "invoice-march.pdf")!;
  const note = received.find((f) => f.contentType === "text" && f.id > pdf.id)!;
  const markup = (m: unknown) => (typeof m === "string" ? JSON.parse(m) : m);
  expect(markup(doc.params.reply_markup)).toEqual({
    inline_keyboard: [[{ text: "📄 Open in the bot", callback_data: `go:share_${pdf.id}` }]],
  });
  expect(markup(text.params.reply_markup)).toEqual({
    inline_keyboard: [[{ text: "📄 Open in the bot", callback_data: `go:share_${note.id}` }]],
  });
  // a press sends the item's screen below the message, with no /start in the chat
  const before = fake.calls.length;
  fake.press("📄 Open in the bot");
  const screen = await fake.waitFor("sendMessage", (c) => fake.calls.indexOf(c) >= before);
  expect(screen.params.text).toStartWith("📄 <b>");
  await fake.waitFor("answerCallbackQuery", (c) => fake.calls.indexOf(c) >= before);
  expect(fake.calls.slice(before).map((c) => c.method)).toEqual(["sendMessage", "answerCallbackQuery"]);
});

test("a received file deleted before its message went out is cancelled, not retried", async () => {
  const { fake, t } = app;
  const { token, folder } = await seed(t, 42);
  const r = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id } })).json;
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(100).fill(1)]), "gone.bin");
  await t.request("POST", `/api/secure/requests/${r.code}/upload`, { body: form });
  const files = (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json;
  await t.request("DELETE", `/api/secure/files/${files.at(-1).id}`, { token });
  await deliveryWorker(t.deps).drain();
  expect(fake.callsOf("sendDocument")).toHaveLength(0);
  expect((await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox)).map((o) => o.status)).toEqual(["cancelled"]);
});
