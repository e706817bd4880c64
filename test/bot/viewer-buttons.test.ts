/**
 * A viewer reads a team's screens without the buttons that would change something: the channel, its
 * invite and its waiting requests, secure sharing (folders, files, share and request links), the
 * postbacks and their keys, and the Settings entries that change the workspace (tags, pixels, the
 * reports' schedule). An editor walking the same screens sees every one of those buttons. A button
 * kept from before a demotion still answers with the role refusal in words. On the fake Bot API.
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { startBotApp } from "./helpers";
import { eventually } from "../helpers/eventually";
import type { RecordedCall } from "../helpers/fake-bot-api";
import { setMemberRole, createWorkspace, createInvite, joinWorkspace, setCurrentWorkspace } from "../../core/workspaces";
import { upsertTelegramUser } from "../../core/accounts/users";
import { recordJoinRequest } from "../../core/channels/requests";
import { createFolder } from "../../core/secure/folders";
import { createFile } from "../../core/secure/files";
import { createShareLink } from "../../core/secure/share-links";
import { createRequest } from "../../core/secure/requests";
import { createPostback } from "../../core/conversions/postbacks";
import { createPostbackKey } from "../../core/conversions/keys";
import { createTag } from "../../core/catalog/tags";
import { createPixel } from "../../core/catalog/pixels";
import { t } from "../../core/i18n/translate";

setDefaultTimeout(60_000);

const ALICE = { id: 42, first_name: "Alice", username: "alice" };
const BOB = { id: 43, first_name: "Bob", username: "bob" };
const CAROL = { id: 44, first_name: "Carol", username: "carol" };
const CHANNEL = { id: -1001230001, type: "channel", title: "Agency channel" };
const en = (key: string, vars?: Record<string, string | number>) => t("en", key, vars);

let s: Awaited<ReturnType<typeof startBotApp>>;
let team: number;
let alice: number;
let carol: number;

beforeEach(async () => {
  s = await startBotApp();
  const d = s.t.deps;
  const person = (p: typeof ALICE) => upsertTelegramUser(d, { id: p.id, username: p.username, firstName: p.first_name });
  alice = (await person(ALICE)).id;
  team = (await createWorkspace(d, alice, "Agency")).id;
  for (const [p, role] of [
    [BOB, "viewer"],
    [CAROL, "editor"],
  ] as const) {
    const id = (await person(p)).id;
    if (p === CAROL) carol = id;
    await joinWorkspace(d, id, (await createInvite(d, alice, team, role)).token);
    await setCurrentWorkspace(d, id, team);
  }
  // the team's channel (its owner runs it), an invite with join requests and one person waiting
  s.fake.addChat(CHANNEL);
  s.fake.members.set(`${CHANNEL.id}:${ALICE.id}`, { status: "creator" });
  const db = d.asyncDb;
  const [channel] = await db
    .insert(db.tables.channels)
    .values({ userId: team, chatId: String(CHANNEL.id), type: "channel", title: CHANNEL.title, members: 10, canInvite: true })
    .returning();
  const inviteLink = "https://t.me/+agency1";
  await db.insert(db.tables.channelInvites).values({
    userId: team,
    channelId: channel!.id,
    chatId: String(CHANNEL.id),
    name: "Ad in News",
    inviteLink,
    joinRequest: true,
    approve: "manual",
  });
  const date = Math.floor(s.t.clock.now().getTime() / 1000);
  await recordJoinRequest(d, { chatId: String(CHANNEL.id), member: { id: 777, firstName: "Dave" }, userChatId: 777, date, inviteLink });
  // secure sharing, postbacks, tags and pixels
  const folder = await createFolder(d, team, { name: "Docs" });
  const file = await createFile(d, team, { folderId: folder.id, contentType: "text", textContent: "secret", name: "Note" });
  await createShareLink(d, team, { fileId: file.id, expiresInHours: 24 });
  await createRequest(d, team, { folderId: folder.id, title: "Scans" });
  await createPostback(d, team, { url: "https://shop.example/pb", events: ["lead"] });
  await createPostbackKey(d, team, "shop");
  await createTag(d, team, "spring");
  await createPixel(d, team, { name: "fb", type: "facebook", pixelId: "1234567890" });
});
afterEach(() => s.stop());

const textOf = (c: RecordedCall) => String(c.params.text ?? "");
const labelsOf = (c: RecordedCall) => ((c.params.reply_markup?.inline_keyboard ?? []) as { text: string }[][]).flat().map((b) => b.text);

/** A command or a tap by `who`, then the screen drawn for them whose text passes `pred`: its text and button labels. */
async function step(who: typeof ALICE, action: string | RegExp, pred: (text: string) => boolean, what: string) {
  const since = s.fake.calls.length;
  if (typeof action === "string" && action.startsWith("/")) s.fake.pushMessage(action, who);
  else s.fake.press(action, who);
  const c = await eventually(
    () =>
      s.fake.calls
        .slice(since)
        .find(
          (x) => (x.method === "sendMessage" || x.method === "editMessageText") && Number(x.params.chat_id) === who.id && pred(textOf(x)),
        ),
    what,
  );
  return { text: textOf(c), labels: labelsOf(c) };
}

