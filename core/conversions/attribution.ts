import { and, desc, eq, gte } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";
import { linkOfClickId } from "../clicks/click-id";

/** What a conversion was attributed to (the API's `attributed`). */
export interface Attribution {
  link_id: number | null;
  placement_id: number | null;
  invite_id: number | null;
}

/** How far back a Telegram user's join is looked for. */
const JOIN_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** The placement a link counts for: bound directly, else through an invite it stands in front of. */
async function placementOfLink(db: AsyncDbOrTx, linkId: number): Promise<number | null> {
  const { placementLinks, placementInvites, channelInvites } = db.tables;
  const [direct] = await db
    .select({ id: placementLinks.placementId })
    .from(placementLinks)
    .where(eq(placementLinks.linkId, linkId))
    .limit(1);
  if (direct) return direct.id;
  const [viaInvite] = await db
    .select({ id: placementInvites.placementId })
    .from(placementInvites)
    .innerJoin(channelInvites, eq(channelInvites.id, placementInvites.inviteId))
    .where(eq(channelInvites.linkId, linkId))
    .limit(1);
  return viaInvite?.id ?? null;
}

/**
 * A click id's link, when the link is `ownerId`'s: the id names its link (core/clicks/click-id.ts),
 * so a conversion reported before the click reached the database is attributed all the same. Another
 * account's click is never attributed (null, as for an unknown id).
 */
export async function attributeClick(db: AsyncDbOrTx, ownerId: number, clickId: string): Promise<Attribution | null> {
  const linkId = linkOfClickId(clickId);
  if (linkId === null) return null;
  const { links } = db.tables;
  const [link] = await db
    .select({ id: links.id })
    .from(links)
    .where(and(eq(links.id, linkId), eq(links.userId, ownerId)))
    .limit(1);
  if (!link) return null;
  return { link_id: link.id, placement_id: await placementOfLink(db, link.id), invite_id: null };
}

/** An invite of any account: its owner, its tracking link and its placement; null when it is gone. */
export async function inviteFacts(
  db: AsyncDbOrTx,
  inviteId: number,
): Promise<{ ownerId: number; linkId: number | null; placementId: number | null } | null> {
  const { channelInvites, placementInvites } = db.tables;
  const [row] = await db
    .select({ ownerId: channelInvites.userId, linkId: channelInvites.linkId, placementId: placementInvites.placementId })
    .from(channelInvites)
    .leftJoin(placementInvites, eq(placementInvites.inviteId, channelInvites.id))
    .where(eq(channelInvites.id, inviteId))
    .limit(1);
  return row ?? null;
}

/** A Telegram user's latest join through one of `ownerId`'s invites in the JOIN_WINDOW_MS before `now`. */
export async function attributeTelegramUser(db: AsyncDbOrTx, ownerId: number, tgUserId: number, now: Date): Promise<Attribution | null> {
  const { channelJoins, channelInvites, placementInvites } = db.tables;
  const [row] = await db
    .select({ inviteId: channelInvites.id, linkId: channelInvites.linkId, placementId: placementInvites.placementId })
    .from(channelJoins)
    .innerJoin(channelInvites, eq(channelInvites.id, channelJoins.inviteId))
    .leftJoin(placementInvites, eq(placementInvites.inviteId, channelInvites.id))
    .where(
      and(
        eq(channelJoins.memberId, tgUserId),
        eq(channelInvites.userId, ownerId),
        gte(channelJoins.joinedAt, new Date(now.getTime() - JOIN_WINDOW_MS)),
      ),
    )
    .orderBy(desc(channelJoins.joinedAt), desc(channelJoins.id))
    .limit(1);
  return row ? { link_id: row.linkId, placement_id: row.placementId, invite_id: row.inviteId } : null;
}
