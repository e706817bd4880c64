import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { Conflict, NotFound } from "../errors";
import { getUser } from "../accounts/users";
import { assertWithinLimit } from "../accounts/plans";
import { countLinks, createLink } from "../links/links";
import { trackingUrlOf } from "../links/views";
import type { Tables } from "../../db/async";
import { ownedChannel, runChannel } from "./channels";
import { confirmPowers } from "./powers";
import { askTelegram, channelApi } from "./telegram";
import { checkInviteInput, type InviteInput } from "./invite-input";

export type InviteRow = Tables["channelInvites"]["$inferSelect"];

/** joins, leaves, net and waiting requests of each invite, by invite id */
async function countsOf(deps: Pick<Deps, "asyncDb">, ids: number[]) {
  const out = new Map<number, { joins: number; leaves: number; net: number; pending: number }>(
    ids.map((id) => [id, { joins: 0, leaves: 0, net: 0, pending: 0 }]),
  );
  if (!ids.length) return out;
  const { channelInvites, channelJoinRequests } = deps.asyncDb.tables;
  for (const r of await deps.asyncDb
    .select({ id: channelInvites.id, joins: channelInvites.joins, leaves: channelInvites.leaves })
    .from(channelInvites)
    .where(inArray(channelInvites.id, ids)))
    out.set(r.id, { joins: r.joins, leaves: r.leaves, net: r.joins - r.leaves, pending: 0 });
  const waiting = await deps.asyncDb
    .select({ id: channelJoinRequests.inviteId, n: count() })
    .from(channelJoinRequests)
    .where(and(inArray(channelJoinRequests.inviteId, ids), eq(channelJoinRequests.status, "pending")))
    .groupBy(channelJoinRequests.inviteId);
  for (const r of waiting) out.get(r.id)!.pending = Number(r.n);
  return out;
}

/** The API's invite objects for these rows (tracking URLs and counts looked up in two queries). */
export async function inviteViews(deps: Pick<Deps, "asyncDb" | "config">, rows: InviteRow[]) {
  const { links } = deps.asyncDb.tables;
  const linkIds = rows.map((r) => r.linkId).filter((x): x is number => x !== null);
  const codes = new Map(
    linkIds.length
      ? (await deps.asyncDb.select({ id: links.id, code: links.code }).from(links).where(inArray(links.id, linkIds))).map((l) => [
          l.id,
          l.code,
        ])
      : [],
  );
  const counts = await countsOf(
    deps,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const code = r.linkId !== null ? codes.get(r.linkId) : undefined;
    return {
      id: r.id,
      channel_id: r.channelId,
      name: r.name,
      invite_link: r.inviteLink,
      join_request: r.joinRequest,
      approve: r.approve,
      welcome: r.welcome,
      expires_at: r.expiresAt?.toISOString() ?? null,
      member_limit: r.memberLimit,
      cost: r.cost ?? null,
      link_id: code ? r.linkId : null,
      trackingUrl: code ? trackingUrlOf(deps, code) : null,
      is_revoked: r.isRevoked,
      created_at: r.createdAt.toISOString(),
      stats: counts.get(r.id)!,
    };
  });
}
export type InviteView = Awaited<ReturnType<typeof inviteViews>>[number];

export async function inviteView(deps: Pick<Deps, "asyncDb" | "config">, row: InviteRow): Promise<InviteView> {
  return (await inviteViews(deps, [row]))[0]!;
}

/** The invite `id` if the account owns it; 404 otherwise. */
export async function ownedInvite(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<InviteRow> {
  const { channelInvites } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select()
    .from(channelInvites)
    .where(and(eq(channelInvites.id, id), eq(channelInvites.userId, userId)))
    .limit(1);
  if (!row) throw new NotFound("Invite");
  return row;
}

/** The account's invites in one of its channels, newest first. */
export async function listInvites(deps: Pick<Deps, "asyncDb">, userId: number, channelId: number): Promise<InviteRow[]> {
  await ownedChannel(deps, userId, channelId);
  const { channelInvites } = deps.asyncDb.tables;
  return deps.asyncDb
    .select()
    .from(channelInvites)
    .where(and(eq(channelInvites.channelId, channelId), eq(channelInvites.userId, userId)))
    .orderBy(sql`${channelInvites.id} desc`);
}

/** The account's newest invites that still work, across its channels, each with its channel's title: what an ad buyer opens most. */
export async function recentInvites(
  deps: Pick<Deps, "asyncDb">,
  userId: number,
  limit: number,
): Promise<(InviteRow & { channelTitle: string })[]> {
  const { channelInvites, channels } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ invite: channelInvites, title: channels.title, chatId: channels.chatId })
    .from(channelInvites)
    .innerJoin(channels, eq(channels.id, channelInvites.channelId))
    .where(and(eq(channelInvites.userId, userId), eq(channelInvites.isRevoked, false)))
    .orderBy(sql`${channelInvites.id} desc`)
    .limit(limit);
  return rows.map((r) => ({ ...r.invite, channelTitle: r.title ?? r.chatId }));
}