const starts = (key: string, vars?: Record<string, string | number>) => (text: string) => text.startsWith(en(key, vars));

/** Every screen of the walk, as `who` sees it: the screen's name → its text and button labels. */
async function walk(who: typeof ALICE) {
  const seen = {} as Record<keyof typeof WRITES | "channels", { text: string; labels: string[] }>;
  seen.channels = await step(who, "/channels", starts("channels-title"), "the channels");
  seen.channel = await step(who, "📣 Agency channel", (x) => x.startsWith("📣 <b>Agency channel</b>"), "the channel");
  seen.requests = await step(who, en("channel-requests", { count: 1 }), (x) => x.includes("Waiting to join"), "the requests");
  await step(who, en("channel-back"), (x) => x.startsWith("📣 <b>Agency channel</b>"), "the channel again");
  seen.invite = await step(who, "🔗 Ad in News", (x) => x.startsWith("🔗 <b>Ad in News</b>"), "the invite");
  seen.folders = await step(who, "/secure", starts("secure-folders"), "the folders");
  seen.folder = await step(who, /^📁 Docs/, (x) => x.startsWith("📁 <b>Docs</b>"), "the folder");
  seen.file = await step(who, /^📄 Note/, (x) => x.startsWith("📄 <b>Note</b>"), "the file");
  seen.share = await step(who, /^🟢 \S+ · 0\/∞$/, (x) => x.startsWith(en("secure-share-file", { name: "Note" })), "the share link");
  seen.shares = await step(who, "/secure", starts("secure-folders"), "the folders again");
  seen.shares = await step(who, en("secure-share-links"), (x) => x.startsWith("🔗 <b>Share links</b>"), "the share links");
  seen.requestLinks = await step(who, "/secure", starts("secure-folders"), "the folders again");
  seen.requestLinks = await step(who, en("secure-request-links"), starts("requests-links-title"), "the request links");
  seen.requestLink = await step(who, /^🟢 Scans/, (x) => x.startsWith("📥 <b>Scans</b>"), "the request link");
  await step(who, "/settings", (x) => x.includes("⚙️ Settings"), "Settings");
  seen.tags = await step(who, en("settings-tags"), (x) => x.startsWith("<b>🏷 Tags</b>"), "the tags");
  await step(who, en("settings-back"), (x) => x.includes("⚙️ Settings"), "Settings again");
  seen.pixels = await step(who, en("settings-pixels"), (x) => x.startsWith("<b>📡 Pixels</b>"), "the pixels");
  await step(who, en("settings-back"), (x) => x.includes("⚙️ Settings"), "Settings again");
  seen.reports = await step(who, en("settings-reports"), starts("reports-title"), "the reports");
  await step(who, en("settings-back"), (x) => x.includes("⚙️ Settings"), "Settings again");
  seen.postbacks = await step(who, en("pb-settings"), (x) => x.startsWith("📮 <b>Postbacks</b>"), "the postbacks");
  seen.postback = await step(who, /^📮 1\. shop\.example/, (x) => x.startsWith("📮 <b>Postback</b>"), "the postback");
  await step(who, "/settings", (x) => x.includes("⚙️ Settings"), "Settings again");
  seen.keys = await step(who, en("pbk-settings"), starts("pbk-title"), "the conversion keys");
  return seen;
}

