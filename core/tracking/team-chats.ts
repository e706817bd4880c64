/**
 * Where a tracker's team-chat notifications may go, as the bot offers it: the owner's channels and
 * groups where the bot is an administrator and the owner's Telegram user still runs the chat (the
 * same standing the save checks), and the forum topics the bot has seen in them. Topics are learnt
 * from Telegram's service messages (created, renamed, closed, reopened) and the General topic from
 * the chat being a forum; each account holding the chat gets its row.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { holdsChat } from "../channels/powers";

/** The General topic's row: messages there carry no thread id. */
export const GENERAL_TOPIC = 0;

/** A chat the owner may send notifications to. */
export interface TeamChat {
  chatId: string;
  title: string;
  type: "channel" | "group" | "supergroup";
}

/** A forum topic of a team chat: `threadId` null for General. */
export interface ChatTopic {
  threadId: number | null;
  name: string;
}

/** What a service message says of a topic: its (new) name, and whether it is closed now. */
export interface TopicChange {
  name?: string;
  closed?: boolean;
}

/**
 * Records what the bot learnt of topic `threadId` of `chatId` for every account holding the chat. A
 * topic first seen without its name (closed or reopened before the bot knew it) is not recorded.
 */
export async function recordForumTopic(
  deps: Pick<Deps, "asyncDb" | "clock">,
  chatId: string,
  threadId: number,
  change: TopicChange,
): Promise<void> {
  const { channels, forumTopics } = deps.asyncDb.tables;
  const owners = await deps.asyncDb.select({ userId: channels.userId }).from(channels).where(eq(channels.chatId, chatId));
  const set = {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.closed !== undefined ? { isClosed: change.closed } : {}),
  };
  for (const { userId } of owners) {
    if (change.name === undefined) {
      await deps.asyncDb
        .update(forumTopics)
        .set(set)
        .where(and(eq(forumTopics.userId, userId), eq(forumTopics.chatId, chatId), eq(forumTopics.threadId, threadId)));
      continue;
    }
    await deps.asyncDb
      .insert(forumTopics)
      .values({ userId, chatId, threadId, name: change.name, isClosed: change.closed ?? false, createdAt: deps.clock.now() })
      .onConflictDoUpdate({ target: [forumTopics.userId, forumTopics.chatId, forumTopics.threadId], set });
  }
}

/** The owner's chats a tracker may notify, by title: the bot an administrator there, the owner's standing confirmed. */
export async function teamChats(deps: Parameters<typeof holdsChat>[0], userId: number): Promise<TeamChat[]> {
  const { channels } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ chatId: channels.chatId, title: channels.title, type: channels.type })
    .from(channels)
    .where(and(eq(channels.userId, userId), eq(channels.botIsAdmin, true)))
    .orderBy(asc(channels.title), asc(channels.id));
  const out: TeamChat[] = [];
  for (const row of rows) if (await holdsChat(deps, userId, row.chatId)) out.push({ ...row, title: row.title ?? row.chatId });
  return out;
}

/** The open topics the bot knows in the owner's chat `chatId` (General first); none when it is no forum. */
export async function chatTopics(deps: Pick<Deps, "asyncDb">, userId: number, chatId: string): Promise<ChatTopic[]> {
  const { forumTopics } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ threadId: forumTopics.threadId, name: forumTopics.name })
    .from(forumTopics)
    .where(and(eq(forumTopics.userId, userId), eq(forumTopics.chatId, chatId), eq(forumTopics.isClosed, false)))
    .orderBy(asc(forumTopics.threadId));
  return rows.map((r) => ({ threadId: r.threadId === GENERAL_TOPIC ? null : r.threadId, name: r.name }));
}

/** The name of topic `threadId` of the owner's chat, when known (for the tracker's card). */
export async function topicName(deps: Pick<Deps, "asyncDb">, userId: number, chatId: string, threadId: number): Promise<string | null> {
  const { forumTopics } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select({ name: forumTopics.name })
    .from(forumTopics)
    .where(and(eq(forumTopics.userId, userId), eq(forumTopics.chatId, chatId), eq(forumTopics.threadId, threadId)))
    .limit(1);
  return row?.name ?? null;
}

/** The title of the owner's chat `chatId`, when it is one of their channels (for the tracker's card). */
export async function teamChatTitle(deps: Pick<Deps, "asyncDb">, userId: number, chatId: string): Promise<string | null> {
  const { channels } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select({ title: channels.title })
    .from(channels)
    .where(and(eq(channels.userId, userId), eq(channels.chatId, chatId)))
    .limit(1);
  return row?.title ?? null;
}
