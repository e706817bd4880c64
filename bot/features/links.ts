import { Composer, InlineKeyboard } from "grammy";
import { createConversation } from "@grammyjs/conversations";
import type { BotContext } from "../context";
import { createLink, deleteLink, setLinkActive } from "../../core/links/links";
import { urlSyntaxProblem } from "../../core/links/validate";
import { AppError, NotFound } from "../../core/errors";
import { deleteConfirm, renderCard } from "../menus/link-card";
import { linkListPage } from "../menus/link-list";
import { LINK_OPTIONS, linkOptionsConversation } from "../conversations/link-options";

const NO_PREVIEW = { link_preview_options: { is_disabled: true } } as const;

/** A message that is just one http(s) URL (what “pasting a link” looks like). */
function pastedUrl(text: string): string | null {
  const s = text.trim();
  return /^https?:\/\/\S+$/i.test(s) && !urlSyntaxProblem(s) ? s : null;
}

/** Shows `view` by editing the message the button sits on (or sending it, for commands). */
async function show(ctx: BotContext, view: { text: string; keyboard: InlineKeyboard }) {
  const extra = { parse_mode: "HTML" as const, reply_markup: view.keyboard, ...NO_PREVIEW };
  if (ctx.callbackQuery?.message) {
    await ctx.editMessageText(view.text, extra).catch((e) => {
      if (!/message is not modified/.test(String(e?.description ?? e))) throw e;
    });
  } else await ctx.reply(view.text, extra);
}

/**
 * Links in the bot: paste a URL to get a tracking link and its card; /new (or “New link”) walks
 * through the options; /links lists them (paged, filter by tag); each card toggles, edits, deletes.
 */
export const linksFeature = new Composer<BotContext>();
const pm = linksFeature.chatType("private");

pm.use(createConversation(linkOptionsConversation, LINK_OPTIONS));

pm.command("links", (ctx) => show(ctx, linkListPage(ctx.deps, ctx.user!.id, 0, 0)));
pm.command("new", (ctx) => ctx.conversation.enter(LINK_OPTIONS, null));

pm.callbackQuery("menu:links", async (ctx) => {
  await ctx.answerCallbackQuery();
  await show(ctx, linkListPage(ctx.deps, ctx.user!.id, 0, 0));
});
pm.callbackQuery("ln:new", async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.conversation.enter(LINK_OPTIONS, null);
});
pm.callbackQuery(/^ln:list:(\d+):(\d+)$/, async (ctx) => {
  await ctx.answerCallbackQuery();
  await show(ctx, linkListPage(ctx.deps, ctx.user!.id, Number(ctx.match[1]), Number(ctx.match[2])));
});
pm.callbackQuery(/^ln:(card|tog|edit|del|delok):(\d+)$/, async (ctx) => {
  const [, action, raw] = ctx.match;
  const id = Number(raw);
  const userId = ctx.user!.id;
  try {
    switch (action) {
      case "card":
        await ctx.answerCallbackQuery();
        return await show(ctx, renderCard(ctx.deps, userId, id));
      case "tog": {
        const link = setLinkActive(ctx.deps, userId, id, !renderCard(ctx.deps, userId, id).link.is_active);
        await ctx.answerCallbackQuery(link.isActive ? "Link turned on" : "Link turned off");
        return await show(ctx, renderCard(ctx.deps, userId, id));
      }
      case "edit":
        renderCard(ctx.deps, userId, id); // 404 before starting the questions
        await ctx.answerCallbackQuery();
        return await ctx.conversation.enter(LINK_OPTIONS, id);
      case "del":
        await ctx.answerCallbackQuery();
        return await show(ctx, deleteConfirm(renderCard(ctx.deps, userId, id).link));
      case "delok":
        deleteLink(ctx.deps, userId, id);
        await ctx.answerCallbackQuery("Deleted");
        return await show(ctx, linkListPage(ctx.deps, userId, 0, 0));
    }
  } catch (e) {
    if (!(e instanceof NotFound)) throw e;
    await ctx.answerCallbackQuery({ text: "This link no longer exists.", show_alert: true });
  }
});

pm.on("message:text", async (ctx, next) => {
  const url = pastedUrl(ctx.message.text);
  if (!url || !ctx.user) return next();
  try {
    const created = await createLink(ctx.deps, ctx.user, { url });
    const card = renderCard(ctx.deps, ctx.user.id, created.id);
    await ctx.reply(`✅ Your tracking link:\n${created.trackingUrl}\n\n${card.text}`, { parse_mode: "HTML", reply_markup: card.keyboard, ...NO_PREVIEW });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(e.status === 403 ? `⛔️ ${e.message}` : `Could not create the link: ${e.message}`);
  }
});
