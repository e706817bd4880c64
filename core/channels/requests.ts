import { queueToWorkspace } from "../team-chat/destinations";
import { t } from "../i18n/translate";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { Conflict, NotFound } from "../errors";
import { queueBotMessage } from "../delivery/outbox";
import { targetButton } from "../deep-link";
import type { Tables } from "../../db/async";
import { runChannel } from "./channels";
import { confirmPowers, holdsChat } from "./powers";
import { askTelegram, channelApi } from "./telegram";

export type JoinRequestRow = Tables["channelJoinRequests"]["$inferSelect"];

/** A `chat_join_request` update, as core needs it. */
export interface JoinRequestFacts {
  chatId: string;
  member: { id: number; username?: string | null; firstName?: string | null };
  /** where a message to the person goes (Telegram allows it for five minutes) */
  userChatId: number;
  /** the update's `date`, in seconds */
  date: number;
  inviteLink?: string | null;
}

/** The callback data of the Approve / Decline buttons under the owner's message. */
const requestButton = (action: "approve" | "decline", id: number) => `jr:${action}:${id}`;

export function requestView(r: JoinRequestRow) {
  return {
    id: r.id,
    user_id: r.memberId,
    username: r.username,
    first_name: r.firstName,
    invite_id: r.inviteId,
    requested_at: r.requestedAt.toISOString(),
    status: r.status,
  };
}

/**
 * A request to join through one of the service's invites with join requests. Recorded once (a repeat
 * of the same request changes nothing); the invite's welcome is queued to the person at once; with
 * approval "auto" the request is approved now (approveChatJoinRequest), with "manual" (or when
 * Telegram refuses the approval) the invite's owner gets a message with Approve and Decline.
 * A request through any other link is not the service's business (null), nor one through the invite
 * of someone who no longer runs the chat (it waits in Telegram for the chat's administrators).
 */
