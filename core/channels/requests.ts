import { t, type Language } from "../i18n/translate";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { AppError, Conflict, NotFound } from "../errors";
import { queueBotMessage } from "../delivery/outbox";
import { personName, refreshRequestNotice, tellRequests, waitingRequests } from "./request-notice";
import { transaction, type Tables } from "../../db/async";
import { recordChannelEvent } from "../conversions/channel-events";
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
 * Telegram refuses the approval) the invite's owner gets the channel's one message about its waiting
 * requests sent anew (core/channels/request-notice.ts).
 * A request through any other link is not the service's business (null), nor one through the invite
 * of someone who no longer runs the chat (it waits in Telegram for the chat's administrators).
 */
export async function recordJoinRequest(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "telegram" | "log" | "chatStandings">,
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
  const requestedAt = new Date(facts.date * 1000);
  // the request and the postbacks it causes commit together
  const row = await transaction(deps.asyncDb, async (tx) => {
    const [added] = await tx
      .insert(channelJoinRequests)
      .values({
        chatId: facts.chatId,
        inviteId: invite.id,
        memberId: facts.member.id,
        userChatId: facts.userChatId,
        username: facts.member.username ?? null,
        firstName: facts.member.firstName ?? null,
        requestedAt,
      })
      .onConflictDoNothing()
      .returning();
    if (added)
      await recordChannelEvent(
        tx,
        { config: deps.config, now },
        { event: "join_request", inviteId: invite.id, tgUserId: facts.member.id, at: requestedAt },
      );
    return added;
  });
  if (!row) return null;
  if (invite.welcome)
    await queueBotMessage(deps.asyncDb, now, {
      userId: invite.userId,
      topic: "channel_welcome",
      refId: row.id,
      chatId: facts.userChatId,
      params: { text: Bun.escapeHTML(invite.welcome) },
    });
  if (invite.approve === "auto") {
    try {
      return await settleRow(deps, row, "approve");
    } catch (e) {
      deps.log.warn(`channels: auto-approval of request ${row.id} failed: ${(e as Error).message}; asking the owner`);
    }
  }
  // the channel's one message about its waiting requests, sent anew with this one in it
  await tellRequests(deps, invite.userId, invite.channelId);
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

/** The request `id` (and its channel) if it came through one of the account's invites; 404 otherwise. */
async function ownedRequest(deps: Pick<Deps, "asyncDb">, userId: number, id: number) {
  const { channelInvites, channelJoinRequests } = deps.asyncDb.tables;
  const [hit] = await deps.asyncDb
    .select({ r: channelJoinRequests, channelId: channelInvites.channelId })
    .from(channelJoinRequests)
    .innerJoin(channelInvites, eq(channelInvites.id, channelJoinRequests.inviteId))
    .where(and(eq(channelJoinRequests.id, id), eq(channelInvites.userId, userId)))
    .limit(1);
  if (!hit) throw new NotFound("Join request");
  return hit;
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

/** A message of the account's chat whose button settled requests (updated with the others). */
export type PressedMessage = { chatId: number | string; messageId: number };

const esc = (s: string) => Bun.escapeHTML(s);

/**
 * Approves or declines a waiting request of one of the account's invites; settling it twice is a
 * 409. Every message about it is updated: the channel's notice, and `pressed`.
 */
export async function settleRequest(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram" | "chatStandings" | "log">,
  userId: number,
  id: number,
  action: "approve" | "decline",
  pressed?: PressedMessage,
): Promise<JoinRequestRow> {
  const { r: row, channelId } = await ownedRequest(deps, userId, id);
  await confirmPowers(deps, userId, row.chatId);
  const settled = await settleRow(deps, row, action);
  const said = (lang: Language) =>
    t(lang, action === "approve" ? "request-approved" : "request-declined", { name: esc(personName(lang, settled)) });
  await refreshRequestNotice(deps, userId, channelId, said, pressed);
  return settled;
}

/**
 * Approves every waiting request of channel `channelId` the account's invites brought (its rights
 * checked once, as for the channel's screen); a request Telegram refuses stays waiting and is
 * counted. The channel's notice, and `pressed`, say what was done.
 */
export async function approveAllRequests(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram" | "chatStandings" | "log">,
  userId: number,
  channelId: number,
  pressed?: PressedMessage,
): Promise<{ approved: number; refused: number }> {
  await runChannel(deps, userId, channelId);
  let approved = 0;
  let refused = 0;
  for (const { r } of await waitingRequests(deps, userId, channelId)) {
    try {
      await settleRow(deps, r, "approve");
      approved++;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // settled meanwhile by another press: not this one's to count
      if (e.code !== "already_settled") refused++;
    }
  }
  await refreshRequestNotice(deps, userId, channelId, (lang) => t(lang, "requests-approved-all", { count: approved, refused }), pressed);
  return { approved, refused };
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

/** The workspace that owns channel row `channelId` (404 when there is none). */
export async function channelWorkspace(deps: Pick<Deps, "asyncDb">, channelId: number): Promise<number> {
  const { channels } = deps.asyncDb.tables;
  const [hit] = await deps.asyncDb.select({ ownerId: channels.userId }).from(channels).where(eq(channels.id, channelId)).limit(1);
  if (!hit) throw new NotFound("Channel");
  return hit.ownerId;
}