/** The buttons that change something, screen by screen, as an editor sees them. */
const WRITES = {
  channel: [en("channel-new-invite")],
  requests: ["✅ Dave", "❌ Dave"],
  invite: [en("invite-option-name"), en("invite-option-approval"), en("invite-revoke")],
  folders: [en("secure-new-folder-button")],
  folder: ["🔗", "🗑", en("secure-pause"), en("secure-delete-folder"), en("secure-new-request")],
  file: [en("secure-new-share"), en("secure-delete-file")],
  share: [en("secure-revoke"), en("secure-delete-link"), en("share-option-views-off")],
  shares: ["⛔", "🗑"],
  requestLinks: ["⏸", "🗑"],
  requestLink: [en("card-turn-off"), en("card-delete")],
  tags: [en("tags-add"), "🗑 spring"],
  pixels: [en("pixels-add"), "🗑 fb"],
  reports: [en("reports-set-daily"), en("reports-later"), en("reports-time-zone")],
  postbacks: [en("pb-new"), en("pb-test-short"), "🗑"],
  postback: [en("pb-test"), en("pb-delete")],
  keys: [en("pbk-new"), /^🚫 Revoke/],
} satisfies Record<string, (string | RegExp)[]>;
const has = (labels: string[], w: string | RegExp) => labels.some((x) => (typeof w === "string" ? x === w : w.test(x)));

test("a viewer walks the team's channel, secure, postback and Settings screens and sees no button that changes them; an editor sees them all", async () => {
  const viewer = await walk(BOB);
  const editor = await walk(CAROL);
  for (const [screen, writes] of Object.entries(WRITES) as [keyof typeof WRITES, (string | RegExp)[]][]) {
    expect({ screen, missing: writes.filter((w) => !has(editor[screen].labels, w)) }).toEqual({ screen, missing: [] });
    expect({ screen, shown: writes.filter((w) => has(viewer[screen].labels, w)) }).toEqual({ screen, shown: [] });
  }
  // what a viewer may still do: read, copy, export to their own chat, open the log
  expect(viewer.channel.labels).toEqual(expect.arrayContaining([en("channel-requests", { count: 1 }), "📤 CSV", "📤 XLSX"]));
  expect(viewer.invite.labels).toEqual([en("card-copy"), en("channel-back")]);
  expect(viewer.share.labels).toEqual([en("card-copy"), en("secure-back-file")]);
  expect(viewer.postback.labels).toEqual([en("pb-log"), en("pb-back-list")]);
  // a list whose items were only buttons names them in the text instead
  expect(viewer.requests.text).toBe(`${en("ws-read-requests", { count: 1 })}\n• Dave`);
  expect(viewer.tags.text).toBe(`${en("ws-read-tags", { count: 1 })}\n• spring`);
  expect(viewer.pixels.text).toStartWith(en("ws-read-pixels", { count: 1 }));
  expect(viewer.shares.text).toBe(en("ws-read-shares", { count: 1 }));
  // the reports' schedule is read, not changed
  expect(viewer.reports.text).toContain(en("reports-off"));
  expect(viewer.reports.labels).toEqual([en("settings-back")]);
});

test("a confirmation kept from before a demotion is refused in words, and nothing changes", async () => {
  await step(CAROL, "/channels", starts("channels-title"), "the channels");
  await step(CAROL, "🔗 Ad in News · Agency channel", (x) => x.startsWith("🔗 <b>Ad in News</b>"), "the invite");
  await step(CAROL, en("invite-revoke"), (x) => x.includes("Ad in News"), "the confirmation");
  await setMemberRole(s.t.deps, alice, team, carol, "viewer");
  const refused = await step(CAROL, en("invite-revoke-yes"), (x) => x.startsWith("⚠️"), "the refusal");
  expect(refused.text).toStartWith("⚠️ This needs the editor role in this workspace; you are a viewer");
  const [invite] = await s.t.deps.asyncDb.select().from(s.t.deps.asyncDb.tables.channelInvites);
  expect(invite!.isRevoked).toBe(false);
});
