/**
 * The team group of a workspace (`/connect` in a Telegram group): connecting and disconnecting it,
 * by an owner or admin of a team workspace, written to the audit log. Where messages then go is
 * core/team-chat/destinations.ts.
 */
import type { Deps } from "../deps";
import { Forbidden } from "../errors";
import { dropTeamChat, saveTeamChat, teamChatOf, type TeamChatInput, type TeamChatRow } from "../team-chat/chats";
import { recordAudit } from "./audit";
import { memberRole } from "./members";
import { getWorkspace } from "./workspaces";

type D = Pick<Deps, "asyncDb" | "clock">;

/** Checks that `actorId` may connect a group to `workspaceId`: a team workspace where they are an owner or admin. */
async function mayConnect(deps: D, actorId: number, workspaceId: number) {
  await memberRole(deps, actorId, workspaceId, "admin");
  const ws = await getWorkspace(deps, actorId, workspaceId);
  if (ws.personal) throw new Forbidden("A personal workspace has no team group; switch to a team workspace first", "personal_workspace");
  return ws;
}

/** Connects a group (and forum topic) to a team workspace, replacing the one before. */
export async function connectTeamChat(
  deps: D,
  actorId: number,
  workspaceId: number,
  chat: Omit<TeamChatInput, "connectedBy">,
): Promise<TeamChatRow> {
  await mayConnect(deps, actorId, workspaceId);
  const row = await saveTeamChat(deps.asyncDb, deps.clock.now(), workspaceId, { ...chat, connectedBy: actorId });
  await recordAudit(deps, {
    workspaceId,
    actorId,
    action: "team_chat.connect",
    subject: { type: "team_chat", id: chat.chatId },
    details: { title: chat.title, thread_id: chat.threadId },
  });
  return row;
}

/** Disconnects the workspace's group: its messages go to the owners and admins again. False when none was connected. */
export async function disconnectTeamChat(deps: D, actorId: number, workspaceId: number): Promise<boolean> {
  await mayConnect(deps, actorId, workspaceId);
  // the group it was, named in the entry as its connection was
  const chat = await teamChatOf(deps.asyncDb, workspaceId);
  const dropped = await dropTeamChat(deps.asyncDb, workspaceId);
  if (dropped)
    await recordAudit(deps, {
      workspaceId,
      actorId,
      action: "team_chat.disconnect",
      subject: { type: "team_chat", id: chat?.chatId ?? null },
      details: chat ? { title: chat.title, thread_id: chat.threadId } : null,
    });
  return dropped;
}