const unixOf = (d: Date | null | undefined) => (d ? Math.floor(d.getTime() / 1000) : undefined);

/**
 * Makes an invite link in a channel the account holds (createChatInviteLink), checked first so a bad
 * value changes nothing. With `link: true` a tracking link to it is made too (counted against the
 * plan, checked before Telegram is asked); if that fails after all, the invite link is revoked again.
 */
export async function createInvite(deps: Deps, userId: number, channelId: number, input: InviteInput): Promise<InviteRow> {
  const channel = await runChannel(deps, userId, channelId);
  const patch = checkInviteInput(deps, input);
  const user = await getUser(deps, userId);
  if (input.link) assertWithinLimit(deps, user, "links", await countLinks(deps, userId));
  const api = channelApi(deps);
  const joinRequest = patch.joinRequest ?? false;
  const made = await askTelegram(() =>
    api.createChatInviteLink(channel.chatId, {
      name: patch.name,
      creates_join_request: joinRequest,
      ...(patch.expiresAt ? { expire_date: unixOf(patch.expiresAt) } : {}),
      ...(patch.memberLimit ? { member_limit: patch.memberLimit } : {}),
    }),
  );
  const { channelInvites } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .insert(channelInvites)
    .values({
      userId,
      channelId,
      chatId: channel.chatId,
      name: patch.name!,
      inviteLink: made.invite_link,
      joinRequest,
      approve: patch.approve ?? "auto",
      welcome: patch.welcome ?? null,
      expiresAt: patch.expiresAt ?? null,
      memberLimit: patch.memberLimit ?? null,
      cost: patch.cost ?? null,
      createdAt: deps.clock.now(),
    })
    .returning();
  if (!input.link) return row!;
  try {
    const link = await createLink(deps, user, { url: made.invite_link, title: `${channel.title ?? channel.chatId}: ${patch.name}` });
    const [bound] = await deps.asyncDb.update(channelInvites).set({ linkId: link.id }).where(eq(channelInvites.id, row!.id)).returning();
    return bound!;
  } catch (e) {
    await deps.asyncDb.delete(channelInvites).where(eq(channelInvites.id, row!.id));
    await api.revokeChatInviteLink(channel.chatId, made.invite_link).catch(() => undefined);
    throw e;
  }
}

/**
 * Edits an invite. Name, expiry and member limit are Telegram's and go through editChatInviteLink
 * (every field it holds is sent, as Telegram resets the ones left out); cost, welcome and approval
 * are the service's own. A revoked invite keeps its Telegram fields (409).
 */
export async function updateInvite(deps: Deps, userId: number, id: number, input: InviteInput): Promise<InviteRow> {
  const existing = await ownedInvite(deps, userId, id);
  const patch = checkInviteInput(deps, input, existing);
  await confirmPowers(deps, userId, existing.chatId);
  const telegramSide = patch.name !== undefined || patch.expiresAt !== undefined || patch.memberLimit !== undefined;
  if (telegramSide) {
    if (existing.isRevoked)
      throw new Conflict("This invite link is revoked: its name, expiry and member limit can no longer change", "invite_revoked");
    const api = channelApi(deps);
    const expiresAt = patch.expiresAt !== undefined ? patch.expiresAt : existing.expiresAt;
    const memberLimit = patch.memberLimit !== undefined ? patch.memberLimit : existing.memberLimit;
    await askTelegram(() =>
      api.editChatInviteLink(existing.chatId, existing.inviteLink, {
        name: patch.name ?? existing.name,
        creates_join_request: existing.joinRequest,
        expire_date: unixOf(expiresAt) ?? 0,
        ...(existing.joinRequest ? {} : { member_limit: memberLimit ?? 0 }),
      }),
    );
  }
  const { channelInvites } = deps.asyncDb.tables;
  const { joinRequest: _fixed, ...set } = patch;
  if (!Object.keys(set).length) return existing;
  const [row] = await deps.asyncDb.update(channelInvites).set(set).where(eq(channelInvites.id, id)).returning();
  return row!;
}

/** Revokes an invite link (revokeChatInviteLink); its history stays. Revoking again changes nothing. */
export async function revokeInvite(deps: Deps, userId: number, id: number): Promise<InviteRow> {
  const existing = await ownedInvite(deps, userId, id);
  if (existing.isRevoked) return existing;
  await confirmPowers(deps, userId, existing.chatId);
  const api = channelApi(deps);
  await askTelegram(() => api.revokeChatInviteLink(existing.chatId, existing.inviteLink));
  const { channelInvites } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb.update(channelInvites).set({ isRevoked: true }).where(eq(channelInvites.id, id)).returning();
  return row!;
}

/** The account's invite a tracking link stands in front of, if any (the link card shows its joins). */
export async function inviteOfLink(deps: Pick<Deps, "asyncDb">, userId: number, linkId: number): Promise<InviteRow | null> {
  const { channelInvites } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select()
    .from(channelInvites)
    .where(and(eq(channelInvites.linkId, linkId), eq(channelInvites.userId, userId)))
    .limit(1);
  return row ?? null;
}
