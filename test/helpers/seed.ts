/**
 * Inserts one row into every user-owned table for a user, so merge tests can follow them.
 * @both-databases: through the seam, with the tables of the app's database.
 */
import { count, eq, getTableName } from "drizzle-orm";
import type { Deps } from "../../core/deps";
import { OWNED_TABLES } from "../../core/accounts/owned-tables";
import { queueBotMessage } from "../../core/delivery/outbox";

export async function seedResources(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, tag: string) {
  const now = deps.clock.now();
  const db = deps.asyncDb;
  const s = db.tables;
  const [link] = await db
    .insert(s.links)
    .values({ userId, code: `c-${tag}`, url: `https://example.com/${tag}` })
    .returning();
  const [t] = await db
    .insert(s.tags)
    .values({ userId, name: `tag-${tag}` })
    .returning();
  await db.insert(s.linkTags).values({ linkId: link!.id, tagId: t!.id });
  await db.insert(s.clicks).values({ linkId: link!.id, clickedAt: now, country: "DE" });
  await db.insert(s.pixels).values({ userId, name: `px-${tag}`, type: "facebook", pixelId: "123" });
  await db.insert(s.domains).values({ userId, hostname: `${tag}.example.org` });
  const [folder] = await db
    .insert(s.secureFolders)
    .values({ userId, name: `folder-${tag}` })
    .returning();
  const [file] = await db
    .insert(s.secureFiles)
    .values({ userId, folderId: folder!.id, name: "note", contentType: "text", textContent: "hi" })
    .returning();
  await db.insert(s.secureLinks).values({ userId, fileId: file!.id, code: `s-${tag}`, expiresAt: new Date(now.getTime() + 3600_000) });
  await db.insert(s.secureRequests).values({ userId, folderId: folder!.id, code: `r-${tag}` });
  await db.insert(s.trackers).values({ userId, name: `tr-${tag}`, keyword: tag });
  const [channel] = await db
    .insert(s.channels)
    .values({ userId, chatId: `@chan-${tag}`, type: "channel", title: `chan-${tag}` })
    .returning();
  const [invite] = await db
    .insert(s.channelInvites)
    .values({ userId, channelId: channel!.id, chatId: channel!.chatId, name: `ad-${tag}`, inviteLink: `https://t.me/+${tag}` })
    .returning();
  const [placement] = await db
    .insert(s.placements)
    .values({ userId, name: `ad-${tag}`, venueKind: "other", venue: `venue-${tag}`, views: 10, viewsAt: now })
    .returning();
  await db.insert(s.placementLinks).values({ linkId: link!.id, placementId: placement!.id });
  await db.insert(s.placementInvites).values({ inviteId: invite!.id, placementId: placement!.id });
  await db.insert(s.placementViews).values({ placementId: placement!.id, at: now, views: 10, source: "manual" });
  await db.insert(s.apiTokens).values({ userId, name: `tok-${tag}`, scopes: ["*"], tokenHash: `hash-${tag}`, hint: "lbt_sk_x" });
  await db.insert(s.passkeys).values({ userId, credentialId: `cred-${tag}`, publicKey: Buffer.from([1, 2, 3]) });
  await queueBotMessage(db, now, { userId, topic: "notice", chatId: 1, params: { text: tag } });
  await db.insert(s.webhookSecrets).values({ userId, secret: `whsec_${tag}` });
  await db.insert(s.userSettings).values({ userId, timeZone: tag === "dst" ? "Europe/Moscow" : "Asia/Almaty", updatedAt: now });
  await db.insert(s.linkTombstones).values({ userId, code: `gone-${tag}`, deletedAt: now });
  await db
    .insert(s.orphanVisitDays)
    .values({ userId, code: `gone-${tag}`, day: new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000), visits: 2, lastAt: now });
  // conversions and postbacks, the tracker's forum topics, the channel's join-request notice
  await db.insert(s.conversions).values({ userId, event: "purchase", externalId: `order-${tag}`, occurredAt: now });
  await db.insert(s.postbacks).values({ userId, kind: "url", url: `https://net.example/${tag}`, method: "GET", events: ["click"] });
  await db.insert(s.postbackKeys).values({ userId, name: `key-${tag}`, keyHash: `kh-${tag}`, prefix: "pbk_x" });
  await db.insert(s.forumTopics).values({ userId, chatId: `chat-${tag}`, threadId: 5, name: `topic-${tag}` });
  await db.insert(s.channelRequestNotices).values({ userId, channelId: channel!.id, chatId: "1", messageId: 7 });
  const [team] = await db
    .insert(s.users)
    .values({ kind: "team", name: `team-${tag}` })
    .returning();
  await db.insert(s.workspaceMembers).values({ workspaceId: team!.id, userId, role: "editor", addedAt: now });
  return { linkId: link!.id, tagId: t!.id, folderId: folder!.id, fileId: file!.id };
}

/** Tables holding one row per user: after merging two seeded accounts the survivor still has one. */
const ONE_PER_USER = new Set(["webhook_secrets", "user_settings"]);

/** What `ownedCounts` gives for the survivor of a merge of two accounts seeded by `seedResources`. */
export function mergedSeedCounts(): Record<string, number> {
  return Object.fromEntries(OWNED_TABLES.map(({ key }) => [tableNameOf(key), ONE_PER_USER.has(tableNameOf(key)) ? 1 : 2]));
}

const tableNameOf = (key: (typeof OWNED_TABLES)[number]["key"]) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Rows per owned table that belong to `userId`, keyed by table name. */
export async function ownedCounts(deps: Pick<Deps, "asyncDb">, userId: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { key } of OWNED_TABLES) {
    const table = deps.asyncDb.tables[key] as typeof deps.asyncDb.tables.links;
    out[getTableName(table)] = Number((await deps.asyncDb.select({ n: count() }).from(table).where(eq(table.userId, userId)))[0]!.n);
  }
  return out;
}
