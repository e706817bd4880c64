import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { transaction } from "../../db/async";
import { recordChannelEvent } from "../conversions/channel-events";

/** Why a join belongs to no invite of the service. */
type JoinVia = "invite" | "other_link" | "folder" | "request" | "none";

/** A `chat_member` update, as core needs it. */
export interface MemberChange {
  chatId: string;
  member: { id: number; username?: string | null; firstName?: string | null };
  oldStatus: string;
  /** `restricted` members count when `is_member` */
  oldIsMember?: boolean;
  newStatus: string;
  newIsMember?: boolean;
  /** the update's `date`, in seconds */
  date: number;
  /** `invite_link.invite_link`, when Telegram names the link */
  inviteLink?: string | null;
  viaJoinRequest?: boolean;
  viaFolder?: boolean;
}

const MEMBER = new Set(["creator", "administrator", "member"]);
const isMember = (status: string, flag?: boolean) => MEMBER.has(status) || (status === "restricted" && flag === true);

/**
 * Records one membership change of a person in a chat. A change that makes them a member is a join,
 * attributed to the service's invite whose link it carries, else to the invite of their approved join
 * request, else unattributed with the reason (`other_link`, `folder`, `request`, `none`); the reverse
 * is a leave, tied to their latest join up to that date (a leave of someone who joined before the bot
 * watched is kept without a join). Only chats that some account holds as a channel are journaled. The change (chat, person, new status, date) is written first under
 * a unique key: a repeat, after a retry or on another node, finds it there and changes nothing. The
 * chat's and the invite's counters move in the same transaction.
 * Returns what it counted.
 */
export async function recordMemberChange(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  change: MemberChange,
): Promise<"join" | "leave" | "repeat" | "none"> {
  const was = isMember(change.oldStatus, change.oldIsMember);
  const is = isMember(change.newStatus, change.newIsMember);
  if (was === is) return "none";
  const { channels } = deps.asyncDb.tables;
  // only chats some account holds as a channel are journaled
  if (!(await deps.asyncDb.select({ id: channels.id }).from(channels).where(eq(channels.chatId, change.chatId)).limit(1)).length)
    return "none";
  const at = new Date(change.date * 1000);
  return transaction(deps.asyncDb, async (tx) => {
    const { channelMemberUpdates, channelJoins, channelInvites, channelJoinRequests, channelChatCounts } = tx.tables;
    const fresh = await tx
      .insert(channelMemberUpdates)
      .values({ chatId: change.chatId, memberId: change.member.id, status: change.newStatus, date: at })
      .onConflictDoNothing()
      .returning({ id: channelMemberUpdates.id });
    if (!fresh.length) return "repeat";
    const person = {
      chatId: change.chatId,
      memberId: change.member.id,
      username: change.member.username ?? null,
      firstName: change.member.firstName ?? null,
    };
    if (is) {
      let inviteId: number | null = null;
      let via: JoinVia = "none";
      if (change.inviteLink) {
        const [own] = await tx
          .select({ id: channelInvites.id })
          .from(channelInvites)
          .where(and(eq(channelInvites.inviteLink, change.inviteLink), eq(channelInvites.chatId, change.chatId)))
          .limit(1);
        if (own) [inviteId, via] = [own.id, "invite"];
        else via = "other_link";
      }
      if (inviteId === null && change.viaJoinRequest) {
        const [req] = await tx
          .select({ inviteId: channelJoinRequests.inviteId })
          .from(channelJoinRequests)
          .where(
            and(
              eq(channelJoinRequests.chatId, change.chatId),
              eq(channelJoinRequests.memberId, change.member.id),
              eq(channelJoinRequests.status, "approved"),
            ),
          )
          .orderBy(desc(channelJoinRequests.requestedAt))
          .limit(1);
        if (req) [inviteId, via] = [req.inviteId, "invite"];
        else if (via === "none") via = "request";
      }
      if (inviteId === null && via === "none" && change.viaFolder) via = "folder";
      await tx.insert(channelJoins).values({ ...person, inviteId, via, viaJoinRequest: change.viaJoinRequest ?? false, joinedAt: at });
      await tx
        .insert(channelChatCounts)
        .values({ chatId: change.chatId, joins: 1 })
        .onConflictDoUpdate({ target: channelChatCounts.chatId, set: { joins: sql`${channelChatCounts.joins} + 1` } });
      if (inviteId !== null) {
        await tx
          .update(channelInvites)
          .set({ joins: sql`${channelInvites.joins} + 1` })
          .where(eq(channelInvites.id, inviteId));
        await recordChannelEvent(
          tx,
          { config: deps.config, now: deps.clock.now() },
          { event: "join", inviteId, tgUserId: change.member.id, at },
        );
      }
      return "join";
    }
    const [latest] = await tx
      .select({ id: channelJoins.id, leftAt: channelJoins.leftAt, inviteId: channelJoins.inviteId })
      .from(channelJoins)
      .where(and(eq(channelJoins.chatId, change.chatId), eq(channelJoins.memberId, change.member.id), lte(channelJoins.joinedAt, at)))
      .orderBy(desc(channelJoins.joinedAt), desc(channelJoins.id))
      .limit(1);
    if (latest && !latest.leftAt) {
      await tx.update(channelJoins).set({ leftAt: at }).where(eq(channelJoins.id, latest.id));
      if (latest.inviteId !== null) {
        await tx
          .update(channelInvites)
          .set({ leaves: sql`${channelInvites.leaves} + 1` })
          .where(eq(channelInvites.id, latest.inviteId));
        await recordChannelEvent(
          tx,
          { config: deps.config, now: deps.clock.now() },
          { event: "leave", inviteId: latest.inviteId, tgUserId: change.member.id, at },
        );
      }
    } else await tx.insert(channelJoins).values({ ...person, via: "none", joinedAt: null, leftAt: at });
    await tx
      .insert(channelChatCounts)
      .values({ chatId: change.chatId, leaves: 1 })
      .onConflictDoUpdate({ target: channelChatCounts.chatId, set: { leaves: sql`${channelChatCounts.leaves} + 1` } });
    return "leave";
  });
}
