/**
 * Walks every menu button the bot shows, from /start, with something in every section: each press is
 * answered, leads somewhere (an edit, a new message or a question), and every screen but the main menu
 * has a way back. Dialogs a button opens are left with /cancel; confirmations are tapped last.
 */
import { afterEach, expect, test } from "bun:test";
import { like } from "drizzle-orm";
import { unitBot, type ApiCall } from "./unit";
import { insertLink } from "../helpers/clicks";
import { eventually } from "../helpers/eventually";
import { createApiToken } from "../../core/tokens/api-tokens";
import { createTag } from "../../core/catalog/tags";
import { createPixel } from "../../core/catalog/pixels";
import { createFolder } from "../../core/secure/folders";
import { createFile } from "../../core/secure/files";
import { createShareLink as createShare } from "../../core/secure/share-links";
import { createRequest } from "../../core/secure/requests";
import { createTracker } from "../../core/tracking/trackers";
import { createPlacement } from "../../core/placements/placements";
import { createPostback } from "../../core/conversions/postbacks";
import { createPostbackKey } from "../../core/conversions/keys";

let b: ReturnType<typeof unitBot>;
let rx: ReturnType<typeof Bun.serve> | undefined;
afterEach(async () => {
  rx?.stop(true);
  await b.close();
});

const BACK = /^(⬅️ |Cancel$|Keep it$|No, keep it$)/;
const menuButtons = (c: ApiCall) =>
  ((c.params.reply_markup?.inline_keyboard ?? []) as { text: string; callback_data?: string }[][])
    .flat()
    .filter((x) => x.callback_data?.includes("/"));
const destructive = (label: string) => label.startsWith("🗑") || label.includes("Yes,");

