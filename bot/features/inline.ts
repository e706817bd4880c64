import { Composer } from "grammy";
import type { InlineKeyboardMarkup, InlineQueryResult } from "grammy/types";
import type { UpdateContext } from "../context";
import { findUserByIdentity, upsertTelegramUser } from "../../core/accounts/users";
import { ownLinkTo } from "../../core/links/same-url";
import { domainHostOf, trackingUrlOf } from "../../core/links/views";
import { createLink } from "../../core/links/links";
import { write } from "../audited";
import { listLinks } from "../../core/links/list";
import { AppError } from "../../core/errors";
import { readUrl } from "../url-text";
import { tell } from "../i18n";
import { problemText } from "../problem";
import { actingIn } from "../workspace";
import { requireRole } from "../../core/workspaces";

const article = (id: string, title: string, description: string, text: string, markup?: InlineKeyboardMarkup): InlineQueryResult => ({
  type: "article",
  id,
  title,
  description,
  input_message_content: { message_text: Bun.escapeHTML(text), link_preview_options: { is_disabled: true } },
  ...(markup ? { reply_markup: markup } : {}),
});

/** The prefix of a result that creates a link once it is sent (chosen_inline_result). */
const NEW = "new";

/** The user's existing link to this URL, if any (the same URL as the bot's paste finds it). */
async function existingLink(ctx: UpdateContext, userId: number, url: string) {
  const row = await ownLinkTo(ctx.deps, userId, url);
  return row && { id: row.id, trackingUrl: trackingUrlOf(ctx.deps, row.code, await domainHostOf(ctx.deps, row)) };
}

/** How many recent links an empty query lists. */
const RECENT = 20;

/**
 * Inline mode: `@<bot> <url>` in any chat. Telegram asks again at each pause in the typing, so
 * nothing is stored while the user types: the user's existing link for that URL is offered as it
 * is, and a new URL is offered as a result that sends the URL itself with a button. Only when that
 * result is sent (chosen_inline_result, which needs inline feedback switched on in @BotFather) is
 * the link created, once, and the sent message edited to the short link. An empty query lists the
 * user's recent links. What is sent carries no button: everyone in that chat sees the message, and
 * the owner's stats are the owner's (the bot's own chat and the app have them).
 */
export const inlineFeature = new Composer<UpdateContext>();

inlineFeature.on("inline_query", async (ctx) => {
  const query = ctx.inlineQuery.query.trim();
  const answer = (results: InlineQueryResult[]) => ctx.answerInlineQuery(results, { is_personal: true, cache_time: 0 });
  if (!query) {
    const known = await findUserByIdentity(ctx.deps, "telegram", String(ctx.from.id));
    const recent = known ? await listLinks(ctx.deps, (await actingIn(ctx.deps, known)).owner.id, { limit: RECENT }) : [];
    return answer(
      recent.map((l) =>
        article(
          `link-${l.id}`,
          l.title ?? l.original_url,
          ctx.t("inline-recent", { url: l.trackingUrl, clicks: l.stats.totalClicks }),
          l.trackingUrl,
        ),
      ),
    );
  }
  const reading = await readUrl(query, ctx.deps);
  if (!reading)
    return answer([
      article("hint", ctx.t("inline-hint-title"), ctx.t("inline-hint-description"), ctx.t("inline-hint-text", { bot: ctx.me.username })),
    ]);
  if ("problem" in reading)
    return answer([article("problem", ctx.t("inline-problem-title"), tell(ctx, reading.problem), tell(ctx, reading.problem))]);
  const user = await upsertTelegramUser(ctx.deps, { id: ctx.from.id, username: ctx.from.username, firstName: ctx.from.first_name });
  const { owner } = await actingIn(ctx.deps, user);
  const existing = await existingLink(ctx, owner.id, reading.url);
  if (existing)
    return answer([
      article(`link-${existing.id}`, existing.trackingUrl, ctx.t("inline-existing", { url: reading.url }), existing.trackingUrl),
    ]);
  const button: InlineKeyboardMarkup = { inline_keyboard: [[{ text: ctx.t("inline-making"), url: `https://t.me/${ctx.me.username}` }]] };
  return answer([article(NEW, ctx.t("inline-new-title", { url: reading.url }), ctx.t("inline-new-description"), reading.url, button)]);
});

inlineFeature.on("chosen_inline_result", async (ctx) => {
  const chosen = ctx.chosenInlineResult;
  if (chosen.result_id !== NEW) return;
  const reading = await readUrl(chosen.query.trim(), ctx.deps);
  if (!reading || "problem" in reading) return;
  const user = await upsertTelegramUser(ctx.deps, { id: ctx.from.id, username: ctx.from.username, firstName: ctx.from.first_name });
  let text: string;
  try {
    // in the workspace the person acts in (Settings), if their role there may make links
    const { owner, role } = await actingIn(ctx.deps, user);
    const made = await existingLink(ctx, owner.id, reading.url);
    if (!made) requireRole(role, "editor");
    const link = made ?? (await write({ deps: ctx.deps, owner, user }, createLink, { url: reading.url }));
    text = link.trackingUrl;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    text = reading.url; // the message keeps the plain URL; the sender is told why there is no short link
    await ctx.api
      .sendMessage(ctx.from.id, ctx.t("inline-failed", { url: Bun.escapeHTML(reading.url), problem: Bun.escapeHTML(problemText(ctx, e)) }))
      .catch(() => undefined);
  }
  if (chosen.inline_message_id)
    // without reply_markup the edit also takes away the "⏳ Making the short link…" button
    await ctx.api.editMessageTextInline(chosen.inline_message_id, Bun.escapeHTML(text), { link_preview_options: { is_disabled: true } });
});
