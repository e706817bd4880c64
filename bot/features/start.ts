import { Composer } from "grammy";
import type { BotContext } from "../context";
import { COMMANDS } from "../commands";
import { MENU, ROOT_TEXT, rootKeyboard } from "../menus/root";

/** /start, /help, /cancel and the way back to the root menu. Registered before any conversation. */
export const startFeature = new Composer<BotContext>();
const pm = startFeature.chatType("private");

/** The greeting with the root menu. */
export async function greet(ctx: BotContext) {
  const name = ctx.from?.first_name ? `, ${ctx.from.first_name}` : "";
  await ctx.reply(
    `👋 Welcome${name}! I shorten and track links, share files securely and watch chats for keywords.\n\n${ROOT_TEXT}`,
    { reply_markup: rootKeyboard(ctx.deps.config.baseUrl) },
  );
}

pm.command("start", async (ctx, next) => {
  // /start is a fresh start: a dialog left half-way would otherwise swallow the menu's buttons
  await ctx.conversation.exitAll();
  // deep links (t.me/<bot>?start=<payload>) go on to the features; unhandledFeature greets if none takes it
  if (ctx.match) return next();
  await greet(ctx);
});

pm.command("help", async (ctx) => {
  const lines = COMMANDS.map((c) => `/${c.command} — ${c.description}`);
  await ctx.reply(
    `Here is what I understand:\n\n${lines.join("\n")}\n\nEverything is also reachable from the menu (/start) and in the app: ${ctx.deps.config.baseUrl}/`,
    { link_preview_options: { is_disabled: true } },
  );
});

pm.command("cancel", async (ctx) => {
  const active = Object.keys(ctx.conversation.active()).length > 0 || ctx.session.pending !== undefined;
  await ctx.conversation.exitAll();
  delete ctx.session.pending;
  await ctx.reply(active ? "Cancelled. Nothing was saved." : "There is nothing to cancel.", {
    reply_markup: rootKeyboard(ctx.deps.config.baseUrl),
  });
});

startFeature.callbackQuery(MENU.root, async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.editMessageText(ROOT_TEXT, { reply_markup: rootKeyboard(ctx.deps.config.baseUrl) });
});
