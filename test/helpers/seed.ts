/** Inserts one row into every user-owned table for a user, so merge tests can follow them. */
import { count, eq, getTableName } from "drizzle-orm";
import type { SqliteWriterDeps as Deps } from "../../core/clicks/listeners";
import * as s from "../../db/schema";
import { OWNED_TABLES } from "../../core/accounts/owned-tables";
import { enqueueBotMessage } from "../../core/delivery/outbox";

export function seedResources(deps: Pick<Deps, "db" | "clock">, userId: number, tag: string) {
  const now = deps.clock.now();
  const db = deps.db;
  const link = db.insert(s.links).values({ userId, code: `c-${tag}`, url: `https://example.com/${tag}` }).returning().get();
  const t = db.insert(s.tags).values({ userId, name: `tag-${tag}` }).returning().get();
  db.insert(s.linkTags).values({ linkId: link.id, tagId: t.id }).run();
  db.insert(s.clicks).values({ linkId: link.id, clickedAt: now, country: "DE" }).run();
  db.insert(s.pixels).values({ userId, name: `px-${tag}`, type: "facebook", pixelId: "123" }).run();
  db.insert(s.domains).values({ userId, hostname: `${tag}.example.org` }).run();
  const folder = db.insert(s.secureFolders).values({ userId, name: `folder-${tag}` }).returning().get();
  const file = db.insert(s.secureFiles).values({ userId, folderId: folder.id, name: "note", contentType: "text", textContent: "hi" }).returning().get();
  db.insert(s.secureLinks).values({ userId, fileId: file.id, code: `s-${tag}`, expiresAt: new Date(now.getTime() + 3600_000) }).run();
  db.insert(s.secureRequests).values({ userId, folderId: folder.id, code: `r-${tag}` }).run();
  db.insert(s.trackers).values({ userId, name: `tr-${tag}`, keyword: tag }).run();
  db.insert(s.apiTokens).values({ userId, name: `tok-${tag}`, scopes: ["*"], tokenHash: `hash-${tag}`, hint: "lbt_sk_x" }).run();
  db.insert(s.passkeys).values({ userId, credentialId: `cred-${tag}`, publicKey: Buffer.from([1, 2, 3]) }).run();
  enqueueBotMessage(db, now, { userId, topic: "notice", chatId: 1, params: { text: tag } });
  db.insert(s.webhookSecrets).values({ userId, secret: `whsec_${tag}` }).run();
  db.insert(s.linkTombstones).values({ userId, code: `gone-${tag}`, deletedAt: now }).run();
  db.insert(s.orphanVisits).values({ userId, code: `gone-${tag}`, host: null, visitedAt: now }).run();
  return { linkId: link.id, tagId: t.id, folderId: folder.id, fileId: file.id };
}

/** Tables holding one row per user: after merging two seeded accounts the survivor still has one. */
const ONE_PER_USER = new Set(["webhook_secrets"]);

/** What `ownedCounts` gives for the survivor of a merge of two accounts seeded by `seedResources`. */
export function mergedSeedCounts(): Record<string, number> {
  return Object.fromEntries(OWNED_TABLES.map(({ key }) => [getTableName(s[key]), ONE_PER_USER.has(getTableName(s[key])) ? 1 : 2]));
}

/** Rows per owned table that belong to `userId`, keyed by table name. */
export function ownedCounts(deps: Pick<Deps, "db">, userId: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { key } of OWNED_TABLES) {
    const table = s[key] as typeof s.links;
    out[getTableName(table)] = deps.db.select({ n: count() }).from(table).where(eq(table.userId, userId)).get()!.n;
  }
  return out;
}
