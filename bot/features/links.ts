import { Composer } from "grammy";
import type { BotContext } from "../context";
import { linkList, NEW_LINK } from "../menus/link-list";
import { linkCard } from "../menus/link-card";
import { act, open } from "../menus/nav";
import { createAndShow } from "../conversations/links";
import { urlInMessage } from "../url-text";

/**
 * Links in the bot: a pasted URL (or a domain, or a message with a link in it) becomes a tracking link
 * and its card; /new <url> does the same, bare /new asks for the URL; /links opens the list;
 * t.me/<bot>?start=link_<id> opens a card.
 */
export const linksFeature = new Composer<BotContext>();
const pm = linksFeature.chatType("private");

pm.command("links", (ctx) => open(ctx, linkList, [0, 0]));
pm.command("new", async (ctx) => {
  if (!ctx.match.trim()) return ctx.conversation.enter(NEW_LINK);
  const reading = urlInMessage({ text: ctx.match }, ctx.deps);
  if (reading && "url" in reading) return createAndShow(ctx, reading.url);
  await ctx.reply(`${reading ? reading.problem : "That does not look like a link."}\nSend /new followed by a URL, or just /new.`);
});
pm.command("start", async (ctx, next) => {
  const m = /^link_(\d+)$/.exec(ctx.match);
  if (!m) return next();
  await act(ctx, () => open(ctx, linkCard, [Number(m[1])]));
});

pm.on("message:text", async (ctx, next) => {
  if (ctx.message.text.startsWith("/")) return next();
  const reading = urlInMessage(ctx.message, ctx.deps);
  if (!reading || !ctx.user) return next();
  if ("problem" in reading) return ctx.reply(`⚠️ ${reading.problem}`);
  await createAndShow(ctx, reading.url);
});
