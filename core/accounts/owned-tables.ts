import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { AsyncTx, Tables } from "../../db/async";
import { roleAtLeast } from "../tokens/roles";
import { syncClickPostbacks } from "../click-postbacks";

/** The tables (by their key in the schema) whose rows belong to a user through a `user_id` column. */
type OwnedKey = {
  [K in keyof Tables]: Tables[K] extends { userId: unknown; $inferSelect: unknown } ? K : never;
}[keyof Tables];

/**
 * A user-owned table. By default a merge re-points its `user_id` from the old account to the new
 * one. A table with a per-user unique key (say, tag names) gives `merge` instead: it runs inside the
 * merge transaction and must leave no row owned by `sourceId` (rename, fold or delete clashes first).
 */
export interface OwnedTable {
  key: OwnedKey;
  merge?: (tx: AsyncTx, sourceId: number, targetId: number) => Promise<void>;
}

/**
 * Merge hook: the merged-in account's postbacks move to the survivor, and then every link of the
 * survivor (its own and those moved in before) is marked for click postbacks as the two accounts'
 * postbacks together now want.
 */
async function mergePostbacks(tx: AsyncTx, sourceId: number, targetId: number): Promise<void> {
  const { postbacks } = tx.tables;
  await tx.update(postbacks).set({ userId: targetId }).where(eq(postbacks.userId, sourceId));
  await syncClickPostbacks(tx, targetId);
}

/**
 * Merge hook: the survivor keeps one row per hostname. A clashing row of the merged-in account has
 * its links moved to the survivor's row (which becomes verified when the merged-in one was), then goes.
 */
async function mergeDomains(tx: AsyncTx, sourceId: number, targetId: number): Promise<void> {
  const { domains, links } = tx.tables;
  for (const mine of await tx.select().from(domains).where(eq(domains.userId, sourceId)).orderBy(domains.id)) {
    const [theirs] = await tx
      .select()
      .from(domains)
      .where(and(eq(domains.userId, targetId), eq(domains.hostname, mine.hostname)))
      .limit(1);
    if (!theirs) continue;
    await tx.update(links).set({ domainId: theirs.id }).where(eq(links.domainId, mine.id));
    await tx.delete(domains).where(eq(domains.id, mine.id));
    if (mine.verifiedAt && !theirs.verifiedAt)
      await tx.update(domains).set({ verifiedAt: mine.verifiedAt }).where(eq(domains.id, theirs.id));
  }
  await tx.update(domains).set({ userId: targetId }).where(eq(domains.userId, sourceId));
}

/**
 * Merge hook: the survivor keeps one row per chat. A chat both accounts hold stays the survivor's
 * (the merged-in row goes, its invites move to the survivor's row first so their history stays);
 * the others move.
 */
async function mergeChannels(tx: AsyncTx, sourceId: number, targetId: number): Promise<void> {
  const { channels, channelInvites } = tx.tables;
  const own = new Map(
    (await tx.select({ id: channels.id, chatId: channels.chatId }).from(channels).where(eq(channels.userId, targetId))).map((r) => [
      r.chatId,
      r.id,
    ]),
  );
  for (const row of await tx.select().from(channels).where(eq(channels.userId, sourceId))) {
    const survivor = own.get(row.chatId);
    if (survivor === undefined) continue;
    await tx.update(channelInvites).set({ channelId: survivor }).where(eq(channelInvites.channelId, row.id));
    await tx.delete(channels).where(eq(channels.id, row.id));
  }
  await tx.update(channels).set({ userId: targetId }).where(eq(channels.userId, sourceId));
}

/** Merge hook of a table with one row per user: the survivor keeps its row; without one it takes the merged-in account's. */
function survivorKeepsItsOwn(key: "webhookSecrets" | "userSettings") {
  return async (tx: AsyncTx, sourceId: number, targetId: number) => {
    const table = tx.tables[key];
    const [own] = await tx.select({ userId: table.userId }).from(table).where(eq(table.userId, targetId)).limit(1);
    if (own) await tx.delete(table).where(eq(table.userId, sourceId));
    else await tx.update(table).set({ userId: targetId }).where(eq(table.userId, sourceId));
  };
}

/**
 * Every table whose rows belong to a user, with the column that says whom. An account merge moves
 * ownership of all of them in one transaction. A feature that adds a table with a `user_id` column
 * adds it here (test/core/accounts/owned-tables.test.ts fails until it does), or to HANDLED_ELSEWHERE
 * with the reason.
 */
