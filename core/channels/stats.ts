import { conversionStats } from "../conversions/stats";
import { and, count, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { NotFound } from "../errors";
import { runChannel } from "./channels";
import { ownedInvite } from "./invites";
import { RETENTION_WINDOWS, ratio, retention } from "./retention";

/** One retention window over joins (`joinedAt`, `leftAt` in ms) as of `now`. */
function retentionOf(joins: { joinedAt: number; leftAt: number | null }[], now: number, window: number) {
  let eligible = 0;
  let stayed = 0;
  for (const j of joins) {
    if (now - j.joinedAt < window) continue;
    eligible++;
    if (j.leftAt === null || j.leftAt - j.joinedAt >= window) stayed++;
  }
  return retention(stayed, eligible);
}

/**
 * The figures of one invite (CONTRACT §8): clicks and unique clicks of its tracking link (0 without
 * one), joins, leaves, net, conversion (joins per unique click), retention after 24 h, 7 d and 30 d
 * counted from the updates' dates against the clock, and what a join and a subscriber who stayed
 * 7 days cost (null without a cost or with nobody to divide by; rounded to hundredths).
 */
export async function inviteStats(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, id: number) {
  const invite = await ownedInvite(deps, userId, id);
  const { links, channelJoins } = deps.asyncDb.tables;
  let clicks = 0;
  let unique = 0;
  if (invite.linkId !== null) {
    const [link] = await deps.asyncDb
      .select({ total: links.totalClicks, bots: links.botClicks, unique: links.uniqueClicks })
      .from(links)
      .where(eq(links.id, invite.linkId))
      .limit(1);
    if (link) [clicks, unique] = [link.total - link.bots, link.unique];
  }
  const rows = await deps.asyncDb
    .select({ joinedAt: channelJoins.joinedAt, leftAt: channelJoins.leftAt })
    .from(channelJoins)
    .where(and(eq(channelJoins.inviteId, id), isNotNull(channelJoins.joinedAt)));
  const joins = rows.map((r) => ({ joinedAt: r.joinedAt!.getTime(), leftAt: r.leftAt?.getTime() ?? null }));
  const leaves = joins.filter((j) => j.leftAt !== null).length;
  const now = deps.clock.now().getTime();
  const kept = {
    h24: retentionOf(joins, now, RETENTION_WINDOWS.h24),
    d7: retentionOf(joins, now, RETENTION_WINDOWS.d7),
    d30: retentionOf(joins, now, RETENTION_WINDOWS.d30),
  };
  const amount = invite.cost?.amount;
  return {
    clicks,
    unique_clicks: unique,
    joins: joins.length,
    leaves,
    net: joins.length - leaves,
    conversion: ratio(joins.length, unique),
    retention: kept,
    cost_per_join: amount === undefined ? null : ratio(amount, joins.length, 2),
    cost_per_retained: amount === undefined ? null : ratio(amount, kept.d7.stayed, 2),
    conversions: await conversionStats(deps, userId, { inviteId: id }),
  };
}

/**
 * A channel's figures: joins, leaves and net in its chat, the member count, the account's invites
 * one by one, and the joins no invite of the service explains. Joins through another
 * administrator's invites count in the totals only.
 */
export async function channelStats(deps: Pick<Deps, "asyncDb" | "telegram" | "chatStandings">, userId: number, channelId: number) {
  const channel = await runChannel(deps, userId, channelId);
  const { channelInvites, channelChatCounts } = deps.asyncDb.tables;
  const [chat] = await deps.asyncDb.select().from(channelChatCounts).where(eq(channelChatCounts.chatId, channel.chatId)).limit(1);
  // joins through any account's invites; the rest of the chat's are unattributed
  const [through] = await deps.asyncDb
    .select({
      joins: sql<number>`coalesce(sum(${channelInvites.joins}), 0)`,
      leaves: sql<number>`coalesce(sum(${channelInvites.leaves}), 0)`,
    })
    .from(channelInvites)
    .where(eq(channelInvites.chatId, channel.chatId));
  const invites = await deps.asyncDb
    .select({ id: channelInvites.id, name: channelInvites.name, joins: channelInvites.joins, leaves: channelInvites.leaves })
    .from(channelInvites)
    .where(and(eq(channelInvites.channelId, channelId), eq(channelInvites.userId, userId)))
    .orderBy(channelInvites.id);
  const joins = chat?.joins ?? 0;
  const leaves = chat?.leaves ?? 0;
  return {
    joins,
    leaves,
    net: joins - leaves,
    members: channel.members,
    by_invite: invites.map((i) => ({ invite_id: i.id, name: i.name, joins: i.joins, leaves: i.leaves, net: i.joins - i.leaves })),
    unattributed: { joins: joins - Number(through?.joins ?? 0), leaves: leaves - Number(through?.leaves ?? 0) },
  };
}

/**
 * A page of a channel's join journal, newest join first (leaves of people who joined before the
 * bot watched come last): who, through which of the account's invites or why none, when they
 * joined and left. `inviteId` narrows it to one of the account's invites (404 for anyone else's).
 */
export async function joinJournal(
  deps: Pick<Deps, "asyncDb" | "telegram" | "chatStandings">,
  userId: number,
  channelId: number,
  q: { page?: number; limit?: number; inviteId?: number },
) {
  const channel = await runChannel(deps, userId, channelId);
  const { channelJoins, channelInvites } = deps.asyncDb.tables;
  const own = new Set(
    (
      await deps.asyncDb
        .select({ id: channelInvites.id })
        .from(channelInvites)
        .where(and(eq(channelInvites.channelId, channelId), eq(channelInvites.userId, userId)))
    ).map((r) => r.id),
  );
  if (q.inviteId !== undefined && !own.has(q.inviteId)) throw new NotFound("Invite");
  const page = q.page ?? 1;
  const limit = q.limit ?? 50;
  const where = and(eq(channelJoins.chatId, channel.chatId), q.inviteId !== undefined ? eq(channelJoins.inviteId, q.inviteId) : undefined);
  const [{ n }] = (await deps.asyncDb.select({ n: count() }).from(channelJoins).where(where)) as [{ n: number }];
  const rows = await deps.asyncDb
    .select()
    .from(channelJoins)
    .where(where)
    // SQLite sorts nulls last in a descending order by itself, and then walks the index
    .orderBy(
      deps.asyncDb.engine === "sqlite" ? desc(channelJoins.joinedAt) : sql`${channelJoins.joinedAt} desc nulls last`,
      desc(channelJoins.id),
    )
    .limit(limit)
    .offset((page - 1) * limit);
  return {
    data: rows.map((r) => {
      const mine = r.inviteId !== null && own.has(r.inviteId);
      return {
        user_id: r.memberId,
        username: r.username,
        first_name: r.firstName,
        invite_id: mine ? r.inviteId : null,
        via: r.via === "invite" && !mine ? "other_link" : r.via,
        via_join_request: r.viaJoinRequest,
        joined_at: r.joinedAt?.toISOString() ?? null,
        left_at: r.leftAt?.toISOString() ?? null,
      };
    }),
    total: Number(n),
    page,
    limit,
  };
}

/** Joins and leaves in a channel's chat since `since` (the bot's "today"). */
export async function channelSince(
  deps: Pick<Deps, "asyncDb" | "telegram" | "chatStandings">,
  userId: number,
  channelId: number,
  since: Date,
) {
  const channel = await runChannel(deps, userId, channelId);
  const { channelJoins } = deps.asyncDb.tables;
  const [j] = await deps.asyncDb
    .select({ n: count() })
    .from(channelJoins)
    .where(and(eq(channelJoins.chatId, channel.chatId), gte(channelJoins.joinedAt, since)));
  const [l] = await deps.asyncDb
    .select({ n: count() })
    .from(channelJoins)
    .where(and(eq(channelJoins.chatId, channel.chatId), gte(channelJoins.leftAt, since)));
  return { joins: Number(j?.n ?? 0), leaves: Number(l?.n ?? 0) };
}