export async function recordJoinRequest(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram" | "log" | "chatStandings">,
  facts: JoinRequestFacts,
): Promise<JoinRequestRow | null> {
  if (!facts.inviteLink) return null;
  const { channelInvites, channelJoinRequests } = deps.asyncDb.tables;
  const [invite] = await deps.asyncDb
    .select()
    .from(channelInvites)
    .where(and(eq(channelInvites.inviteLink, facts.inviteLink), eq(channelInvites.chatId, facts.chatId)))
    .limit(1);
  if (!invite) return null;
  // an invite of someone who no longer runs the chat: the request waits in Telegram for the chat's administrators
  if (!(await holdsChat(deps, invite.userId, facts.chatId))) {
    deps.log.info(
      `channels: a request through invite ${invite.id} is left to the chat's administrators: its owner no longer runs ${facts.chatId}`,
    );
    return null;
  }
  const now = deps.clock.now();
  const [row] = await deps.asyncDb
    .insert(channelJoinRequests)
    .values({
      chatId: facts.chatId,
      inviteId: invite.id,
      memberId: facts.member.id,
      userChatId: facts.userChatId,
      username: facts.member.username ?? null,
      firstName: facts.member.firstName ?? null,
      requestedAt: new Date(facts.date * 1000),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return null;
  if (invite.welcome)
    await queueBotMessage(deps.asyncDb, now, {
      userId: invite.userId,
      topic: "channel_welcome",
      refId: row.id,
      chatId: facts.userChatId,
      params: { text: invite.welcome },
    });
  if (invite.approve === "auto") {
    try {
      return await settleRow(deps, row, "approve");
    } catch (e) {
      deps.log.warn(`channels: auto-approval of request ${row.id} failed: ${(e as Error).message}; asking the owner`);
    }
  }
  // to the workspace's team group when it has one, else to its owner (a team's owners and admins)
  const named = [facts.member.firstName, facts.member.username ? `@${facts.member.username}` : null].filter(Boolean).join(" ");
  await queueToWorkspace(deps.asyncDb, now, { userId: invite.userId, topic: "channel_request", refId: row.id }, (lang) => ({
    text: t(lang, "join-request-asks", { who: named || t(lang, "join-request-user", { id: facts.member.id }), invite: invite.name }),
    reply_markup: {
      inline_keyboard: [
        [
          { text: t(lang, "join-request-approve"), callback_data: requestButton("approve", row.id) },
          { text: t(lang, "join-request-decline"), callback_data: requestButton("decline", row.id) },
        ],
        [targetButton(t(lang, "join-request-open-invite"), { kind: "invite", id: invite.id })],
      ],
    },
  }));
  return row;
}

/** The waiting requests of a channel's invites the account owns, newest first. */
export async function listRequests(
  deps: Pick<Deps, "asyncDb" | "telegram" | "chatStandings">,
  userId: number,
  channelId: number,
): Promise<JoinRequestRow[]> {
  await runChannel(deps, userId, channelId);
  const { channelInvites, channelJoinRequests } = deps.asyncDb.tables;
  const ids = (
    await deps.asyncDb
      .select({ id: channelInvites.id })
      .from(channelInvites)
      .where(and(eq(channelInvites.channelId, channelId), eq(channelInvites.userId, userId)))
  ).map((r) => r.id);
  if (!ids.length) return [];
  return deps.asyncDb
    .select()
    .from(channelJoinRequests)
    .where(and(inArray(channelJoinRequests.inviteId, ids), eq(channelJoinRequests.status, "pending")))
    .orderBy(desc(channelJoinRequests.requestedAt), desc(channelJoinRequests.id));
}

/** The request `id` if it came through one of the account's invites; 404 otherwise. */
async function ownedRequest(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<JoinRequestRow> {
  const { channelInvites, channelJoinRequests } = deps.asyncDb.tables;
  const [hit] = await deps.asyncDb
    .select({ r: channelJoinRequests })
    .from(channelJoinRequests)
    .innerJoin(channelInvites, eq(channelInvites.id, channelJoinRequests.inviteId))
    .where(and(eq(channelJoinRequests.id, id), eq(channelInvites.userId, userId)))
    .limit(1);
  if (!hit) throw new NotFound("Join request");
  return hit.r;
}

/**
 * Takes the request (pending → settled) first, so two settlements at once cannot both pass, then
 * asks Telegram; a refusal puts it back to pending and is a 409 `telegram_refused`.
 */
async function settleRow(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram">,
  row: JoinRequestRow,
  action: "approve" | "decline",
): Promise<JoinRequestRow> {
  const { channelJoinRequests } = deps.asyncDb.tables;
  const status = action === "approve" ? "approved" : "declined";
  const [taken] = await deps.asyncDb
    .update(channelJoinRequests)
    .set({ status, settledAt: deps.clock.now() })
    .where(and(eq(channelJoinRequests.id, row.id), eq(channelJoinRequests.status, "pending")))
    .returning();
  if (!taken) throw new Conflict("This join request is already settled", "already_settled");
  const api = channelApi(deps);
  try {
    await askTelegram(() =>
      action === "approve" ? api.approveChatJoinRequest(row.chatId, row.memberId) : api.declineChatJoinRequest(row.chatId, row.memberId),
    );
  } catch (e) {
    await deps.asyncDb.update(channelJoinRequests).set({ status: "pending", settledAt: null }).where(eq(channelJoinRequests.id, row.id));
    throw e;
  }
  return taken;
}

/** Approves or declines a waiting request of one of the account's invites; settling it twice is a 409. */
export async function settleRequest(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram" | "chatStandings">,
  userId: number,
  id: number,
  action: "approve" | "decline",
): Promise<JoinRequestRow> {
  const row = await ownedRequest(deps, userId, id);
  await confirmPowers(deps, userId, row.chatId);
  return settleRow(deps, row, action);
}

/**
 * The workspace a join request belongs to (that of its invite), for a button pressed in a team's
 * group or by one of its admins whatever workspace they are in; 404 when the request is gone.
 */
export async function requestWorkspace(deps: Pick<Deps, "asyncDb">, id: number): Promise<number> {
  const { channelInvites, channelJoinRequests } = deps.asyncDb.tables;
  const [hit] = await deps.asyncDb
    .select({ ownerId: channelInvites.userId })
    .from(channelJoinRequests)
    .innerJoin(channelInvites, eq(channelInvites.id, channelJoinRequests.inviteId))
    .where(eq(channelJoinRequests.id, id))
    .limit(1);
  if (!hit) throw new NotFound("Join request");
  return hit.ownerId;
}
