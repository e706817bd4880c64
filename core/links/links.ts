import { and, count, eq, sql } from "drizzle-orm";
import { ownerWantsClickPostbacks } from "../click-postbacks";
import type { Deps } from "../deps";
import type { LinkRow } from "../../db/schema";
import { FieldError, NotFound } from "../errors";
import { assertWithinLimit } from "../accounts/plans";
import type { UserRow } from "../accounts/users";
import { validateWebhookTarget } from "../webhooks/validate";
import { assertCustomCode, codeTakenError, newCode } from "./codes";
import { validateLinkInput, type LinkInput, type LinkPatch } from "./validate";
import { domainHostOf, linkDetails, linkSummary } from "./views";
import { hashPassword } from "./password";
import { invalidateLinkCache } from "../cluster/caches";
import { isUniqueViolation, serializeOn, transaction, type AsyncDbOrTx, type AsyncTx } from "../../db/async";

/** The link `id` if `userId` owns it; 404 otherwise (also for other users' links). */
export async function ownedLink(deps: { asyncDb: AsyncDbOrTx }, userId: number, id: number): Promise<LinkRow> {
  const { links } = deps.asyncDb.tables;
  const [link] = await deps.asyncDb
    .select()
    .from(links)
    .where(and(eq(links.id, id), eq(links.userId, userId)))
    .limit(1);
  if (!link) throw new NotFound("Link");
  return link;
}

/** Number of links the user has (what the plan limit counts). */
export async function countLinks(deps: { asyncDb: AsyncDbOrTx }, userId: number): Promise<number> {
  const { links } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb.select({ n: count() }).from(links).where(eq(links.userId, userId));
  return Number(row?.n ?? 0);
}

/**
 * Inside a transaction that counts a user's links and then adds some: holds the user's link count
 * still until it commits, so two creates at once on any nodes cannot both pass the plan limit.
 */
export function lockLinkCount(tx: AsyncTx, userId: number): Promise<void> {
  return serializeOn(tx, `links-of:${userId}`);
}

async function writeRelations(tx: AsyncTx, linkId: number, patch: LinkPatch) {
  const { linkTags, linkPixels } = tx.tables;
  if (patch.tagIds) {
    await tx.delete(linkTags).where(eq(linkTags.linkId, linkId));
    if (patch.tagIds.length) await tx.insert(linkTags).values(patch.tagIds.map((tagId) => ({ linkId, tagId })));
  }
  if (patch.pixelIds) {
    await tx.delete(linkPixels).where(eq(linkPixels.linkId, linkId));
    if (patch.pixelIds.length) await tx.insert(linkPixels).values(patch.pixelIds.map((pixelId) => ({ linkId, pixelId })));
  }
}

/**
 * Creates a link for `user`: validates every field, checks a custom code (409 when taken), sends the
 * webhook validation request when a webhook is given, then inserts within the plan's link limit.
 */
export async function createLink(deps: Deps, user: UserRow, input: LinkInput) {
  const patch = await validateLinkInput(deps, user.id, input);
  if (input.code) await assertCustomCode(deps, input.code);
  if (patch.cols.webhookUrl) {
    await validateWebhookTarget(deps, patch.cols.webhookUrl, patch.cols.webhookMethod ?? "POST");
    patch.cols.webhookEnabled = true;
  }
  if (patch.password) patch.cols.passwordHash = await hashPassword(patch.password);
  const now = deps.clock.now();
  const { links } = deps.asyncDb.tables;
  const link = await transaction(deps.asyncDb, async (tx) => {
    await lockLinkCount(tx, user.id);
    assertWithinLimit(deps, user, "links", await countLinks({ asyncDb: tx }, user.id));
    if (input.code) await assertCustomCode({ asyncDb: tx }, input.code);
    const [row] = await tx
      .insert(links)
      .values({
        ...patch.cols,
        url: patch.cols.url!,
        userId: user.id,
        code: input.code || (await newCode({ asyncDb: tx })),
        clickPostbacks: await ownerWantsClickPostbacks(tx, user.id),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await writeRelations(tx, row!.id, patch);
    return row!;
  }).catch((e) => {
    // another node took the custom code between the check and the insert
    if (input.code && isUniqueViolation(e)) throw codeTakenError(input.code);
    throw e;
  });
  return linkSummary(deps, link, await domainHostOf(deps, link));
}

/**
 * Edits a link the user owns. The code never changes; `null` clears a field. A new or changed
 * webhook_url is validated first and enables the webhook; webhook_enabled true resets the failure count.
 */
export async function editLink(deps: Deps, userId: number, id: number, input: LinkInput) {
  const existing = await ownedLink(deps, userId, id);
  const patch = await validateLinkInput(deps, userId, input, existing);
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
  const { links } = deps.asyncDb.tables;
  const capFrom = existing.maxClicks === null && patch.cols.maxClicks ? { capUsed: sql`${links.totalClicks} - ${links.botClicks}` } : {};
  const link = await transaction(deps.asyncDb, async (tx) => {
    const [row] = await tx
      .update(links)
      .set({ ...patch.cols, ...capFrom, updatedAt: deps.clock.now() })
      .where(and(eq(links.id, id), eq(links.userId, userId)))
      .returning();
    if (!row) throw new NotFound("Link");
    await writeRelations(tx, id, patch);
    return row;
  });
  invalidateLinkCache(deps);
  return linkSummary(deps, link, await domainHostOf(deps, link));
}

/** Full information about one link (404 for missing or someone else's). */
export async function getLink(deps: Deps, userId: number, id: number) {
  return linkDetails(deps, await ownedLink(deps, userId, id));
}

/**
 * Deletes a link with its clicks (404 for missing or someone else's). Its code stays attributed to
 * the user (a tombstone), so later visits to it are the user's orphan visits.
 */
export async function deleteLink(
  deps: Pick<Deps, "asyncDb" | "clock" | "linkCache" | "cluster" | "log">,
  userId: number,
  id: number,
): Promise<void> {
  const { links, linkTombstones } = deps.asyncDb.tables;
  await transaction(deps.asyncDb, async (tx) => {
    const [gone] = await tx
      .delete(links)
      .where(and(eq(links.id, id), eq(links.userId, userId)))
      .returning({ code: links.code });
    if (!gone) throw new NotFound("Link");
    await tx
      .insert(linkTombstones)
      .values({ code: gone.code, userId, deletedAt: deps.clock.now() })
      .onConflictDoUpdate({ target: linkTombstones.code, set: { userId, deletedAt: deps.clock.now() } });
  });
  invalidateLinkCache(deps);
}
