import { and, count, eq, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { linkPixels, linkTags, linkTombstones, links, type LinkRow } from "../../db/schema";
import { changes } from "../../db/client";
import { FieldError, NotFound } from "../errors";
import { assertWithinLimit } from "../accounts/plans";
import type { UserRow } from "../accounts/users";
import { validateWebhookTarget } from "../webhooks/validate";
import { assertCustomCode, newCode } from "./codes";
import { validateLinkInput, type LinkInput, type LinkPatch } from "./validate";
import { domainHostOf, linkDetails, linkSummary } from "./views";
import { hashPassword } from "./password";
import { invalidateLinkCache } from "./link-cache";
import { writeTransaction, type Tx } from "../../db/transaction";


/** The link `id` if `userId` owns it; 404 otherwise (also for other users' links). */
export function ownedLink(deps: Pick<Deps, "db">, userId: number, id: number): LinkRow {
  const link = deps.db.select().from(links).where(and(eq(links.id, id), eq(links.userId, userId))).get();
  if (!link) throw new NotFound("Link");
  return link;
}

/** Number of links the user has (what the plan limit counts). */
export function countLinks(deps: Pick<Deps, "db">, userId: number): number {
  return deps.db.select({ n: count() }).from(links).where(eq(links.userId, userId)).get()!.n;
}

function writeRelations(tx: Tx, linkId: number, patch: LinkPatch) {
  if (patch.tagIds) {
    tx.delete(linkTags).where(eq(linkTags.linkId, linkId)).run();
    if (patch.tagIds.length) tx.insert(linkTags).values(patch.tagIds.map((tagId) => ({ linkId, tagId }))).run();
  }
  if (patch.pixelIds) {
    tx.delete(linkPixels).where(eq(linkPixels.linkId, linkId)).run();
    if (patch.pixelIds.length) tx.insert(linkPixels).values(patch.pixelIds.map((pixelId) => ({ linkId, pixelId }))).run();
  }
}

/**
 * Creates a link for `user`: validates every field, checks a custom code (409 when taken), sends the
 * webhook validation request when a webhook is given, then inserts within the plan's link limit.
 */
export async function createLink(deps: Deps, user: UserRow, input: LinkInput) {
  const patch = validateLinkInput(deps, user.id, input);
  if (input.code) assertCustomCode(deps, input.code);
  if (patch.cols.webhookUrl) {
    await validateWebhookTarget(deps, patch.cols.webhookUrl, patch.cols.webhookMethod ?? "POST");
    patch.cols.webhookEnabled = true;
  }
  if (patch.password) patch.cols.passwordHash = await hashPassword(patch.password);
  const now = deps.clock.now();
  const link = writeTransaction(deps.db, (tx) => {
    assertWithinLimit(deps, user, "links", countLinks(deps, user.id));
    if (input.code) assertCustomCode({ db: tx }, input.code);
    const row = tx
      .insert(links)
      .values({ ...patch.cols, url: patch.cols.url!, userId: user.id, code: input.code || newCode(deps), createdAt: now, updatedAt: now })
      .returning()
      .get();
    writeRelations(tx, row.id, patch);
    return row;
  });
  return linkSummary(deps, link, await domainHostOf(deps, link));
}

/**
 * Edits a link the user owns. The code never changes; `null` clears a field. A new or changed
 * webhook_url is validated first and enables the webhook; webhook_enabled true resets the failure count.
 */
export async function editLink(deps: Deps, userId: number, id: number, input: LinkInput) {
  const existing = ownedLink(deps, userId, id);
  const patch = validateLinkInput(deps, userId, input, existing);
  const url = patch.cols.webhookUrl;
  const method = patch.cols.webhookMethod ?? existing.webhookMethod;
  if (url === null) patch.cols.webhookEnabled = false;
  else if (url !== undefined && (url !== existing.webhookUrl || method !== existing.webhookMethod)) {
    await validateWebhookTarget(deps, url, method);
    if (url !== existing.webhookUrl) {
      patch.cols.webhookEnabled = input.webhook_enabled ?? true;
      patch.cols.webhookFailures = 0;
    }
  } else if (url === undefined && patch.cols.webhookMethod && patch.cols.webhookMethod !== existing.webhookMethod && existing.webhookUrl)
    await validateWebhookTarget(deps, existing.webhookUrl, patch.cols.webhookMethod);
  if (patch.cols.webhookEnabled === true && !(patch.cols.webhookUrl ?? existing.webhookUrl))
    throw new FieldError("webhook_enabled", "set webhook_url first: there is no webhook to enable");
  if (patch.cols.webhookEnabled === true) patch.cols.webhookFailures = 0;
  if (patch.password !== undefined) patch.cols.passwordHash = patch.password === null ? null : await hashPassword(patch.password);
  // a cap put on a link that had none starts from the human clicks it already has
  const capFrom = existing.maxClicks === null && patch.cols.maxClicks ? { capUsed: sql`${links.totalClicks} - ${links.botClicks}` } : {};
  const link = writeTransaction(deps.db, (tx) => {
    const row = tx
      .update(links)
      .set({ ...patch.cols, ...capFrom, updatedAt: deps.clock.now() })
      .where(and(eq(links.id, id), eq(links.userId, userId)))
      .returning()
      .get();
    if (!row) throw new NotFound("Link");
    writeRelations(tx, id, patch);
    return row;
  });
  invalidateLinkCache(deps);
  return linkSummary(deps, link, await domainHostOf(deps, link));
}

/** Full information about one link (404 for missing or someone else's). */
export async function getLink(deps: Deps, userId: number, id: number) {
  return linkDetails(deps, ownedLink(deps, userId, id));
}

/**
 * Deletes a link with its clicks (404 for missing or someone else's). Its code stays attributed to
 * the user (a tombstone), so later visits to it are the user's orphan visits.
 */
export function deleteLink(deps: Pick<Deps, "db" | "clock" | "linkCache" | "cluster" | "log">, userId: number, id: number): void {
  writeTransaction(deps.db, (tx) => {
    const gone = tx.delete(links).where(and(eq(links.id, id), eq(links.userId, userId))).returning({ code: links.code }).get();
    if (!gone) throw new NotFound("Link");
    tx.insert(linkTombstones).values({ code: gone.code, userId, deletedAt: deps.clock.now() })
      .onConflictDoUpdate({ target: linkTombstones.code, set: { userId, deletedAt: deps.clock.now() } }).run();
  });
  invalidateLinkCache(deps);
}

/** Turns a link on or off (the bot's toggle). */
export function setLinkActive(deps: Pick<Deps, "db" | "clock" | "linkCache" | "cluster" | "log">, userId: number, id: number, active: boolean): LinkRow {
  const row = deps.db.update(links).set({ isActive: active, updatedAt: deps.clock.now() }).where(and(eq(links.id, id), eq(links.userId, userId))).returning().get();
  if (!row) throw new NotFound("Link");
  invalidateLinkCache(deps);
  return row;
}
