/**
 * The workspace a person acts in, per update: `ctx.owner` is the owner account whose data the
 * screens show and change (their own account unless they switched to a team in Settings), and
 * `ctx.role` their role there. `ctx.user` stays the person: their chat, language, time zone.
 */
import { MenuRange } from "@grammyjs/menu";
import { getUser, type UserRow } from "../core/accounts/users";
import type { Deps } from "../core/deps";
import { getCurrentWorkspace, requireRole, type Role } from "../core/workspaces";
import { AppError } from "../core/errors";
import type { BotContext } from "./context";
import { problemText } from "./problem";
import { roleAtLeast, type Gate } from "../core/tokens/roles";

export interface Acting {
  owner: UserRow;
  role: Role;
}

/**
 * The person's current workspace: their own account (no query: the row says no other was chosen),
 * or the team they chose, read with their role in it; a team they left falls back to their own.
 */
export async function actingIn(deps: Pick<Deps, "asyncDb">, user: UserRow): Promise<Acting> {
  if (user.currentWorkspaceId === null || user.currentWorkspaceId === user.id) return { owner: user, role: "owner" };
  const ws = await getCurrentWorkspace(deps, user.id);
  return { owner: ws.personal ? user : await getUser(deps, ws.id), role: ws.role };
}

/** Throws the forbidden_role refusal unless the person's role here allows `need` (by default: changing things). */
export function mayChange(ctx: { role: Role }, need: Role | Gate = "editor"): void {
  requireRole(ctx.role, need);
}

/** True when the person's role here allows `need` (buttons that change things are drawn only then). */
export const may = (ctx: { role: Role }, need: Role = "editor"): boolean => roleAtLeast(ctx.role, need);

/**
 * Where a screen draws the buttons that change the workspace's data: the screen's own range for a
 * person whose role allows `need` (by default: an editor and up), else a range that is never shown,
 * so a viewer reads the screen without them. Row breaks belong on the screen's range. The press
 * handlers still check the role (`mayChange`): a button kept in an older message is refused in words.
 */
export function writes(ctx: BotContext, range: MenuRange<BotContext>, need: Role = "editor"): MenuRange<BotContext> {
  return may(ctx, need) ? range : new MenuRange<BotContext>();
}

/**
 * For a write the person's role does not allow: says so in their words (the forbidden_role refusal)
 * and returns true; the caller stops. For paths with no screen to fall back to (a pasted link, a command).
 */
export async function refusedRole(ctx: BotContext, need: Role | Gate = "editor"): Promise<boolean> {
  try {
    requireRole(ctx.role, need);
    return false;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(`⚠️ ${Bun.escapeHTML(problemText(ctx, e))}`);
    return true;
  }
}
