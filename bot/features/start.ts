import { Composer } from "grammy";
import type { BotContext } from "../context";
import { COMMANDS } from "../commands";
import { mainScreen } from "../menus/root";
import { open } from "../menus/nav";

/**
 * /start, /help and /cancel. Registered before the conversations, so that /start and /cancel end any
 * dialog left half-way instead of being taken as its answer.
 */
export const startFeature = new Composer<BotContext>();
const pm = startFeature.chatType("private");

/** The greeting with the main menu. */
export async function greet(ctx: BotContext) {
  const name = ctx.from?.first_name ? `, ${Bun.escapeHTML(ctx.from.first_name)}` : "";
  await open(ctx, mainScreen, [], `👋 Welcome${name}! I shorten and track links, share files securely and watch chats for keywords. Paste a link to start.`);
}

pm.command("start", async (ctx, next) => {
  await ctx.conversation.exitAll();
  // deep links (t.me/<bot>?start=<payload>) go on to the features; unhandledFeature greets if none takes it
  if (ctx.match) return next();
  await greet(ctx);
});

pm.command("help", async (ctx) => {
  const lines = COMMANDS.map((c) => `/${c.command} — ${Bun.escapeHTML(c.description)}`);
  await ctx.reply(
    `Here is what I understand:\n\n${lines.join("\n")}\n\nPaste any link (or a domain like example.com) to shorten it; send a file or a text to store it securely. In any chat, type @${ctx.me.username} and a link to share its short link there.\n\nEverything is also in the menu (/start) and in the app: ${Bun.escapeHTML(ctx.deps.config.baseUrl)}/`,
    { link_preview_options: { is_disabled: true }, parse_mode: "HTML" },
  );
});

pm.command("cancel", async (ctx) => {
  const active = Object.keys(ctx.conversation.active()).length > 0 || ctx.session.pending !== undefined;
  await ctx.conversation.exitAll();
  delete ctx.session.pending;
  await open(ctx, mainScreen, [], active ? "Cancelled. Nothing was saved." : "There is nothing to cancel.");
});
