import { Composer } from "grammy";
import type { BotContext } from "../context";
import { commandsIn } from "../commands";
import { localeOf } from "../i18n";
import { mainScreen } from "../menus/root";
import { open } from "../menus/nav";
import { decodeStart } from "../../core/deep-link";
import { startTarget } from "./deep-links";
import { inviteTokenOfStart } from "../../core/workspaces";
import { joinByInvite } from "../menus/workspaces";

/**
 * /start, /help and /cancel. Registered before the conversations, so that /start and /cancel end any
 * dialog left half-way instead of being taken as its answer. `/start <payload>` (a t.me/<bot>?start=
 * link) opens what the payload names (bot/features/deep-links.ts); an unknown payload greets.
 */
export const startFeature = new Composer<BotContext>();
const pm = startFeature.chatType("private");

/** The greeting with the main menu. */
export async function greet(ctx: BotContext) {
  const name = ctx.from?.first_name;
  await open(ctx, mainScreen, [], name ? ctx.t("start-welcome-named", { name: Bun.escapeHTML(name) }) : ctx.t("start-welcome"));
}

pm.command("start", async (ctx, next) => {
  await ctx.conversation.exitAll();
  // an invitation into a team: a first-contact person is greeted first
  const invitation = inviteTokenOfStart(ctx.match.trim());
  if (invitation) {
    if (ctx.firstContact) await greet(ctx);
    return joinByInvite(ctx, invitation);
  }
  const target = decodeStart(ctx.match);
  // someone's deep link as a person's first contact: greeted first, then told what the link was
  if (target && ctx.firstContact) await greet(ctx);
  if (target && ctx.user) return startTarget(ctx, target);
  // a payload the codec does not know goes on (a feature may take it); unhandledFeature greets if none does
  if (ctx.match) return next();
  await greet(ctx);
});

pm.command("help", async (ctx) => {
  const lines = commandsIn(localeOf(ctx)).map((c) => `/${c.command} — ${Bun.escapeHTML(c.description)}`);
  await ctx.reply(ctx.t("help-text", { commands: lines.join("\n"), bot: ctx.me.username, app: Bun.escapeHTML(ctx.deps.config.baseUrl) }), {
    link_preview_options: { is_disabled: true },
  });
});

pm.command("cancel", async (ctx) => {
  const active = Object.keys(ctx.conversation.active()).length > 0 || ctx.session.pending !== undefined;
  await ctx.conversation.exitAll();
  delete ctx.session.pending;
  await open(ctx, mainScreen, [], ctx.t(active ? "cancel-done" : "cancel-nothing"));
});
