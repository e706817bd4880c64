import { Composer } from "grammy";
import type { BotContext } from "../context";
import { linkList, NEW_LINK } from "../menus/link-list";
import { linkCard } from "../menus/link-card";
import { act, open } from "../menus/nav";
import { createAndShow } from "../conversations/links";
import { urlInMessage, type UrlReading } from "../url-text";
import { ownObjectAt } from "../../core/links/own-url";
import { shareScreen } from "../menus/secure";
import { requestScreen } from "../menus/secure-requests";
import { AD_POST, isAdPost, postOf } from "../conversations/ad-post";
import { tell } from "../i18n";

/**
 * A pasted URL of this service that names one of the user's own objects opens its screen (a short
 * link its card, a share link or a request link its screen); true when it did.
 */
async function openOwn(ctx: BotContext, reading: UrlReading): Promise<boolean> {
  if (!reading || !("service" in reading) || !reading.service) return false;
  const own = await ownObjectAt(ctx.deps, ctx.owner.id, reading.service);
  if (!own) return false;
  const screen = own.kind === "link" ? linkCard : own.kind === "share" ? shareScreen : requestScreen;
  await act(ctx, () => open(ctx, screen, [own.id]));
  return true;
}

/**
 * Links in the bot: a pasted URL (or a domain, or a message with a link in it) becomes a tracking link
 * and its card; a pasted URL of the user's own short, share or request link opens its screen; /new <url> does the same, bare /new asks for the URL; /links opens the list;
 * a link's t.me start link is routed by bot/features/deep-links.ts. A post with several links, or a forwarded post with links
 * (a caption too), is an ad post: /adpost makes its tracking copy for one placement.
 */
export const linksFeature = new Composer<BotContext>();
const pm = linksFeature.chatType("private");

pm.command("links", (ctx) => open(ctx, linkList, [0, 0]));
pm.command("adpost", (ctx) => ctx.conversation.enter(AD_POST));
pm.command("new", async (ctx) => {
  if (!ctx.match.trim()) return ctx.conversation.enter(NEW_LINK);
  const reading = await urlInMessage({ text: ctx.match }, ctx.deps);
  if (reading && "url" in reading) return createAndShow(ctx, reading.url);
  if (await openOwn(ctx, reading)) return;
  await ctx.reply(ctx.t("new-usage", { problem: Bun.escapeHTML(reading ? tell(ctx, reading.problem) : ctx.t("url-not-a-link")) }));
});

pm.on(["message:text", "message:caption"], async (ctx, next) => {
  if (ctx.message.text?.startsWith("/")) return next();
  if (isAdPost(ctx.message)) return ctx.conversation.enter(AD_POST, postOf(ctx.message));
  if (ctx.message.text === undefined) return next();
  const reading = await urlInMessage(ctx.message, ctx.deps);
  if (!reading) return next();
  if ("problem" in reading)
    return (await openOwn(ctx, reading)) || ctx.reply(ctx.t("warning", { text: Bun.escapeHTML(tell(ctx, reading.problem)) }));
  await createAndShow(ctx, reading.url, false, reading.cutAt);
});
