import { and, eq, isNull, ne, or } from "drizzle-orm";
import type { Deps } from "../deps";
import { transaction, type Tables } from "../../db/async";
import { upsertTelegramUser, type TelegramProfile } from "../accounts/users";
import { standingIn } from "./powers";

export type ChannelRow = Tables["channels"]["$inferSelect"];

/** A chat as an update names it. */
export interface ChatFacts {
  chatId: string;
  type: "channel" | "group" | "supergroup";
  title?: string | null;
  username?: string | null;
}

/** What the bot's own membership in a chat says, as a `my_chat_member` update gives it. */
export interface BotMembership {
  /** the bot is an administrator (or the creator) there */
  isAdmin: boolean;
  /** the bot's can_invite_users right */
  canInvite: boolean;
}

/**
 * Records a change of the bot's own membership in a chat. When the bot becomes an administrator,
 * the chat becomes a channel of the account of `by` (the Telegram user who made it one; their
 * account is created on this first contact when they have none). When it stops being one, every
 * account's row for that chat is marked `bot_is_admin = false`: the chat no longer feeds their
 * private trackers and makes no invites, but its history stays. Returns the owner's row, if any.
 */
export async function recordBotMembership(
  deps: Pick<Deps, "asyncDb" | "clock">,
  chat: ChatFacts,
  by: TelegramProfile | null,
  bot: BotMembership,
  members: number | null | undefined,
): Promise<ChannelRow | null> {
  const { channels } = deps.asyncDb.tables;
  const facts = {
    type: chat.type,
    title: chat.title ?? null,
    username: chat.username ?? null,
    canInvite: bot.isAdmin && bot.canInvite,
    botIsAdmin: bot.isAdmin,
    ...(members !== undefined ? { members } : {}),
  };
  // every account that holds the chat sees the bot's current rights and the chat's current name
  await deps.asyncDb.update(channels).set(facts).where(eq(channels.chatId, chat.chatId));
  if (!bot.isAdmin || !by) return null;
  const owner = await upsertTelegramUser(deps, by);
  const [row] = await deps.asyncDb
    .insert(channels)
    .values({ userId: owner.id, chatId: chat.chatId, createdAt: deps.clock.now(), ...facts })
    .onConflictDoUpdate({ target: [channels.userId, channels.chatId], set: facts })
    .returning();
  return row ?? null;
}

/**
 * The accounts a chat without a public username may feed: those that own it as a channel while the
 * bot is an administrator there and whose Telegram user still runs it (creator, or administrator
 * with the right to invite users: confirmed with Telegram, cached for a minute). A private chat
 * feeds nobody else's trackers; when a standing cannot be confirmed, that account is left out.
 */
export async function privateChatOwners(
  deps: Pick<Deps, "asyncDb" | "telegram" | "chatStandings" | "log">,
  chatId: string,
): Promise<Set<number>> {
  const { channels, users } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ userId: channels.userId, personId: users.msgrId })
    .from(channels)
    .innerJoin(users, eq(users.id, channels.userId))
    .where(and(eq(channels.chatId, chatId), eq(channels.botIsAdmin, true)));
  const out = new Set<number>();
  for (const row of rows) {
    if (row.personId === null) continue;
    try {
      if ((await standingIn(deps, chatId, row.personId)).holds) out.add(row.userId);
    } catch (e) {
      deps.log.warn(`channels: ${chatId} feeds no trackers of account ${row.userId} for now: ${(e as Error).message}`);
    }
  }
  return out;
}

/** A group upgraded to a supergroup keeps its owners under the new chat id. */
export async function migrateChannel(deps: Pick<Deps, "asyncDb">, fromChatId: string, toChatId: string): Promise<void> {
  const { channels } = deps.asyncDb.tables;
  await transaction(deps.asyncDb, async (tx) => {
    const moved = new Set(
      (await tx.select({ userId: channels.userId }).from(channels).where(eq(channels.chatId, toChatId))).map((r) => r.userId),
    );
    for (const row of await tx.select().from(channels).where(eq(channels.chatId, fromChatId)))
      if (moved.has(row.userId)) await tx.delete(channels).where(eq(channels.id, row.id));
    await tx.update(channels).set({ chatId: toChatId, type: "supergroup" }).where(eq(channels.chatId, fromChatId));
  });
}

/**
 * Refreshes the member count of every chat the bot administers for some account, once per chat
 * (`fetchCount`, e.g. getChatMemberCount); a chat that fails keeps its old count. Returns how many
 * chats changed.
 */
export async function refreshChannelMembers(
  deps: Pick<Deps, "asyncDb" | "log">,
  fetchCount: (chatId: string) => Promise<number>,
): Promise<number> {
  const { channels } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .selectDistinct({ chatId: channels.chatId })
    .from(channels)
    .where(eq(channels.botIsAdmin, true))
    .orderBy(channels.chatId);
  let changed = 0;
  for (const { chatId } of rows) {
    try {
      const members = await fetchCount(chatId);
      const moved = await deps.asyncDb
        .update(channels)
        .set({ members })
        .where(and(eq(channels.chatId, chatId), or(isNull(channels.members), ne(channels.members, members))))
        .returning({ id: channels.id });
      if (moved.length) changed++;
    } catch (e) {
      deps.log.warn(`channels: member count of ${chatId} not refreshed: ${(e as Error).message}`);
    }
  }
  return changed;
}
