import type { Tx } from "../../db/transaction";
import { and, eq, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as s from "../../db/schema";
import type { Deps } from "../deps";

/**
 * A user-owned table. By default a merge re-points `owner` from the old account to the new one.
 * A table with a per-user unique key (say, tag names) gives `merge` instead: it runs inside the
 * merge transaction and must leave no row owned by `sourceId` (rename, fold or delete clashes first).
 */
export interface OwnedTable {
  table: SQLiteTable;
  owner: SQLiteColumn;
  merge?: (tx: Tx, sourceId: number, targetId: number) => void;
}

/**
 * Merge hook: the survivor keeps one row per hostname. A clashing row of the merged-in account has
 * its links moved to the survivor's row (which becomes verified when the merged-in one was), then goes.
 */
function mergeDomains(tx: Tx, sourceId: number, targetId: number): void {
  for (const mine of tx.select().from(s.domains).where(eq(s.domains.userId, sourceId)).all()) {
    const theirs = tx.select().from(s.domains).where(and(eq(s.domains.userId, targetId), eq(s.domains.hostname, mine.hostname))).get();
    if (!theirs) continue;
    tx.update(s.links).set({ domainId: theirs.id }).where(eq(s.links.domainId, mine.id)).run();
    tx.delete(s.domains).where(eq(s.domains.id, mine.id)).run();
    if (mine.verifiedAt && !theirs.verifiedAt) tx.update(s.domains).set({ verifiedAt: mine.verifiedAt }).where(eq(s.domains.id, theirs.id)).run();
  }
  tx.update(s.domains).set({ userId: targetId }).where(eq(s.domains.userId, sourceId)).run();
}

/**
 * Every table whose rows belong to a user, with the column that says whom. An account merge moves
 * ownership of all of them in one transaction. A feature that adds a table with a `user_id` column
 * adds it here (test/core/accounts/owned-tables.test.ts fails until it does), or to HANDLED_ELSEWHERE
 * with the reason.
 */
export const OWNED_TABLES: OwnedTable[] = [
  { table: s.links, owner: s.links.userId },
  // deleted links' codes and visits to dead codes stay with the account their links went to
  { table: s.linkTombstones, owner: s.linkTombstones.userId },
  { table: s.orphanVisits, owner: s.orphanVisits.userId },
  // tag names are unique per user (case-insensitive): a merged-in tag whose name the survivor has
  // folds into the survivor's tag (its links follow); the others move
  {
    table: s.tags,
    owner: s.tags.userId,
    merge(tx, sourceId, targetId) {
      const own = new Map(tx.select().from(s.tags).where(eq(s.tags.userId, targetId)).all().map((t) => [t.name.toLowerCase(), t.id]));
      for (const tag of tx.select().from(s.tags).where(eq(s.tags.userId, sourceId)).all()) {
        const twin = own.get(tag.name.toLowerCase());
        if (twin === undefined) continue;
        tx.run(sql`insert or ignore into ${s.linkTags} (link_id, tag_id) select link_id, ${twin} from ${s.linkTags} where tag_id = ${tag.id}`);
        tx.delete(s.tags).where(eq(s.tags.id, tag.id)).run(); // its link_tags rows go with it
      }
      tx.update(s.tags).set({ userId: targetId }).where(eq(s.tags.userId, sourceId)).run();
    },
  },
  { table: s.pixels, owner: s.pixels.userId },
  // one row per hostname and account: a hostname both accounts added folds into the survivor's row
  { table: s.domains, owner: s.domains.userId, merge: mergeDomains },
  { table: s.secureFolders, owner: s.secureFolders.userId },
  { table: s.secureFiles, owner: s.secureFiles.userId },
  { table: s.secureLinks, owner: s.secureLinks.userId },
  { table: s.secureRequests, owner: s.secureRequests.userId },
  { table: s.trackers, owner: s.trackers.userId },
  { table: s.apiTokens, owner: s.apiTokens.userId },
  { table: s.passkeys, owner: s.passkeys.userId },
  { table: s.outbox, owner: s.outbox.userId },
  // one signing secret per user: the survivor keeps its own; without one it takes the merged-in
  // account's, so receivers set up for that account's webhooks keep verifying the signatures
  {
    table: s.webhookSecrets,
    owner: s.webhookSecrets.userId,
    merge(tx, sourceId, targetId) {
      const own = tx.select({ userId: s.webhookSecrets.userId }).from(s.webhookSecrets).where(eq(s.webhookSecrets.userId, targetId)).get();
      if (own) tx.delete(s.webhookSecrets).where(eq(s.webhookSecrets.userId, sourceId)).run();
      else tx.update(s.webhookSecrets).set({ userId: targetId }).where(eq(s.webhookSecrets.userId, sourceId)).run();
    },
  },
];

/** Tables with a user column that a merge treats specially rather than moving wholesale. */
export const HANDLED_ELSEWHERE: Record<string, string> = {
  identities: "moved by the merge itself, after the link rules are checked",
  email_codes: "short-lived codes of the old account are deleted",
  refresh_tokens: "the old account's sessions are revoked",
  webauthn_challenges: "short-lived challenges of the old account are deleted",
};