test("every menu button is answered and leads somewhere; every screen has a way back", async () => {
  rx = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
  b = unitBot();
  await b.send("/start");
  const userId = (await b.t.deps.asyncDb.select().from(b.t.deps.asyncDb.tables.users))[0]!.id;
  const deps = b.t.deps;
  await insertLink(deps, userId, { isActive: false });
  const link = await insertLink(deps, userId, { webhookUrl: `http://127.0.0.1:${rx.port}/hook`, webhookEnabled: true }); // newest: first in the list
  await createTag(deps, userId, "promo");
  await createPixel(deps, userId, { name: "Shop", type: "facebook", pixelId: "123456789012345" });
  await createApiToken(deps, userId, { name: "ci" });
  await deps.asyncDb
    .insert(deps.asyncDb.tables.passkeys)
    .values({ userId, credentialId: "c1", publicKey: Buffer.from([1]), counter: 0, name: "Laptop", createdAt: new Date() });
  const folder = await createFolder(deps, userId, { name: "Work" });
  // two of each shared and sent thing: the rows' own delete buttons take one, the screens' the other
  for (const name of ["memo", "notes"]) {
    const file = await createFile(deps, userId, { folderId: folder.id, name, contentType: "text", textContent: "hi" });
    await createShare(deps, userId, { fileId: file.id, expiresInHours: 1, maxViews: 2 });
    await createShare(deps, userId, { fileId: file.id, expiresInHours: 2, maxViews: null });
  }
  await createRequest(deps, userId, { folderId: folder.id, title: "Scans" });
  // a second folder outlives the walk's delete of the first: the flat share-link list still has rows then
  const archive = await createFolder(deps, userId, { name: "Archive" });
  const old = await createFile(deps, userId, { folderId: archive.id, name: "old", contentType: "text", textContent: "x" });
  await createShare(deps, userId, { fileId: old.id, expiresInHours: 1, maxViews: 1 });
  await createTracker(deps, userId, { name: "Deals", keyword: "deal" });
  const { channels, channelInvites, channelJoinRequests } = deps.asyncDb.tables;
  const [channel] = await deps.asyncDb
    .insert(channels)
    .values({ userId, chatId: "-1001", type: "channel", title: "Ads Club", username: "adsclub", members: 10, canInvite: true })
    .returning();
  const [invite] = await deps.asyncDb
    .insert(channelInvites)
    .values({
      userId,
      channelId: channel!.id,
      chatId: "-1001",
      name: "Ad",
      inviteLink: "https://t.me/+walk",
      joinRequest: true,
      approve: "manual",
    })
    .returning();
  await deps.asyncDb
    .insert(channelJoinRequests)
    .values({ chatId: "-1001", inviteId: invite!.id, memberId: 9, userChatId: 9, firstName: "Eve", requestedAt: new Date() });
  b.fake.members.set("-1001:42", { status: "creator" }); // Telegram's word: the user runs the channel
  const [owner] = await deps.asyncDb.select().from(deps.asyncDb.tables.users);
  await createPlacement(deps, owner!, { venue: "@bigchannel", name: "Big channel", cost: { amount: 5000, currency: "RUB" } });
  // two postbacks (the row's delete takes one, the screen's the other) and a key for incoming conversions
  for (const path of ["a", "b"]) await createPostback(deps, userId, { url: `http://127.0.0.1:${rx.port}/${path}`, events: ["purchase"] });
  await createPostbackKey(deps, userId, "server");
  await b.send("/start");

  const visited = new Set<string>();
  const pressed: string[] = [];
  const inDialog = async () =>
    (await deps.asyncDb.select().from(deps.asyncDb.tables.botKv).where(like(deps.asyncDb.tables.botKv.key, "conversation:%"))).some(
      (r) => r.value !== "{}" && r.value !== "null",
    );

  async function visit(call: ApiCall) {
    const buttons = menuButtons(call);
    if (!buttons.length) return;
    const screen = buttons[0]!.callback_data!.split("/")[0]!;
    if (visited.has(screen)) return;
    visited.add(screen);
    if (screen !== "main") expect({ screen, back: buttons.some((x) => BACK.test(x.text)) }).toEqual({ screen, back: true });
    const messageId = Number(call.params.message_id ?? call.result?.message_id);
    // a screen's own deletes before its way back: the parent's row buttons would delete its object first
    const ordered = [
      ...buttons.filter((x) => !destructive(x.text) && !BACK.test(x.text)),
      ...buttons.filter((x) => destructive(x.text)),
      ...buttons.filter((x) => BACK.test(x.text) && !destructive(x.text)),
    ];
    for (const button of ordered) {
      let produced = await b.tap(button.callback_data!, messageId);
      // a screen drawn before something under it was deleted is outdated: it is re-drawn, then tapped again
      if (produced.some((c) => c.method === "answerCallbackQuery" && /changed/.test(c.params.text ?? ""))) {
        const redrawn = produced.find((c) => c.method === "editMessageText")!;
        const again = menuButtons(redrawn).find((x) => x.text === button.text);
        if (!again) continue; // the button went with what was deleted
        produced = await b.tap(again.callback_data!, messageId);
      }
      pressed.push(`${screen}: ${button.text}`);
      expect({ button: button.text, answered: produced.some((c) => c.method === "answerCallbackQuery") }).toEqual({
        button: button.text,
        answered: true,
      });
      const effects = produced.filter((c) => /^(edit|send)/.test(c.method));
      expect({ button: button.text, leads: effects.length > 0 }).toEqual({ button: button.text, leads: true });
      if (await inDialog()) await b.send("/cancel");
      for (const c of effects) await visit(c);
    }
  }
  await visit(b.last("sendMessage"));

  expect([...visited].sort()).toEqual([
    "ads",
    "channel",
    "channel-requests",
    "channels",
    "file",
    "file-delete",
    "folder",
    "folder-delete",
    "folder-file-delete",
    "folders",
    "invite",
    "invite-revoke",
    "link",
    "link-delete",
    "link-export",
    "link-stats",
    "link-webhook",
    "link-webhook-rotate",
    "links",
    "main",
    "orphans",
    "passkeys",
    "passkeys-remove",
    "pixels",
    "pixels-remove",
    "placement",
    "placement-delete",
    "postback",
    "postback-delete",
    "postback-key-revoke",
    "postback-keys",
    "postback-log",
    "postbacks",
    "reports",
    "request",
    "request-delete",
    "requests",
    "requests-delete",
    "settings",
    "share",
    "share-delete",
    "shares",
    "shares-delete",
    "sign-ins",
    "tags",
    "tags-remove",
    "tokens",
    "tokens-remove",
    "track-guide",
    "tracker",
    "tracker-delete",
    "tracker-feed",
    "trackers",
  ]);
  expect(pressed.length).toBeGreaterThan(80);
  expect(b.t.logs.filter((l) => l.includes(" ERROR "))).toEqual([]);
  // the background test delivery reported back before the test ends
  await eventually(
    () => b.calls.some((c) => String(c.params.text ?? "").includes(`Test webhook of <code>${link.code}</code>`)),
    "the test delivery's report",
  );
  // every message of the walk went out as HTML (none names its own mode), and Telegram read every one
  const messages = b.calls.filter(
    (c) =>
      /^(send(Message|Photo|Document)|edit(MessageText|MessageCaption))$/.test(c.method) &&
      (c.params.text ?? c.params.caption) !== undefined,
  );
  expect(messages.length).toBeGreaterThan(80);
  expect(messages.filter((c) => c.params.parse_mode !== "HTML").map((c) => [c.method, c.params.text])).toEqual([]);
  expect(b.calls.filter((c) => /can't parse entities/.test(c.result?.description ?? "")).map((c) => c.result.description)).toEqual([]);
}, 60_000); // a walk of every screen: more than bun's 5 s default on a busy machine
