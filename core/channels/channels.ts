import { and, eq } from "drizzle-orm";
import type { ChatMember } from "grammy/types";
import type { Deps } from "../deps";
import { Conflict, FieldError, Forbidden, NotFound } from "../errors";
import { telegramPeopleOf } from "../accounts/users";
import { channelApi, askTelegram, botUserId } from "./telegram";
import type { ChannelRow } from "./ownership";
import { standingOf, type Standing } from "./standing";
import { confirmPowers, refusalOf } from "./powers";

/** What the API and the bot show of a channel. */
export function channelView(row: ChannelRow) {
  return {
    id: row.id,
    chat_id: row.chatId,
    type: row.type,
    title: row.title,
    username: row.username,
    members: row.members,
    can_invite: row.canInvite,
    bot_is_admin: row.botIsAdmin,
    created_at: row.createdAt.toISOString(),
  };
}

/** The account's channels, oldest first. */
export async function listChannels(deps: Pick<Deps, "asyncDb">, userId: number): Promise<ChannelRow[]> {
  const { channels } = deps.asyncDb.tables;
  return deps.asyncDb.select().from(channels).where(eq(channels.userId, userId)).orderBy(channels.id);
}

/** The channel `id` if the account holds it; 404 otherwise (another account's channel included). */
export async function ownedChannel(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<ChannelRow> {
  const { channels } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select()
    .from(channels)
    .where(and(eq(channels.id, id), eq(channels.userId, userId)))
    .limit(1);
  if (!row) throw new NotFound("Channel");
  return row;
}

/**
 * The channel `id` if the account holds it (404 otherwise) and its Telegram user still runs the chat
 * (creator, or administrator with the right to invite users, confirmed with Telegram; else the 403
 * that says why, or 503 when Telegram cannot be asked). What acts in the chat or shows who is in
 * it goes through here; an account's own invites and their figures need only `ownedChannel`.
 */
export async function runChannel(
  deps: Pick<Deps, "asyncDb" | "telegram" | "chatStandings">,
  userId: number,
  id: number,
): Promise<ChannelRow> {
  const row = await ownedChannel(deps, userId, id);
  await confirmPowers(deps, userId, row.chatId);
  return row;
}

const isAdmin = (m: ChatMember) => m.status === "creator" || m.status === "administrator";

/**
 * Adds a chat to the account of an administrator of it: `chat` is "@username" or a chat id. The bot
 * must be an administrator there (else 409 `bot_not_admin`) and the account's Telegram user its creator
 * or an administrator with the right to invite users (else 403 `not_chat_admin`, or `no_invite_right`
 * for an administrator without it), both asked of Telegram with getChatMember. Adding a chat the
 * account already holds refreshes it.
 */
export async function addChannel(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram" | "config" | "chatStandings">,
  userId: number,
  chat: string | number,
): Promise<ChannelRow> {
  const ref = typeof chat === "number" ? chat : chat.trim();
  if (typeof ref === "string" && !/^@[A-Za-z0-9_]{4,32}$|^-?\d{1,20}$/.test(ref))
    throw new FieldError("chat", "must be @username or a numeric chat id");
  const people = await telegramPeopleOf(deps.asyncDb, userId);
  if (!people.length)
    throw new Forbidden(
      "Your account has no Telegram identity, so Telegram cannot confirm you administer the chat: sign in with Telegram or link it first",
      "not_chat_admin",
    );
  const api = channelApi(deps);
  const info = await askTelegram(() => api.getChat(ref));
  if (info.type === "private") throw new FieldError("chat", "must be a channel, group or supergroup");
  const bot = await askTelegram(() => api.getChatMember(info.id, botUserId(deps)));
  if (!isAdmin(bot)) throw new Conflict("The bot is not an administrator of that chat: make it one first", "bot_not_admin");
  // a team's chat is added when one of its people administers it
  let you: Standing | null = null;
  for (const person of people) {
    const standing = standingOf(await askTelegram(() => api.getChatMember(info.id, person)));
    deps.chatStandings.remember(String(info.id), person, standing);
    if (!you || standing.holds) you = standing;
    if (standing.holds) break;
  }
  if (!you!.holds) throw refusalOf(you!);
  const members = await api.getChatMemberCount(info.id).catch(() => null);
  const facts = {
    type: info.type,
    title: info.title ?? null,
    username: "username" in info ? (info.username ?? null) : null,
    canInvite: standingOf(bot).holds,
    botIsAdmin: true,
    ...(members !== null ? { members } : {}),
  };
  const { channels } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .insert(channels)
    .values({ userId, chatId: String(info.id), createdAt: deps.clock.now(), ...facts })
    .onConflictDoUpdate({ target: [channels.userId, channels.chatId], set: facts })
    .returning();
  return row!;
}

/** Forgets a channel for this account only (its invites go; other accounts keep theirs and the journal). */
export async function deleteChannel(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<void> {
  const { channels } = deps.asyncDb.tables;
  const gone = await deps.asyncDb
    .delete(channels)
    .where(and(eq(channels.id, id), eq(channels.userId, userId)))
    .returning({ id: channels.id });
  if (!gone.length) throw new NotFound("Channel");
}