export const OWNED_TABLES: OwnedTable[] = [
  { key: "links" },
  // deleted links' codes and visits to dead codes stay with the account their links went to
  { key: "linkTombstones" },
  // one count per day, code and host: the merged-in account's counts add to the survivor's
  {
    key: "orphanVisitDays",
    async merge(tx, sourceId, targetId) {
      const { orphanVisitDays: days } = tx.tables;
      for (const row of await tx.select().from(days).where(eq(days.userId, sourceId)))
        await tx
          .insert(days)
          .values({ ...row, userId: targetId })
          .onConflictDoUpdate({
            target: [days.userId, days.day, days.code, days.host],
            set: { visits: sql`${days.visits} + ${row.visits}` },
          });
      await tx.delete(days).where(eq(days.userId, sourceId));
    },
  },
  // tag names are unique per user (case-insensitive): a merged-in tag whose name the survivor has
  // folds into the survivor's tag (its links follow); the others move
  {
    key: "tags",
    async merge(tx, sourceId, targetId) {
      const { tags, linkTags } = tx.tables;
      const own = new Map((await tx.select().from(tags).where(eq(tags.userId, targetId))).map((t) => [t.name.toLowerCase(), t.id]));
      for (const tag of await tx.select().from(tags).where(eq(tags.userId, sourceId)).orderBy(tags.id)) {
        const twin = own.get(tag.name.toLowerCase());
        if (twin === undefined) continue;
        const moving = await tx.select({ linkId: linkTags.linkId }).from(linkTags).where(eq(linkTags.tagId, tag.id));
        if (moving.length)
          await tx
            .insert(linkTags)
            .values(moving.map(({ linkId }) => ({ linkId, tagId: twin })))
            .onConflictDoNothing();
        await tx.delete(tags).where(eq(tags.id, tag.id)); // its link_tags rows go with it
      }
      await tx.update(tags).set({ userId: targetId }).where(eq(tags.userId, sourceId));
    },
  },
  { key: "pixels" },
  // one row per hostname and account: a hostname both accounts added folds into the survivor's row
  { key: "domains", merge: mergeDomains },
  { key: "secureFolders" },
  { key: "secureFiles" },
  { key: "secureLinks" },
  { key: "secureRequests" },
  { key: "trackers" },
  // one row per chat and account: a chat both accounts hold stays the survivor's
  { key: "channels", merge: mergeChannels },
  // an invite follows its account; the channels hook above re-points it when its channel row folds
  { key: "channelInvites" },
  // placements move with their bindings and views (those hang off the placement, not the user)
  { key: "placements" },
  // the channel's one join-request notice: a channel row the channels hook folds takes its notice along
  { key: "channelRequestNotices" },
  // one row per account and caller's id: the survivor keeps its own conversion where both reported one
  {
    key: "conversions",
    async merge(tx, sourceId, targetId) {
      const { conversions: c } = tx.tables;
      const own = await tx
        .select({ externalId: c.externalId })
        .from(c)
        .where(and(eq(c.userId, targetId), isNotNull(c.externalId)));
      const taken = own.map((r) => r.externalId!);
      if (taken.length) await tx.delete(c).where(and(eq(c.userId, sourceId), inArray(c.externalId, taken)));
      await tx.update(c).set({ userId: targetId }).where(eq(c.userId, sourceId));
    },
  },
  { key: "postbacks", merge: mergePostbacks },
  { key: "postbackKeys" },
  // one row per account, chat and topic: topics the survivor knows stay its own, the others move
  {
    key: "forumTopics",
    async merge(tx, sourceId, targetId) {
      const { forumTopics: f } = tx.tables;
      for (const row of await tx.select().from(f).where(eq(f.userId, targetId)))
        await tx.delete(f).where(and(eq(f.userId, sourceId), eq(f.chatId, row.chatId), eq(f.threadId, row.threadId)));
      await tx.update(f).set({ userId: targetId }).where(eq(f.userId, sourceId));
    },
  },
  // tokens follow their workspace; the ones the merged-in person made for team workspaces keep
  // working as the survivor's (whose memberships the next entry carries over)
  {
    key: "apiTokens",
    async merge(tx, sourceId, targetId) {
      const { apiTokens } = tx.tables;
      await tx.update(apiTokens).set({ userId: targetId }).where(eq(apiTokens.userId, sourceId));
      await tx.update(apiTokens).set({ madeBy: targetId }).where(eq(apiTokens.madeBy, sourceId));
    },
  },
  // team memberships move to the survivor; a team both belong to keeps the stronger of the two roles
  {
    key: "workspaceMembers",
    async merge(tx, sourceId, targetId) {
      const { workspaceMembers: m } = tx.tables;
      for (const mine of await tx.select().from(m).where(eq(m.userId, sourceId))) {
        const [theirs] = await tx
          .select()
          .from(m)
          .where(and(eq(m.workspaceId, mine.workspaceId), eq(m.userId, targetId)));
        if (!theirs) continue;
        if (!roleAtLeast(theirs.role, mine.role))
          await tx
            .update(m)
            .set({ role: mine.role })
            .where(and(eq(m.workspaceId, mine.workspaceId), eq(m.userId, targetId)));
        await tx.delete(m).where(and(eq(m.workspaceId, mine.workspaceId), eq(m.userId, sourceId)));
      }
      await tx.update(m).set({ userId: targetId }).where(eq(m.userId, sourceId));
    },
  },
  { key: "passkeys" },
  { key: "outbox" },
  // one signing secret per user: the survivor keeps its own; without one it takes the merged-in
  // account's, so receivers set up for that account's webhooks keep verifying the signatures
  { key: "webhookSecrets", merge: survivorKeepsItsOwn("webhookSecrets") },
  // one settings row per user (time zone, reports): the survivor's, else the merged-in account's
  { key: "userSettings", merge: survivorKeepsItsOwn("userSettings") },
];

/** Tables with a user column that a merge treats specially rather than moving wholesale. */
export const HANDLED_ELSEWHERE: Record<string, string> = {
  identities: "moved by the merge itself, after the link rules are checked",
  email_codes: "short-lived codes of the old account are deleted",
  refresh_tokens: "the old account's sessions are revoked",
  webauthn_challenges: "short-lived challenges of the old account are deleted",
};
