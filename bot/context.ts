import type { Context, SessionFlavor } from "grammy";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { ConversationFlavor } from "@grammyjs/conversations";
import type { Deps } from "../core/deps";
import type { UserRow } from "../core/accounts/users";
import type { Role } from "../core/tokens/roles";

export interface SessionData {
  /** a step in progress that is not a conversation (e.g. a file waiting for a folder); /cancel clears it */
  pending?: unknown;
  /** free-form per-feature state, e.g. the file waiting for a folder choice */
  [key: string]: unknown;
}

interface Extra {
  deps: Deps;
  /** the service user behind ctx.from in a private chat, registered on first contact */
  user?: UserRow;
  /**
   * The owner account of the workspace the person acts in (bot/workspace.ts): their own account, or
   * the team they chose in Settings. Screens read and change its data; `user` stays the person.
   */
  owner?: UserRow;
  /** the person's role in that workspace */
  role?: Role;
  /** the user's time zone (Settings), for the dates the bot shows */
  timeZone?: string;
  /** this update (a `/start <payload>`) is the person's first contact with the bot */
  firstContact?: boolean;
  /**
   * The screen being drawn in this update: its menu id, the ids it is drawn for (a link, a folder and
   * a page…) and its model once loaded. Set in one place, `draw` in bot/menus/nav.ts.
   */
  draw?: { screen: string; ids: number[]; model?: Promise<unknown> };
}

/** The context of any update: `user` is set for a person writing to the bot in a private chat. */
export type UpdateContext = ConversationFlavor<Context & SessionFlavor<SessionData> & I18nFlavor & Extra>;

/**
 * The context of a signed-in person, behind `requireUser` (bot/require-user.ts): menus, dialogs and
 * the features a person uses see only these, so `ctx.user` (the person), `ctx.owner` (the workspace
 * they act in) and `ctx.role` (their role there) are always there.
 */
export type BotContext = UpdateContext & { user: UserRow; owner: UserRow; role: Role };

/** The context inside a dialog (a conversation): its own, with translations (ctx.t) in the user's language. */
export type DialogContext = Context & I18nFlavor;
