/**
 * The bot's writes in the audit log: every change the bot makes goes through one table
 * (bot/audited.ts) and leaves exactly one entry in the workspace it changed, under the person who
 * made it, named as the API names the same change. A source check keeps every bot call of those
 * core functions going through the table.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { BOT_WRITES, write } from "../../bot/audited";
import { getUser, type UserRow } from "../../core/accounts/users";
import { createPixel, deletePixel } from "../../core/catalog/pixels";
import { createTag, deleteTag } from "../../core/catalog/tags";
import { createPostbackKey, revokePostbackKey } from "../../core/conversions/keys";
import { createPostback, deletePostback } from "../../core/conversions/postbacks";
import { createLink, deleteLink, editLink } from "../../core/links/links";
import { createPlacement, deletePlacement, updatePlacement } from "../../core/placements/placements";
import { createFile, deleteFile } from "../../core/secure/files";
import { createFolder, deleteFolder, togglePause } from "../../core/secure/folders";
import { createRequest, deleteRequest, updateRequest } from "../../core/secure/requests";
import { createShareLink, deleteShareLink, setShareLinkRevoked, updateShareLink } from "../../core/secure/share-links";
import { createApiToken, revokeApiToken } from "../../core/tokens/api-tokens";
import { createTracker, deleteTracker, setTrackerEnabled, updateTracker } from "../../core/tracking/trackers";
import { setLinkWebhookEnabled } from "../../core/webhooks/link-webhook";
import { rotateSigningSecret } from "../../core/webhooks/signing";
import { addMember } from "../../core/workspaces/members";
import { createWorkspace } from "../../core/workspaces";

let t: TestApp;
let rx: WebhookReceiver;
beforeEach(() => {
  t = createTestApp();
  rx = new WebhookReceiver().start();
});
afterEach(() => {
  rx.server.stop(true);
  t.close();
});

test("each bot write family leaves exactly one entry, with the person, the API's action and the subject", async () => {
  const ann = (await t.telegramUser(1, "ann")).user;
  const bob = (await t.telegramUser(2, "bob")).user;
  const team = await createWorkspace(t.deps, ann.id, "Acme");
  await addMember(t.deps.asyncDb, team.id, bob.id, "editor", t.clock.now());
  const bobInTeam = { deps: t.deps, owner: (await getUser(t.deps, team.id)) as UserRow, user: bob, role: "editor" as const };
  const { auditLog } = t.deps.asyncDb.tables;
  const entries = () => t.deps.asyncDb.select().from(auditLog).where(eq(auditLog.workspaceId, team.id));
  /** Runs one write and returns the one entry it left. */
  async function one<R>(run: () => Promise<R>): Promise<[R, { action: string; actorId: number | null; subject: string }]> {
    const before = (await entries()).length;
    const result = await run();
    const now = await entries();
    expect(now.length - before).toBe(1);
    const e = now[now.length - 1]!;
    return [result, { action: e.action, actorId: e.actorId, subject: `${e.subjectType} ${e.subjectId}` }];
  }
  const rows: [string, string, string][] = [];
  async function check<R>(family: string, run: () => Promise<R>, action: string, subject: (r: R) => string): Promise<R> {
    const [r, e] = await one(run);
    expect(e.actorId).toBe(bob.id);
    rows.push([family, e.action, e.subject]);
    expect([e.action, e.subject]).toEqual([action, subject(r)]);
    return r;
  }

  const w = bobInTeam;
  // links, with their webhook
  const link = await check(
    "link",
    () => write(w, createLink, { url: "https://team.example/" }),
    "links.create",
    (r) => `link ${r.id}`,
  );
  await check(
    "link",
    () => write(w, editLink, link.id, { title: "Spring", webhook_url: `${rx.url}/x` }),
    "links.update",
    () => `link ${link.id}`,
  );
  await check(
    "link webhook",
    () => write(w, setLinkWebhookEnabled, link.id, false),
    "links.update",
    () => `link ${link.id}`,
  );
  await check(
    "webhook secret",
    () => write(w, rotateSigningSecret),
    "webhooks.secret.rotate.create",
    () => "rotate null",
  );
  // tags, pixels, tokens
  const tag = await check(
    "tag",
    () => write(w, createTag, "spring"),
    "tags.create",
    (r) => `tag ${r.id}`,
  );
  await check(
    "tag",
    () => write(w, deleteTag, tag.id),
    "tags.delete",
    () => `tag ${tag.id}`,
  );
  const pixel = await check(
    "pixel",
    () => write(w, createPixel, { name: "fb", type: "facebook", pixelId: "1234567890" }),
    "pixels.create",
    (r) => `pixel ${r.id}`,
  );
  await check(
    "pixel",
    () => write(w, deletePixel, pixel.id),
    "pixels.delete",
    () => `pixel ${pixel.id}`,
  );
  const token = await check(
    "token",
    () => write(w, createApiToken, { name: "ci", scopes: ["read:links"] }, { id: bob.id, role: "editor" }),
    "tokens.create",
    (r) => `token ${r.id}`,
  );
  await check(
    "token",
    () => write(w, revokeApiToken, token.id, { id: bob.id, role: "editor" }),
    "tokens.delete",
    () => `token ${token.id}`,
  );
  // secure sharing: folders, files, share links, request links
  const folder = await check(
    "secure folder",
    () => write(w, createFolder, { name: "Docs" }),
    "secure.folders.create",
    (r) => `folder ${r.id}`,
  );
  await check(
    "secure folder",
    () => write(w, togglePause, folder.id),
    "secure.folders.pause.update",
    () => `pause ${folder.id}`,
  );
  await check(
    "secure folder",
    () => write(w, togglePause, folder.id),
    "secure.folders.pause.update",
    () => `pause ${folder.id}`,
  );
  const file = await check(
    "secure file",
    () => write(w, createFile, { folderId: folder.id, contentType: "text", textContent: "hi" }),
    "secure.files.create",
    (r) => `file ${r.id}`,
  );
  const share = await check(
    "share link",
    () => write(w, createShareLink, { fileId: file.id, expiresInHours: 24 }),
    "secure.links.create",
    (r) => `link ${r.id}`,
  );
  await check(
    "share link",
    () => write(w, updateShareLink, share.id, { notifyOnView: true }),
    "secure.links.update",
    () => `link ${share.id}`,
  );
  await check(
    "share link",
    () => write(w, setShareLinkRevoked, share.id, true),
    "secure.links.revoke.update",
    () => `revoke ${share.id}`,
  );
  await check(
    "share link",
    () => write(w, setShareLinkRevoked, share.id, false),
    "secure.links.restore.update",
    () => `restore ${share.id}`,
  );
  await check(
    "share link",
    () => write(w, deleteShareLink, share.id),
    "secure.links.delete",
    () => `link ${share.id}`,
  );
  const request = await check(
    "request link",
    () => write(w, createRequest, { folderId: folder.id, title: "Scans" }),
    "secure.requests.create",
    (r) => `request ${r.id}`,
  );
  await check(
    "request link",
    () => write(w, updateRequest, request.id, { isActive: false }),
    "secure.requests.update",
    () => `request ${request.id}`,
  );
  await check(
    "request link",
    () => write(w, deleteRequest, request.id),
    "secure.requests.delete",
    () => `request ${request.id}`,
  );
  await check(
    "secure file",
    () => write(w, deleteFile, file.id),
    "secure.files.delete",
    () => `file ${file.id}`,
  );
  await check(
    "secure folder",
    () => write(w, deleteFolder, folder.id),
    "secure.folders.delete",
    () => `folder ${folder.id}`,
  );
  // trackers
  const tracker = await check(
    "tracker",
    () => write(w, createTracker, { name: "Brand", keyword: "acme" }),
    "tracking.create",
    (r) => `tracking ${r.id}`,
  );
  await check(
    "tracker",
    () => write(w, updateTracker, tracker.id, { name: "Brand 2" }),
    "tracking.update",
    () => `tracking ${tracker.id}`,
  );
  await check(
    "tracker",
    () => write(w, setTrackerEnabled, tracker.id, false),
    "tracking.update",
    () => `tracking ${tracker.id}`,
  );
  await check(
    "tracker",
    () => write(w, deleteTracker, tracker.id),
    "tracking.delete",
    () => `tracking ${tracker.id}`,
  );
  // placements, postbacks and their keys
  const placement = await check(
    "placement",
    () => write(w, createPlacement, { venue: "Spring fair", cost: "100" }),
    "placements.create",
    (r) => `placement ${r.id}`,
  );
  await check(
    "placement",
    () => write(w, updatePlacement, placement.id, { notes: "paid" }),
    "placements.update",
    () => `placement ${placement.id}`,
  );
  const postback = await check(
    "postback",
    () => write(w, createPostback, { url: `${rx.url}/pb`, events: ["lead"] }),
    "postbacks.create",
    (r) => `postback ${r.id}`,
  );
  await check(
    "postback",
    () => write(w, deletePostback, postback.id),
    "postbacks.delete",
    () => `postback ${postback.id}`,
  );
  const key = await check(
    "postback key",
    () => write(w, createPostbackKey, "shop"),
    "postback_keys.create",
    (r) => `postback-key ${r.id}`,
  );
  await check(
    "postback key",
    () => write(w, revokePostbackKey, key.id),
    "postback_keys.delete",
    () => `postback-key ${key.id}`,
  );
  await check(
    "placement",
    () => write(w, deletePlacement, placement.id),
    "placements.delete",
    () => `placement ${placement.id}`,
  );
  await check(
    "link",
    () => write(w, deleteLink, link.id),
    "links.delete",
    () => `link ${link.id}`,
  );

  // nothing went into Bob's own workspace or anyone else's
  expect(
    await t.deps.asyncDb
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, bob.id))),
  ).toEqual([]);
  // secrets typed in the bot stay out of the log
  const pw = await t.deps.asyncDb.select().from(auditLog).where(eq(auditLog.action, "tokens.create"));
  expect(JSON.stringify(pw[0]!.details)).not.toContain("lbt_");
  expect(rows.length).toBeGreaterThanOrEqual(30);
});

test("every bot call of a core write goes through the audit table", () => {
  const names = [...BOT_WRITES.keys()].map((f) => f.name);
  const direct = new RegExp(`(?<![\\w.])\\b(${names.join("|")})\\(`, "g");
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (path.endsWith(".ts") && path !== join("bot", "audited.ts")) {
        const src = readFileSync(path, "utf8").replace(/^import[\s\S]*?;$/gm, "");
        for (const m of src.matchAll(direct)) offenders.push(`${path}: ${m[1]}(`);
      }
    }
  };
  walk("bot");
  // a team invitation (core/workspaces) shares a name with a channel's and records itself
  expect(offenders.filter((o) => o !== "bot/menus/workspaces.ts: createInvite(")).toEqual([]);
});
