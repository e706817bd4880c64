import type { Api } from "grammy";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { Gone, NotFound, ValidationError } from "../errors";
import { randomSecret, sha256 } from "../random";
import { transaction } from "../../db/async";
import { requireRole, ROLE_TABLE, roleAtLeast, type Role } from "../tokens/roles";
import { recordAudit } from "./audit";
import { addMember, asRole, memberRole } from "./members";
import { getWorkspace, roleIn, type Workspace } from "./workspaces";

/** How long an invitation can be used. */
const INVITE_TTL_MS = 7 * 86_400_000;
/** The bot's start payload of an invitation is `join_<token>` (Telegram allows 64 characters of [A-Za-z0-9_-]). */
const INVITE_START_PREFIX = "join_";

/** The invitation token a `/start` payload carries, or null when it is not an invitation. */
export function inviteTokenOfStart(payload: string): string | null {
  const m = /^join_([A-Za-z0-9_-]{20,58})$/.exec(payload.trim());
  return m ? m[1]! : null;
}

/** The bot's username as Telegram says it, or null without a bot (or when Telegram cannot be asked). */
async function askUsername(api: Api | null): Promise<string | null> {
  if (!api) return null;
  try {
    return (await api.getMe()).username;
  } catch {
    return null;
  }
}

/**
 * Makes a one-use invitation into a team workspace (an admin; only an owner invites an owner): a
 * `t.me/<bot>?start=join_<token>` link valid 7 days. Without a bot the link opens the mini-app, which
 * joins through the API. The token is stored hashed; it is in the result only this once.
 */
export async function createInvite(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram" | "config">,
  actorId: number,
  workspaceId: number,
  role: Role,
  /** the bot's username when the caller knows it (the bot does: `ctx.me.username`); else Telegram is asked */
  botUsername?: string | null,
): Promise<{ token: string; url: string; expiresAt: string }> {
  asRole(role);
  const actorRole = await memberRole(deps, actorId, workspaceId, "members");
  if (role === "owner") requireRole(actorRole, "owner");
  if (actorId === workspaceId)
    throw new ValidationError("A personal workspace has no other members: make a team workspace to invite people");
  const token = randomSecret(24);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
  const { workspaceInvites } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .insert(workspaceInvites)
    .values({ workspaceId, tokenHash: sha256(token), role, madeBy: actorId, expiresAt, createdAt: now })
    .returning({ id: workspaceInvites.id });
  await recordAudit(deps, { workspaceId, actorId, action: "invites.create", subject: { type: "invite", id: row!.id }, details: { role } });
  const username = botUsername === undefined ? await askUsername(deps.telegram) : botUsername;
  const url = username
    ? `https://t.me/${username}?start=${INVITE_START_PREFIX}${token}`
    : `${deps.config.baseUrl.replace(/\/$/, "")}/app/join?token=${token}`;
  return { token, url, expiresAt: expiresAt.toISOString() };
}

/**
 * Joins the workspace of an invitation: once, within 7 days, while its maker still holds the role
 * that makes it (410 `invite_used` / `invite_expired` / `invite_revoked`; an unknown token is 404).
 * Returns the workspace with the role now held.
 */
export async function joinWorkspace(deps: Pick<Deps, "asyncDb" | "clock">, actorId: number, token: string): Promise<Workspace> {
  const { workspaceInvites, users } = deps.asyncDb.tables;
  const now = deps.clock.now();
  const workspaceId = await transaction(deps.asyncDb, async (tx) => {
    const [invite] = await tx
      .select()
      .from(workspaceInvites)
      .where(eq(workspaceInvites.tokenHash, sha256(token.trim())));
    if (!invite) throw new NotFound("Invitation");
    if (invite.usedAt) throw new Gone("This invitation was already used; ask for a new one", "invite_used");
    if (invite.expiresAt.getTime() <= now.getTime()) throw new Gone("This invitation has expired; ask for a new one", "invite_expired");
    const [me] = await tx.select({ kind: users.kind }).from(users).where(eq(users.id, actorId));
    if (me?.kind !== "person") throw new NotFound("Invitation");
    // an invitation speaks for its maker: once they are out of the team, or below the role that
    // makes it, it no longer opens the door (a removed admin must not walk back in with one)
    const maker = invite.madeBy === null ? null : await roleIn({ asyncDb: tx }, invite.madeBy, invite.workspaceId);
    if (maker === null || !roleAtLeast(maker, ROLE_TABLE.members) || (invite.role === "owner" && maker !== "owner"))
      throw new Gone("Whoever made this invitation can no longer invite to this team; ask for a new one", "invite_revoked");
    // one use: the conditional update lets only the first of two joins at once through
    const taken = await tx
      .update(workspaceInvites)
      .set({ usedBy: actorId, usedAt: now })
      .where(and(eq(workspaceInvites.id, invite.id), isNull(workspaceInvites.usedAt), gt(workspaceInvites.expiresAt, now)))
      .returning({ id: workspaceInvites.id });
    if (!taken.length) throw new Gone("This invitation was already used; ask for a new one", "invite_used");
    const role = await addMember(tx, invite.workspaceId, actorId, invite.role, now);
    await recordAudit(
      { asyncDb: tx, clock: deps.clock },
      { workspaceId: invite.workspaceId, actorId, action: "members.join", subject: { type: "member", id: actorId }, details: { role } },
    );
    return invite.workspaceId;
  });
  return getWorkspace(deps, actorId, workspaceId);
}
