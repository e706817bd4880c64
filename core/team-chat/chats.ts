import { eq } from "drizzle-orm";
import type { AsyncDbOrTx, Tables } from "../../db/async";
import type { Language } from "../i18n/translate";

export type TeamChatRow = Tables["teamChats"]["$inferSelect"];

/** The group connected to a workspace, or null. */
export async function teamChatOf(db: AsyncDbOrTx, workspaceId: number): Promise<TeamChatRow | null> {
  const { teamChats } = db.tables;
  const [row] = await db.select().from(teamChats).where(eq(teamChats.workspaceId, workspaceId)).limit(1);
  return row ?? null;
}

export interface TeamChatInput {
  chatId: string;
  /** the forum topic /connect was sent in; null for the group itself */
  threadId: number | null;
  title: string | null;
  language: Language;
  connectedBy: number;
}

/** Connects `chat` to the workspace, replacing the group connected before (one per workspace). */
export async function saveTeamChat(db: AsyncDbOrTx, now: Date, workspaceId: number, chat: TeamChatInput): Promise<TeamChatRow> {
  const { teamChats } = db.tables;
  const values = { ...chat, createdAt: now };
  const [row] = await db
    .insert(teamChats)
    .values({ workspaceId, ...values })
    .onConflictDoUpdate({ target: teamChats.workspaceId, set: values })
    .returning();
  return row!;
}

/** Disconnects the workspace's group; false when none was connected. */
export async function dropTeamChat(db: AsyncDbOrTx, workspaceId: number): Promise<boolean> {
  const { teamChats } = db.tables;
  return (await db.delete(teamChats).where(eq(teamChats.workspaceId, workspaceId)).returning()).length > 0;
}

/** A group the bot left or was removed from (or that became a supergroup) stops receiving: its connections go. */
export async function forgetTeamChat(db: AsyncDbOrTx, chatId: string): Promise<number> {
  const { teamChats } = db.tables;
  return (await db.delete(teamChats).where(eq(teamChats.chatId, chatId)).returning()).length;
}

/** A group that became a supergroup keeps its connections under its new id. */
export async function moveTeamChat(db: AsyncDbOrTx, fromChatId: string, toChatId: string): Promise<void> {
  const { teamChats } = db.tables;
  await db.update(teamChats).set({ chatId: toChatId }).where(eq(teamChats.chatId, fromChatId));
}
